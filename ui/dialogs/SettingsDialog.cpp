#include "dialogs/SettingsDialog.h"

#include "settings/LanguageManager.h"
#include "settings/Settings.h"
#include "settings/Theme.h"
#include "widgets/DecimalSpinBox.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>

namespace entrena::ui {

SettingsDialog::SettingsDialog(LanguageManager& languages, QWidget* parent)
    : QDialog(parent)
    , languages_(languages)
    , language_(new QComboBox(this))
    , theme_(new QComboBox(this))
    , tolerance_(new DecimalSpinBox(this))
{
    setWindowTitle(tr("Settings"));
    language_->setObjectName(QStringLiteral("languageCombo"));
    language_->addItem(tr("System language"), QString());
    // Each language is named in itself, so a person can find theirs whatever the current one.
    language_->addItem(QStringLiteral("English"), QStringLiteral("en"));
    language_->addItem(QStringLiteral("Español"), QStringLiteral("es"));
    const int i = language_->findData(Settings::language.value());
    language_->setCurrentIndex(i >= 0 ? i : 0);

    theme_->setObjectName(QStringLiteral("themeCombo"));
    theme_->addItem(tr("As the desktop"), QString());
    theme_->addItem(tr("Light"), QStringLiteral("light"));
    theme_->addItem(tr("Dark"), QStringLiteral("dark"));
    const int t = theme_->findData(Settings::theme.value());
    theme_->setCurrentIndex(t >= 0 ? t : 0);

    tolerance_->setObjectName(QStringLiteral("baselineToleranceSpin"));
    tolerance_->setRange(0.0, 100.0);
    tolerance_->setDecimals(2);
    tolerance_->setSingleStep(0.1);
    tolerance_->setSuffix(tr(" pp"));
    tolerance_->setValue(Settings::baselineTolerance.value());
    tolerance_->setToolTip(tr("A run faster than its data set's baseline is flagged when its final accuracy is lower by more "
                              "than this many percentage points."));

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* form = new QFormLayout(this);
    form->addRow(tr("Language:"), language_);
    form->addRow(tr("Appearance:"), theme_);
    form->addRow(tr("Baseline tolerance:"), tolerance_);
    form->addRow(buttons);
}

void SettingsDialog::accept()
{
    const QString code = language_->currentData().toString();
    Settings::language.set(code);
    languages_.apply(code);
    Settings::theme.set(theme_->currentData().toString());
    applyTheme(Settings::theme.value());
    Settings::baselineTolerance.set(tolerance_->value());
    QDialog::accept();
}

} // namespace entrena::ui
