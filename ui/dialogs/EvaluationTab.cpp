#include "dialogs/EvaluationTab.h"

#include "charts/ConfusionMatrixChart.h"
#include "dialogs/Thumbnail.h"

#include <QFileInfo>
#include <QGridLayout>
#include <QHeaderView>
#include <QImage>
#include <QLabel>
#include <QLocale>
#include <QPixmap>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>
#include <cmath>

namespace entrena::ui {
namespace {

constexpr int kThumbnail = 96;
constexpr int kWrongColumns = 3;

/// A cell that sorts by a number (UserRole) rather than by its text: "9.5" before "10.0", and
/// the class column in label order rather than alphabetically.
class NumberItem : public QTableWidgetItem {
public:
    NumberItem(const QString& text, double value)
        : QTableWidgetItem(text)
    {
        setData(Qt::UserRole, value);
    }
    bool operator<(const QTableWidgetItem& other) const override
    {
        return data(Qt::UserRole).toDouble() < other.data(Qt::UserRole).toDouble();
    }
};

QString className(const EvaluationReport& report, int64_t index)
{
    return index >= 0 && std::size_t(index) < report.classes.size() ? QString::fromStdString(report.classes[std::size_t(index)])
                                                                    : QString::number(index);
}

} // namespace

// What the matrix shows, on which split, and the share right.
QLabel* EvaluationTab::captionFor(const EvaluationReport& report)
{
    const QLocale locale;
    int64_t total = 0, right = 0;
    for (std::size_t t = 0; t < report.confusion.size(); ++t)
        for (std::size_t p = 0; p < report.confusion[t].size(); ++p) {
            total += report.confusion[t][p];
            right += t == p ? report.confusion[t][p] : 0;
        }
    const QString split = report.split == "test" ? tr("the test split") : tr("the validation split");
    auto* caption = new QLabel(tr("On %1: %2 samples, %3% right. Rows are the true class, columns what the model "
                                  "predicted; the colour is the share of the row.")
                                   .arg(split, locale.toString(qlonglong(total)),
                                        locale.toString(total > 0 ? 100.0 * double(right) / double(total) : 0.0, 'f', 2)));
    caption->setText(caption->text() + QLatin1Char(' ') + tr("Click a cell to see its samples."));
    caption->setObjectName(QStringLiteral("evaluationCaption"));
    caption->setWordWrap(true);
    return caption;
}

// Precision, recall and support of each class, sortable.
void EvaluationTab::buildPerClassTable(const EvaluationReport& report)
{
    const QLocale locale;
    perClass_ = new QTableWidget(0, 4);
    perClass_->setObjectName(QStringLiteral("perClassTable"));
    perClass_->setHorizontalHeaderLabels({tr("Class"), tr("Precision (%)"), tr("Recall (%)"), tr("Support")});
    const QString tips[] = {QString(), tr("Of the samples predicted as this class, the share that are of it."),
                            tr("Of the samples of this class, the share predicted as it."),
                            tr("The samples of this class in the split.")};
    for (int c = 1; c < 4; ++c)
        perClass_->horizontalHeaderItem(c)->setToolTip(tips[c]);
    perClass_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    perClass_->verticalHeader()->hide();
    perClass_->setRowCount(int(report.perClass.size()));
    for (int r = 0; r < int(report.perClass.size()); ++r) {
        const ClassScore& s = report.perClass[std::size_t(r)];
        perClass_->setItem(r, 0, new NumberItem(QString::fromStdString(s.name), r));
        const double cells[] = {s.precision * 100.0, s.recall * 100.0};
        for (int c = 0; c < 2; ++c) {
            auto* item = new NumberItem(locale.toString(cells[c], 'f', 1), cells[c]);
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            perClass_->setItem(r, c + 1, item);
        }
        auto* support = new NumberItem(locale.toString(qlonglong(s.support)), double(s.support));
        support->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        perClass_->setItem(r, 3, support);
    }
    perClass_->setSortingEnabled(true);
    perClass_->sortByColumn(0, Qt::AscendingOrder); // label order, as the matrix
    perClass_->resizeColumnsToContents();
    for (int c = 0; c < perClass_->columnCount(); ++c)
        tableWidth_ += perClass_->columnWidth(c);
    perClass_->horizontalHeader()->setStretchLastSection(true);
}

EvaluationTab::EvaluationTab(const EvaluationReport& report, QWidget* parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("evaluationTab"));
    auto* layout = new QVBoxLayout(this);
    if (report.empty()) {
        empty_ = new QLabel(tr("This run has no evaluation. Entrena measures what a model gets wrong, class by class, "
                               "when a run finishes: runs that failed or were stopped, and runs from before this "
                               "version, have none."));
        empty_->setObjectName(QStringLiteral("noEvaluation"));
        empty_->setWordWrap(true);
        empty_->setAlignment(Qt::AlignCenter);
        layout->addWidget(empty_);
        return;
    }

    layout->addWidget(captionFor(report));

    matrix_ = new ConfusionMatrixChart;
    matrix_->setReport(report);
    matrix_->setMinimumSize(320, 300);
    connect(matrix_, &ConfusionMatrixChart::cellClicked, this, [this](int t, int p) { Q_EMIT samplesWanted(t, p, -1); });

    buildPerClassTable(report);

    auto* side = new QWidget;
    auto* sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(0, 0, 0, 0);
    sideLayout->addWidget(perClass_, 1);
    if (!report.wrong.empty())
        sideLayout->addWidget(wrongExamples(report), 1);

    splitter_ = new QSplitter(Qt::Horizontal);
    splitter_->addWidget(matrix_);
    splitter_->addWidget(side);
    splitter_->setStretchFactor(0, 1);
    splitter_->setStretchFactor(1, 0);
    layout->addWidget(splitter_, 1);
}

QWidget* EvaluationTab::wrongExamples(const EvaluationReport& report)
{
    const QLocale locale;
    auto* box = new QWidget;
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* title = new QLabel(tr("Most confidently wrong:"));
    title->setObjectName(QStringLiteral("wrongTitle"));
    layout->addWidget(title);
    auto* grid = new QWidget;
    grid->setObjectName(QStringLiteral("wrongExamples"));
    auto* gridLayout = new QGridLayout(grid);
    for (const WrongExample& w : report.wrong) {
        auto* picture = new QToolButton;
        picture->setObjectName(QStringLiteral("wrongPicture"));
        picture->setAutoRaise(true);
        picture->setCursor(Qt::PointingHandCursor);
        picture->setFixedSize(kThumbnail + 8, kThumbnail + 8);
        picture->setIconSize(QSize(kThumbnail, kThumbnail));
        const QPixmap pixmap = thumbnail(QImage(QString::fromStdString(w.image)), kThumbnail);
        if (pixmap.isNull())
            picture->setText(tr("(no picture)"));
        else
            picture->setIcon(QIcon(pixmap));
        // The original file where the samples have files (image folders), else its place in the split.
        const QString where = (w.file.empty() ? tr("Sample %1 of the split").arg(locale.toString(qlonglong(w.index)))
                                              : QString::fromStdString(w.file)) +
                              QLatin1Char('\n') + tr("Click to see every sample of this pair.");
        picture->setToolTip(where);
        if (w.trueClass >= 0 && w.predicted >= 0) // a class the report no longer names opens nothing
            connect(picture, &QToolButton::clicked, this,
                    [this, t = int(w.trueClass), p = int(w.predicted), i = qint64(w.index)] { Q_EMIT samplesWanted(t, p, i); });
        wrongButtons_ << picture;
        auto* caption = new QLabel(tr("%1 → %2\n%3% sure")
                                       .arg(className(report, w.trueClass), className(report, w.predicted),
                                            locale.toString(w.confidence * 100.0, 'f', 1)));
        caption->setToolTip(where);
        caption->setObjectName(QStringLiteral("wrongCaption"));
        caption->setAlignment(Qt::AlignHCenter | Qt::AlignTop);
        caption->setWordWrap(true);
        caption->setFixedWidth(kThumbnail + 30);
        // Long names (and Spanish's "de confianza") wrap to three or four lines: the tile is as tall
        // as its caption needs, never cut.
        caption->setMinimumHeight(caption->heightForWidth(kThumbnail + 30));
        auto* tile = new QVBoxLayout;
        tile->addWidget(picture, 0, Qt::AlignHCenter);
        tile->addWidget(caption, 0, Qt::AlignHCenter);
        tile->addStretch(1);
        gridLayout->addLayout(tile, wrongShown_ / kWrongColumns, wrongShown_ % kWrongColumns);
        ++wrongShown_;
    }
    gridLayout->setRowStretch(gridLayout->rowCount(), 1);
    auto* scroll = new QScrollArea;
    scroll->setWidget(grid);
    scroll->setWidgetResizable(true);
    layout->addWidget(scroll, 1);
    return box;
}

void EvaluationTab::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    // The matrix takes what the table and the pictures leave: they get what they need, up to 45%.
    // (A splitter's first share follows size hints, and the table's asks for far more.)
    if (fitted_ || !splitter_)
        return;
    fitted_ = true;
    const int total = splitter_->width();
    const int table = tableWidth_ + perClass_->verticalScrollBar()->sizeHint().width() + 2 * perClass_->frameWidth();
    const int pictures = wrongShown_ > 0 ? kWrongColumns * (kThumbnail + 40) + 30 : 0;
    const int side = std::min(std::max(table, pictures), total * 45 / 100);
    splitter_->setSizes({total - side, side});
}

} // namespace entrena::ui
