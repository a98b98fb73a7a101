#include "dialogs/SettingsDialog.h"

#include "settings/LanguageManager.h"
#include "settings/Settings.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>

namespace entrena::ui {

SettingsDialog::SettingsDialog(LanguageManager& languages, QWidget* parent)
    : QDialog(parent)
    , languages_(languages)
    , language_(new QComboBox(this))
{
    setWindowTitle(tr("Settings"));
    language_->setObjectName(QStringLiteral("languageCombo"));
    language_->addItem(tr("System language"), QString());
    // Each language is named in itself, so a person can find theirs whatever the current one.
    language_->addItem(QStringLiteral("English"), QStringLiteral("en"));
    language_->addItem(QStringLiteral("Español"), QStringLiteral("es"));
    const int i = language_->findData(Settings::language.value());
    language_->setCurrentIndex(i >= 0 ? i : 0);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* form = new QFormLayout(this);
    form->addRow(tr("Language:"), language_);
    form->addRow(buttons);
}

void SettingsDialog::accept()
{
    const QString code = language_->currentData().toString();
    Settings::language.set(code);
    languages_.apply(code);
    QDialog::accept();
}

} // namespace entrena::ui
