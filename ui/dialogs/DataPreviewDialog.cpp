#include "dialogs/DataPreviewDialog.h"

#include "ChoiceLabels.h"
#include "JobRunner.h"
#include "charts/ChartTheme.h"
#include "dialogs/Thumbnail.h"
#include "widgets/ScreenFit.h"

#include <QDialogButtonBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>
#include <algorithm>

namespace entrena::ui {
namespace {

constexpr int kThumbnail = 64; // 28 and 32 pixels grow twice, sharp

QLabel* note(const QString& objectName)
{
    auto* label = new QLabel;
    label->setObjectName(objectName);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setVisible(false);
    return label;
}

/// A box that stands out from the dialog, in the palette's warning colour.
void markAsWarning(QLabel* label)
{
    const QColor back = markColor(label->palette(), false);
    label->setStyleSheet(QStringLiteral("QLabel { background-color: %1; color: %2; padding: 6px; border-radius: 3px; }")
                             .arg(back.name(), label->palette().color(QPalette::WindowText).name()));
}

} // namespace

DataPreviewDialog::DataPreviewDialog(const DataSpec& spec, QWidget* parent)
    : QDialog(parent)
    , spec_(spec)
    , status_(new QLabel)
    , total_(note(QStringLiteral("previewTotal")))
    , imbalance_(note(QStringLiteral("previewImbalance")))
    , skipped_(note(QStringLiteral("previewSkipped")))
    , error_(note(QStringLiteral("previewError")))
    , scroll_(new QScrollArea)
    , others_(new QPushButton(tr("Other samples")))
    , balance_(new QPushButton(tr("Balance the classes")))
{
    setObjectName(QStringLiteral("dataPreview"));
    setWindowTitle(tr("Data: %1").arg(app::ChoiceLabels::dataset(QString::fromLatin1(toString(spec.dataset)))));
    sizeToScreen(this, QSize(860, 640));
    status_->setObjectName(QStringLiteral("previewStatus"));
    status_->setWordWrap(true);
    markAsWarning(imbalance_);
    markAsWarning(skipped_);
    error_->setStyleSheet(QStringLiteral("color: #d33f3f; font-weight: bold;"));
    others_->setObjectName(QStringLiteral("otherSamplesButton"));
    others_->setToolTip(tr("Draw other pictures of each class"));
    others_->setEnabled(false);
    balance_->setObjectName(QStringLiteral("balanceClassesButton"));
    balance_->setToolTip(tr("Train with the loss weighted by class (data.balance: weights), so that the small classes "
                            "count as much as the large ones"));
    balance_->setVisible(false);
    connect(balance_, &QPushButton::clicked, this, [this] {
        spec_.balance = Balance::Weights;
        balance_->setVisible(false);
        imbalance_->setText(imbalance_->text() + QLatin1Char('\n') +
                            tr("The run will weight the loss by class (Balance classes in the form)."));
        Q_EMIT balanceRequested();
    });

    scroll_->setWidgetResizable(true);
    clearRows();
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    buttons->addButton(others_, QDialogButtonBox::ActionRole);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(others_, &QPushButton::clicked, this, [this] {
        ++seed_;
        load();
    });

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(status_);
    layout->addWidget(error_);
    auto* imbalanceRow = new QHBoxLayout;
    imbalanceRow->addWidget(imbalance_, 1);
    imbalanceRow->addWidget(balance_, 0, Qt::AlignTop);
    layout->addLayout(imbalanceRow);
    layout->addWidget(skipped_);
    layout->addWidget(scroll_, 1);
    layout->addWidget(total_);
    layout->addWidget(buttons);
    load();
}

QString DataPreviewDialog::imbalanceText(const DataPreview& p) const
{
    // The engine's sentence, in the reader's words: said when it says there is something to say.
    const auto [small, large] = std::minmax_element(
        p.classes.begin(), p.classes.end(), [](const ClassPreview& a, const ClassPreview& b) { return a.count < b.count; });
    if (p.imbalance.empty() || small == p.classes.end())
        return QString();
    const QLocale locale;
    return tr("the classes are unbalanced: “%1” has %2 samples, “%3” %4 (%5× fewer); a model can score well by favouring "
              "the large classes, so compare per-class recall (run details → Evaluation), balance them, or gather more "
              "of the small ones.")
        .arg(QString::fromStdString(large->name), locale.toString(qlonglong(large->count)), QString::fromStdString(small->name),
             locale.toString(qlonglong(small->count)),
             locale.toString(double(large->count) / double(std::max<int64_t>(1, small->count)), 'f', 1));
}

DataPreviewDialog::~DataPreviewDialog()
{
    job_.cancel(); // nothing more is delivered to a closed dialog
}

void DataPreviewDialog::load()
{
    ready_ = false;
    others_->setEnabled(false);
    status_->setText(spec_.path.empty() ? tr("Reading the data…") : tr("Reading %1…").arg(QString::fromStdString(spec_.path)));
    // Listing a large folder and decoding a picture of each class: off the GUI thread.
    job_ = app::JobRunner::shared()->run(
        tr("Preview data"), [spec = spec_, seed = seed_](app::JobContext&) { return previewData(spec, kPerClass, seed); });
    job_.onFinished(this, [this](const DataPreview& p) { showPreview(p); });
    job_.onFailed(this, [this](const QString& message) { fail(message); });
}

void DataPreviewDialog::clearRows()
{
    // A fresh page of rows: the scroll area deletes the old one with every picture in it.
    rows_ = new QWidget;
    grid_ = new QGridLayout(rows_);
    grid_->setColumnStretch(2, 1);
    scroll_->setWidget(rows_);
    names_.clear();
    counts_.clear();
    shown_.clear();
}

/// Class `k`'s row: its name, its training samples and its pictures.
void DataPreviewDialog::addClassRow(const DataPreview& p, int k)
{
    const QLocale locale;
    const ClassPreview& c = p.classes[std::size_t(k)];
    auto* name = new QLabel(QString::fromStdString(c.name));
    name->setObjectName(QStringLiteral("previewClassName"));
    auto* count = new QLabel(locale.toString(qlonglong(c.count)));
    count->setObjectName(QStringLiteral("previewClassCount"));
    count->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    auto* pictures = new QHBoxLayout;
    pictures->setSpacing(4);
    int shown = 0;
    for (const auto& bytes : c.images) {
        const QPixmap pixmap = thumbnail(imageFromBytes(bytes, p.channels, p.height, p.width), kThumbnail);
        if (pixmap.isNull())
            continue;
        auto* picture = new QLabel;
        picture->setPixmap(pixmap);
        pictures->addWidget(picture);
        ++shown;
    }
    pictures->addStretch(1);
    grid_->addWidget(name, k + 1, 0);
    grid_->addWidget(count, k + 1, 1);
    grid_->addLayout(pictures, k + 1, 2);
    names_ << name;
    counts_ << count;
    shown_ << shown;
}

void DataPreviewDialog::showPreview(const DataPreview& p)
{
    clearRows();
    const QLocale locale;
    status_->setText(p.channels > 0 ? tr("Each class with its training samples and up to %1 of its pictures, drawn at "
                                         "random; the pictures are %2×%3 pixels, %4.")
                                          .arg(kPerClass)
                                          .arg(p.width)
                                          .arg(p.height)
                                          .arg(p.channels == 1 ? tr("grey") : tr("colour"))
                                    : tr("Each class with its training samples (a table has no pictures to show)."));
    const QString headers[] = {tr("Class"), tr("Samples"), p.channels > 0 ? tr("Pictures") : QString()};
    for (int h = 0; h < 3; ++h) {
        auto* header = new QLabel(headers[h]);
        QFont bold = header->font();
        bold.setBold(true);
        header->setFont(bold);
        grid_->addWidget(header, 0, h, h == 1 ? Qt::AlignRight : Qt::AlignLeft);
    }
    for (int k = 0; k < int(p.classes.size()); ++k)
        addClassRow(p, k);
    grid_->setRowStretch(int(p.classes.size()) + 1, 1);
    total_->setText(tr("%1 classes, %2 training samples in all (the validation share included).")
                        .arg(locale.toString(qlonglong(p.classes.size())), locale.toString(qlonglong(p.total))));
    total_->setVisible(true);
    imbalance_->setText(tr("⚠ Warning: %1").arg(imbalanceText(p)));
    if (!p.imbalance.empty() && spec_.balance != Balance::None)
        imbalance_->setText(
            imbalance_->text() + QLatin1Char('\n') +
            tr("The form already balances them (Balance classes: %1).")
                .arg(spec_.balance == Balance::Weights ? tr("weight the loss by class") : tr("draw classes evenly")));
    imbalance_->setVisible(!p.imbalance.empty());
    balance_->setVisible(!p.imbalance.empty() && spec_.balance == Balance::None);
    skipped_->setText(tr("⚠ Skipped files: %1").arg(QString::fromStdString(p.skipped)));
    skipped_->setVisible(!p.skipped.empty());
    error_->setVisible(false);
    others_->setEnabled(p.channels > 0);
    ready_ = true;
    Q_EMIT ready();
}

void DataPreviewDialog::fail(const QString& message)
{
    clearRows();
    status_->setText(tr("The data cannot be read."));
    error_->setText(message);
    error_->setVisible(true);
    total_->setVisible(false);
    imbalance_->setVisible(false);
    balance_->setVisible(false);
    skipped_->setVisible(false);
    others_->setEnabled(true); // to try again, once the folder is fixed
    ready_ = true;
    Q_EMIT ready();
}

QStringList DataPreviewDialog::classNames() const
{
    QStringList out;
    for (const QLabel* l : names_)
        out << l->text();
    return out;
}

QStringList DataPreviewDialog::countTexts() const
{
    QStringList out;
    for (const QLabel* l : counts_)
        out << l->text();
    return out;
}

int DataPreviewDialog::imagesShown(int row) const
{
    return shown_.value(row, 0);
}

} // namespace entrena::ui
