#include "dialogs/CellSamplesDialog.h"

#include "JobRunner.h"
#include "dialogs/Thumbnail.h"
#include "widgets/ScreenFit.h"

#include <QApplication>
#include <QClipboard>
#include <QDesktopServices>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QListWidget>
#include <QLocale>
#include <QPushButton>
#include <QStackedWidget>
#include <QTableWidget>
#include <QUrl>
#include <QVBoxLayout>

namespace entrena::ui {
namespace {

constexpr int kThumbnail = 96;

/// A sample's picture no larger than a thumbnail needs (made on the job's thread: a cell of a large
/// image folder holds thousands).
QImage small(const QImage& image)
{
    if (image.width() <= kThumbnail && image.height() <= kThumbnail)
        return image;
    return image.scaled(kThumbnail, kThumbnail, Qt::KeepAspectRatio, Qt::SmoothTransformation);
}

} // namespace

/// What the job hands back: the review (to keep), the cell's samples and what shows them.
struct CellSamplesDialog::Content {
    std::shared_ptr<const SplitReview> review;
    std::vector<ReviewedSample> samples;
    QList<QImage> pictures;              ///< image data: one per sample
    QList<std::vector<double>> features; ///< tables: one row per sample
};

CellSamplesDialog::CellSamplesDialog(RunStore& store, int64_t runId, std::shared_ptr<const SplitReview> review, int trueClass,
                                     int predicted, int64_t select, QWidget* parent)
    : QDialog(parent)
    , runId_(runId)
    , trueClass_(trueClass)
    , predicted_(predicted)
    , select_(select)
    , heading_(new QLabel(tr("Classifying the evaluated split again with the run's last checkpoint…")))
    , note_(new QLabel)
    , status_(new QLabel)
    , pages_(new QStackedWidget)
    , pictures_(new QListWidget)
    , rows_(new QTableWidget)
    , open_(new QPushButton(tr("&Open")))
    , showFolder_(new QPushButton(tr("Show in &folder")))
    , copy_(new QPushButton(tr("Copy &path")))
{
    setObjectName(QStringLiteral("cellSamplesDialog"));
    setWindowTitle(tr("Samples of one cell"));
    heading_->setObjectName(QStringLiteral("cellHeading"));
    heading_->setWordWrap(true);
    note_->setObjectName(QStringLiteral("cellNote"));
    note_->setWordWrap(true);
    note_->hide();

    setUpViews();
    setUpActions();
    layOut();
    startLoading(store.path(), runId, std::move(review), trueClass, predicted);
}

void CellSamplesDialog::setUpViews()
{
    pictures_->setObjectName(QStringLiteral("cellPictures"));
    pictures_->setViewMode(QListView::IconMode);
    pictures_->setIconSize(QSize(kThumbnail, kThumbnail));
    pictures_->setGridSize(QSize(kThumbnail + 48, kThumbnail + 44));
    pictures_->setResizeMode(QListView::Adjust);
    pictures_->setMovement(QListView::Static);
    pictures_->setWordWrap(true);
    pictures_->setUniformItemSizes(true);
    rows_->setObjectName(QStringLiteral("cellRows"));
    rows_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    rows_->setSelectionBehavior(QAbstractItemView::SelectRows);
    rows_->setSelectionMode(QAbstractItemView::SingleSelection);
    rows_->verticalHeader()->hide();
    pages_->addWidget(pictures_);
    pages_->addWidget(rows_);
}

void CellSamplesDialog::setUpActions()
{
    open_->setObjectName(QStringLiteral("cellOpen"));
    showFolder_->setObjectName(QStringLiteral("cellShowFolder"));
    copy_->setObjectName(QStringLiteral("cellCopy"));
    for (QPushButton* b : {open_, showFolder_, copy_}) {
        b->setEnabled(false);
        b->setAutoDefault(false);
    }
    connect(open_, &QPushButton::clicked, this, &CellSamplesDialog::openSelected);
    connect(showFolder_, &QPushButton::clicked, this, [this] {
        const QString file = selectedFile();
        if (!file.isEmpty())
            openUrl(QFileInfo(file).absolutePath());
    });
    connect(copy_, &QPushButton::clicked, this, [this] {
        const int row = selectedRow();
        if (row < 0)
            return;
        const ReviewedSample& s = samples_[size_t(row)];
        const QString text = s.line > 0 ? QStringLiteral("%1:%2").arg(tableFile_).arg(s.line) : QString::fromStdString(s.file);
        QApplication::clipboard()->setText(text);
        status_->setText(tr("Copied %1.").arg(text));
    });
    connect(pictures_, &QListWidget::itemSelectionChanged, this, &CellSamplesDialog::selectionChanged);
    connect(rows_, &QTableWidget::itemSelectionChanged, this, &CellSamplesDialog::selectionChanged);
    connect(pictures_, &QListWidget::itemActivated, this, &CellSamplesDialog::openSelected);
    connect(rows_, &QTableWidget::itemActivated, this, &CellSamplesDialog::openSelected);
}

void CellSamplesDialog::layOut()
{
    auto* actions = new QHBoxLayout;
    actions->addWidget(open_);
    actions->addWidget(showFolder_);
    actions->addWidget(copy_);
    actions->addStretch(1);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    // No default button: Enter opens a sample, and after Copy or Open it must not close the
    // window (Escape and Close do).
    buttons->button(QDialogButtonBox::Close)->setAutoDefault(false);
    buttons->button(QDialogButtonBox::Close)->setDefault(false);
    actions->addWidget(buttons);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(heading_);
    layout->addWidget(note_);
    layout->addWidget(pages_, 1);
    status_->setObjectName(QStringLiteral("cellStatus"));
    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(status_);
    layout->addLayout(actions);
    sizeToScreen(this, QSize(860, 620));
}

void CellSamplesDialog::startLoading(const std::string& db, int64_t runId, std::shared_ptr<const SplitReview> review,
                                     int trueClass, int predicted)
{
    const auto job = app::JobRunner::shared()->run(
        tr("Open a confusion-matrix cell"), [db, runId, review, trueClass, predicted](app::JobContext& context) {
            Content c;
            c.review = review;
            if (!c.review) {
                RunStore own(db); // a connection of the job's own thread
                c.review = std::make_shared<const SplitReview>(SplitReview::ofRun(own, runId, &context.stopToken()));
            }
            c.samples = c.review->cell(trueClass, predicted);
            for (const ReviewedSample& s : c.samples) {
                if (c.review->table()) {
                    c.features << c.review->features(s.index);
                } else {
                    const ModelView v = c.review->picture(s.index);
                    c.pictures << small(imageFromBytes(v.pixels, v.channels, v.height, v.width));
                }
            }
            return c;
        });
    job_ = job.job();
    job.onFinished(this, [this](const Content& c) { fill(c); });
    job.onFailed(this, [this](const QString& message) {
        heading_->setText(tr("The samples cannot be listed: %1").arg(message));
        Q_EMIT loaded(false);
    });
}

CellSamplesDialog::~CellSamplesDialog()
{
    if (job_)
        job_->cancel();
}

void CellSamplesDialog::fill(const Content& c)
{
    const SplitReview& review = *c.review;
    Q_EMIT reviewReady(c.review);
    review_ = c.review;
    samples_ = c.samples;
    tableFile_ = QString::fromStdString(review.tableFile());
    describe(review);
    int selectRow = samples_.empty() ? -1 : 0;
    for (size_t i = 0; i < samples_.size(); ++i)
        if (samples_[i].index == select_)
            selectRow = int(i);

    if (review.table())
        fillRows(c, selectRow);
    else
        fillPictures(c, selectRow);
    selectionChanged();
    Q_EMIT loaded(true);
}

QString CellSamplesDialog::className(int k) const
{
    const auto& classes = review_->classes();
    return k >= 0 && size_t(k) < classes.size() ? QString::fromStdString(classes[size_t(k)]) : QString::number(k);
}

QString CellSamplesDialog::splitName() const
{
    return review_->split() == "test" ? tr("the test split") : tr("the validation split");
}

void CellSamplesDialog::describe(const SplitReview& review)
{
    const auto name = [this](int k) { return className(k); };
    const QString split = splitName();
    setWindowTitle(tr("True %1, predicted %2").arg(name(trueClass_), name(predicted_)));
    // Counts stand alone ("…: 25"), so no language needs a plural of "sample" here.
    const QLocale locale;
    const QString count = locale.toString(qlonglong(samples_.size()));
    heading_->setText(
        trueClass_ == predicted_
            ? tr("%1 in %2 that the model predicted right: %3, most confident first.").arg(name(trueClass_), split, count)
            : tr("%1 in %2 that the model took for %3: %4, most confident first.")
                  .arg(name(trueClass_), split, name(predicted_), count));
    QString note =
        tr("Classified again by the last checkpoint of run %1 “%2” (epoch %3, step %4).")
            .arg(QString::number(runId_), QString::fromStdString(review.runName()),
                 locale.toString(qlonglong(review.checkpointEpoch())), locale.toString(qlonglong(review.checkpointStep())));
    if (review.unreadable() > 0)
        note += QLatin1Char(' ') + tr("Samples of the split that could not be read again (damaged or deleted since): %1.")
                                       .arg(locale.toString(qlonglong(review.unreadable())));
    if (review.disagreements() > 0)
        note += QLatin1Char(' ') + tr("Samples that land in another cell than when the run ended, or are new or gone: %1 "
                                      "(its data changed since, or another device rounded differently).")
                                       .arg(locale.toString(qlonglong(review.disagreements())));
    note_->setText(note);
    note_->show();
}

void CellSamplesDialog::fillRows(const Content& c, int selectRow)
{
    const SplitReview& review = *c.review;
    pages_->setCurrentWidget(rows_);
    showFolder_->setText(tr("Show in &folder"));
    copy_->setText(tr("Copy &line"));
    open_->setText(tr("&Open the table"));
    QStringList headers = {tr("Line"), tr("Confidence")};
    const auto& names = review.featureNames();
    const size_t width = c.features.isEmpty() ? names.size() : c.features.first().size();
    for (size_t j = 0; j < width; ++j)
        headers << (j < names.size() ? QString::fromStdString(names[j]) : tr("Column %1").arg(j + 1));
    rows_->setColumnCount(headers.size());
    rows_->setHorizontalHeaderLabels(headers);
    rows_->setRowCount(int(samples_.size()));
    const QLocale locale;
    for (int r = 0; r < int(samples_.size()); ++r) {
        const ReviewedSample& s = samples_[size_t(r)];
        auto* line = new QTableWidgetItem(locale.toString(qlonglong(s.line)));
        line->setToolTip(QStringLiteral("%1:%2").arg(tableFile_).arg(s.line));
        rows_->setItem(r, 0, line);
        auto* confidence = new QTableWidgetItem(percent(s.confidence));
        confidence->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        rows_->setItem(r, 1, confidence);
        const std::vector<double>& values = c.features[r];
        for (size_t j = 0; j < values.size(); ++j) {
            auto* v = new QTableWidgetItem(locale.toString(values[j], 'g', 6));
            v->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            rows_->setItem(r, int(j) + 2, v);
        }
    }
    rows_->resizeColumnsToContents();
    rows_->horizontalHeader()->setStretchLastSection(true);
    if (selectRow >= 0)
        rows_->selectRow(selectRow);
}

void CellSamplesDialog::fillPictures(const Content& c, int selectRow)
{
    const QString split = splitName();
    pages_->setCurrentWidget(pictures_);
    for (int r = 0; r < int(samples_.size()); ++r) {
        const ReviewedSample& s = samples_[size_t(r)];
        const QString file = QString::fromStdString(s.file);
        const QString where = file.isEmpty() ? tr("Sample %1 of %2 (this data set's images have no file of their own)")
                                                   .arg(QLocale().toString(qlonglong(s.index)), split)
                                             : file;
        auto* item = new QListWidgetItem(QIcon(thumbnail(c.pictures.value(r), kThumbnail)),
                                         percent(s.confidence) + QLatin1Char('\n') +
                                             (file.isEmpty() ? QStringLiteral("#%1").arg(s.index) : QFileInfo(file).fileName()),
                                         pictures_);
        item->setToolTip(where);
    }
    if (selectRow >= 0) {
        pictures_->setCurrentRow(selectRow);
        pictures_->scrollToItem(pictures_->item(selectRow));
    }
}

int CellSamplesDialog::selectedRow() const
{
    const int row = pages_->currentWidget() == rows_ ? rows_->currentRow() : pictures_->currentRow();
    return row >= 0 && size_t(row) < samples_.size() ? row : -1;
}

QString CellSamplesDialog::selectedFile() const
{
    const int row = selectedRow();
    if (row < 0)
        return QString();
    const ReviewedSample& s = samples_[size_t(row)];
    return s.line > 0 ? tableFile_ : QString::fromStdString(s.file);
}

void CellSamplesDialog::selectionChanged()
{
    status_->clear(); // it spoke of the sample selected before
    const bool file = !selectedFile().isEmpty();
    open_->setEnabled(file);
    showFolder_->setEnabled(file);
    copy_->setEnabled(file);
    const QString none = tr("This data set's samples have no file of their own.");
    for (QPushButton* b : {open_, showFolder_, copy_})
        b->setToolTip(file || selectedRow() < 0 ? QString() : none);
}

QString CellSamplesDialog::percent(double share)
{
    return tr("%1%").arg(QLocale().toString(share * 100.0, 'f', 1));
}

void CellSamplesDialog::openUrl(const QString& path)
{
    // Without a program for the file (a bare desktop), say so rather than nothing at all.
    if (QDesktopServices::openUrl(QUrl::fromLocalFile(path)))
        status_->setText(tr("Opened %1.").arg(QDir::toNativeSeparators(path)));
    else
        status_->setText(tr("Nothing on this computer opens %1.").arg(QDir::toNativeSeparators(path)));
}

void CellSamplesDialog::openSelected()
{
    const QString file = selectedFile();
    if (!file.isEmpty())
        openUrl(file);
}

void CellSamplesDialog::keyPressEvent(QKeyEvent* event)
{
    // Enter on a sample opens it (the list has emitted activated and passes the key on); it must
    // not press the dialog's default button and close the window.
    const bool enter = event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter;
    if (enter && (focusWidget() == pictures_ || focusWidget() == rows_)) {
        event->accept();
        return;
    }
    QDialog::keyPressEvent(event);
}

} // namespace entrena::ui
