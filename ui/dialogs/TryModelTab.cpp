#include "dialogs/TryModelTab.h"

#include "JobRunner.h"
#include "dialogs/Thumbnail.h"
#include "entrena/config/Config.h"
#include "settings/Settings.h"
#include "widgets/ProbabilityBars.h"

#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLocale>
#include <QMimeData>
#include <QPushButton>
#include <QStackedWidget>
#include <QStyle>
#include <QThread>
#include <QVBoxLayout>

namespace entrena::ui {
namespace {

constexpr int kTop = 5;           // classes shown for an input
constexpr int kPictureSide = 180; // the original and the model's view, on screen

QStringList localFiles(const QMimeData* mime)
{
    QStringList files;
    if (mime)
        for (const QUrl& url : mime->urls())
            if (url.isLocalFile())
                files << url.toLocalFile();
    return files;
}

} // namespace

TryModelTab::TryModelTab(RunStore& store, int64_t runId, QWidget* parent)
    : QWidget(parent)
    , store_(store)
    , runId_(runId)
    , checkpoint_(new QComboBox)
    , checkpointLabel_(new QLabel(tr("Checkpoint:")))
    , about_(new QLabel)
    , pages_(new QStackedWidget)
    , choose_(new QPushButton(tr("Choose images…")))
    , dropHint_(new QLabel(tr("…or drop PNG or JPEG files (or folders) here.")))
    , files_(new QListWidget)
    , original_(new QLabel)
    , modelView_(new QLabel)
    , modelViewCaption_(new QLabel)
    , columns_(new QLabel)
    , row_(new QLineEdit)
    , classify_(new QPushButton(tr("Classify")))
    , bars_(new ProbabilityBars)
    , status_(new QLabel)
{
    checkpoint_->setObjectName(QStringLiteral("tryCheckpoint"));
    row_->setObjectName(QStringLiteral("tryRow"));
    files_->setObjectName(QStringLiteral("tryFiles"));
    bars_->setObjectName(QStringLiteral("tryBars"));
    modelView_->setObjectName(QStringLiteral("tryModelView"));
    status_->setObjectName(QStringLiteral("tryStatus"));
    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    about_->setWordWrap(true);
    setAcceptDrops(true);

    // The best checkpoint (by validation) first where there is one, then the latest.
    std::optional<CheckpointRecord> best, last;
    for (const CheckpointRecord& c : store.checkpoints(runId)) {
        if (!QFileInfo::exists(QString::fromStdString(c.path)))
            continue;
        if (c.isBest && (!best || c.step >= best->step))
            best = c;
        if (!last || c.step >= last->step)
            last = c;
    }
    if (best) {
        checkpoints_.push_back(*best);
        checkpoint_->addItem(tr("Best by validation (epoch %1, step %2)").arg(best->epoch).arg(best->step));
    }
    if (last && (!best || last->step != best->step)) {
        checkpoints_.push_back(*last);
        checkpoint_->addItem(tr("Latest (epoch %1, step %2)").arg(last->epoch).arg(last->step));
    }
    checkpointLabel_->setBuddy(checkpoint_);

    auto* top = new QHBoxLayout;
    top->addWidget(checkpointLabel_);
    top->addWidget(checkpoint_);
    top->addStretch();
    pages_->addWidget(imagePage());
    pages_->addWidget(tablePage());
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(about_);
    layout->addWidget(pages_, 1);
    layout->addWidget(status_);

    connect(checkpoint_, &QComboBox::currentIndexChanged, this, [this] { load(); });
    if (checkpoints_.empty()) {
        checkpoint_->setEnabled(false);
        pages_->setEnabled(false);
        about_->setText(freedText(store, runId, tr("This run kept no checkpoint, so there is no model to try.")));
        return;
    }
    load();
}

QString TryModelTab::freedText(RunStore& store, int64_t runId, const QString& otherwise)
{
    std::optional<RunStore::FreedCheckpoints> freed;
    try {
        freed = store.checkpointsFreed(runId);
    } catch (const std::exception&) {
    }
    if (!freed)
        return otherwise;
    const QLocale locale;
    const QDateTime when = QDateTime::fromString(QString::fromStdString(freed->time), Qt::ISODateWithMs).toLocalTime();
    return tr("This run's checkpoints were deleted on %1 (%2 freed), so there is no model to try or export. Its charts, "
              "metrics, events and evaluation stay.")
        .arg(locale.toString(when, QLocale::ShortFormat),
             locale.formattedDataSize(freed->bytes, 1, QLocale::DataSizeSIFormat)); // MB, as the disk-use bar says
}

QWidget* TryModelTab::imagePage()
{
    auto* page = new QWidget;
    auto* buttons = new QHBoxLayout;
    choose_->setObjectName(QStringLiteral("tryChoose"));
    buttons->addWidget(choose_);
    buttons->addWidget(dropHint_, 1);
    connect(choose_, &QPushButton::clicked, this, &TryModelTab::chooseFiles);

    files_->setIconSize(QSize(32, 32));
    files_->setMinimumWidth(fontMetrics().averageCharWidth() * 24);
    connect(files_, &QListWidget::currentTextChanged, this, [this] {
        if (QListWidgetItem* item = files_->currentItem())
            showAnswer(item->data(Qt::UserRole).toString());
    });
    original_->setAlignment(Qt::AlignCenter);
    modelView_->setAlignment(Qt::AlignCenter);
    original_->setMinimumSize(kPictureSide, kPictureSide);
    modelView_->setMinimumSize(kPictureSide, kPictureSide);
    modelViewCaption_->setAlignment(Qt::AlignCenter);
    modelViewCaption_->setWordWrap(true);
    auto* originalCaption = new QLabel(tr("The image"));
    originalCaption->setAlignment(Qt::AlignCenter);

    auto* pictures = new QGridLayout;
    pictures->addWidget(original_, 0, 0);
    pictures->addWidget(modelView_, 0, 1);
    pictures->addWidget(originalCaption, 1, 0);
    pictures->addWidget(modelViewCaption_, 1, 1);
    auto* answer = new QVBoxLayout;
    answer->addLayout(pictures);
    answer->addWidget(bars_);
    answer->addStretch();

    auto* body = new QHBoxLayout;
    body->addWidget(files_, 1);
    body->addLayout(answer, 3);
    auto* layout = new QVBoxLayout(page);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(buttons);
    layout->addLayout(body, 1);
    return page;
}

QWidget* TryModelTab::tablePage()
{
    auto* page = new QWidget;
    columns_->setWordWrap(true);
    columns_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* entry = new QHBoxLayout;
    entry->addWidget(row_, 1);
    entry->addWidget(classify_);
    // Enter classifies. QLineEdit passes Return on to the dialog, whose default button (Save) would
    // close it with the typed row lost: it stops here.
    row_->installEventFilter(this);
    connect(classify_, &QPushButton::clicked, this, [this] { tryRow(row_->text()); });
    auto* layout = new QVBoxLayout(page);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(columns_);
    layout->addLayout(entry);
    layout->addStretch(); // the bars go above it once the model is known to take tables
    return page;
}

void TryModelTab::load()
{
    const int index = checkpoint_->currentIndex();
    if (index < 0 || size_t(index) >= checkpoints_.size())
        return;
    predictor_.reset();
    // What was tried is tried again with the other checkpoint: comparing them is the point of the choice.
    QStringList tried;
    for (int i = 0; i < files_->count(); ++i)
        tried << files_->item(i)->data(Qt::UserRole).toString();
    answers_.clear();
    files_->clear();
    bars_->setBars({});
    original_->clear();
    modelView_->clear();
    status_->setText(tr("Loading the model…"));
    const quint64 generation = ++loadGeneration_;
    ++askGeneration_; // answers of the previous model are not shown
    const std::string which = checkpoints_[size_t(index)].isBest && index == 0 ? "best" : "last";
    app::JobRunner::shared()
        ->run(tr("Load the model"),
              [db = store_.path(), id = runId_, which](app::JobContext&) {
                  RunStore store(db); // a connection of the job's own thread
                  return std::make_shared<const Predictor>(Predictor::fromRun(store, id, which));
              })
        .onFinished(this,
                    [this, tried, generation](const std::shared_ptr<const Predictor>& p) {
                        if (generation != loadGeneration_)
                            return; // another checkpoint was chosen meanwhile
                        predictor_ = p;
                        const ModelInputSpec& in = p->input();
                        status_->clear();
                        showInput(in);
                        Q_EMIT loaded(true);
                        if (!tried.isEmpty())
                            tryFiles(tried);
                        else if (in.table && !row_->text().trimmed().isEmpty())
                            tryRow(row_->text());
                    })
        .onFailed(this, [this, generation](const QString& message) {
            if (generation != loadGeneration_)
                return;
            status_->setText(tr("The model could not be loaded: %1").arg(message));
            Q_EMIT loaded(false);
        });
}

/// The page for what the model takes: a row of a table (its columns named), or images.
void TryModelTab::showInput(const ModelInputSpec& in)
{
    if (in.table) {
        pages_->setCurrentIndex(1);
        // The table page holds the bars under the row.
        static_cast<QVBoxLayout*>(pages_->widget(1)->layout())->insertWidget(2, bars_);
        QStringList names;
        for (const auto& c : in.columns)
            names << QString::fromStdString(c);
        columns_->setText(names.isEmpty() ? tr("Type or paste a row of %n value(s), in the training file's column order.",
                                               nullptr, int(in.width))
                                          : tr("Type or paste a row of values for: %1.").arg(names.join(QStringLiteral(", "))));
        row_->setPlaceholderText(tr("Values separated by commas, semicolons or tabs"));
        about_->setText(tr("The model classifies a row of the table it was trained on, scaled as in training."));
    } else {
        pages_->setCurrentIndex(0);
        about_->setText(tr("Each image is resized to %1 × %2, %3, and normalised as in training.")
                            .arg(in.width)
                            .arg(in.height)
                            .arg(in.channels == 1 ? tr("in grey") : tr("in colour")));
    }
}

QString TryModelTab::dataFolder(RunStore& store, int64_t runId, bool test)
{
    // The run's data: its folder (a table's, the folder holding it), its test/ where it has one.
    QString path;
    try {
        if (const auto run = store.findRun(std::to_string(runId)))
            path = QString::fromStdString(RunConfig::fromJson(run->configJson).data.path);
    } catch (const std::exception&) {
    }
    const QFileInfo info(path);
    if (path.isEmpty() || !info.exists())
        return QDir::homePath();
    const QDir folder(info.isDir() ? info.absoluteFilePath() : info.absolutePath());
    return test && folder.exists(QStringLiteral("test")) ? folder.filePath(QStringLiteral("test")) : folder.absolutePath();
}

void TryModelTab::chooseFiles()
{
    const QString folder = Settings::lastTryFolder.value();
    const QStringList files =
        QFileDialog::getOpenFileNames(this, tr("Choose images"), folder.isEmpty() ? dataFolder(store_, runId_) : folder,
                                      tr("Images (*.png *.jpg *.jpeg *.PNG *.JPG *.JPEG)"));
    if (files.isEmpty())
        return;
    Settings::lastTryFolder.set(QFileInfo(files.first()).absolutePath());
    tryFiles(files);
}

void TryModelTab::tryFiles(const QStringList& files)
{
    if (!predictor_ || files.isEmpty())
        return;
    status_->setText(tr("Classifying…"));
    // Files add up (two drops both count); only a change of checkpoint makes their answers stale.
    const quint64 generation = loadGeneration_;
    std::vector<std::string> inputs;
    for (const QString& f : files)
        inputs.push_back(f.toStdString());
    app::JobRunner::shared()
        ->run(tr("Try the model"),
              [p = predictor_, inputs](app::JobContext&) {
                  Answers out;
                  try {
                      const PredictionReport r = p->predict(inputs, kTop, std::max(1, QThread::idealThreadCount()));
                      for (const Prediction& pr : r.predictions) {
                          Answer a;
                          a.top = QList<RankedClass>(pr.top.begin(), pr.top.end());
                          const ModelView v = p->modelView(pr.input);
                          a.view = imageFromBytes(v.pixels, v.channels, v.height, v.width);
                          out.all.emplace_back(pr.input, a);
                      }
                      for (const SkippedInput& s : r.skipped)
                          out.all.emplace_back(s.input, Answer{QString::fromStdString(s.reason), {}, {}});
                  } catch (const PredictInputError& e) {
                      out.error = QString::fromStdString(e.what());
                  }
                  return out;
              })
        .onFinished(this,
                    [this, generation](const Answers& out) {
                        if (generation == loadGeneration_) // else another checkpoint was chosen meanwhile
                            listAnswers(out);
                    })
        .onFailed(this, [this, generation](const QString& message) {
            if (generation != loadGeneration_)
                return;
            status_->setText(message);
            Q_EMIT answered();
        });
}

/// The answers of a try: each file listed once (a new answer replaces its old one), the first shown.
void TryModelTab::listAnswers(const Answers& out)
{
    status_->setText(out.error);
    QString first;
    for (const auto& [input, answer] : out.all) {
        const QString file = QString::fromStdString(input);
        if (!answers_.contains(file)) {
            auto* item = new QListWidgetItem(QFileInfo(file).fileName(), files_);
            item->setData(Qt::UserRole, file);
            item->setToolTip(file);
            item->setIcon(answer.view.isNull() ? style()->standardIcon(QStyle::SP_MessageBoxWarning)
                                               : QIcon(thumbnail(answer.view, 32)));
        }
        answers_.insert(file, answer);
        if (first.isEmpty())
            first = file;
    }
    for (int i = 0; i < files_->count(); ++i)
        if (files_->item(i)->data(Qt::UserRole).toString() == first)
            files_->setCurrentRow(i);
    showAnswer(first);
    Q_EMIT answered();
}

void TryModelTab::showAnswer(const QString& file)
{
    const auto it = answers_.constFind(file);
    if (it == answers_.constEnd())
        return;
    const Answer& a = *it;
    if (!a.error.isEmpty()) {
        status_->setText(tr("%1 was not classified: %2").arg(QFileInfo(file).fileName(), a.error));
        original_->clear();
        original_->setText(tr("%1 was not classified: %2").arg(QFileInfo(file).fileName(), a.error));
        original_->setWordWrap(true);
        modelView_->clear();
        modelViewCaption_->clear();
        bars_->setBars({});
        return;
    }
    status_->clear();
    original_->setPixmap(thumbnail(QImage(file), kPictureSide));
    modelView_->setPixmap(thumbnail(a.view, kPictureSide));
    modelViewCaption_->setText(tr("As the model sees it (%1 × %2)").arg(a.view.width()).arg(a.view.height()));
    showBars(a.top);
}

void TryModelTab::showBars(const QList<RankedClass>& top)
{
    QList<ProbabilityBars::Bar> bars;
    for (const RankedClass& c : top)
        bars.push_back({QString::fromStdString(c.name), c.probability});
    bars_->setBars(bars);
}

void TryModelTab::tryRow(const QString& row)
{
    if (!predictor_ || row.trimmed().isEmpty())
        return;
    const quint64 generation = ++askGeneration_;
    app::JobRunner::shared()
        ->run(tr("Try the model"),
              [p = predictor_, row = row.toStdString()](app::JobContext&) {
                  RowAnswer out;
                  try {
                      const Prediction pr = p->predictRow(row, kTop);
                      out.top = QList<RankedClass>(pr.top.begin(), pr.top.end());
                  } catch (const PredictInputError& e) {
                      out.error = QString::fromStdString(e.what());
                  }
                  return out;
              })
        .onFinished(this,
                    [this, generation](const RowAnswer& out) {
                        if (generation != askGeneration_)
                            return;
                        status_->setText(out.error.isEmpty() ? QString()
                                                             : tr("This row cannot be classified: %1").arg(out.error));
                        showBars(out.error.isEmpty() ? out.top : QList<RankedClass>{});
                        Q_EMIT answered();
                    })
        .onFailed(this, [this, generation](const QString& message) {
            if (generation != askGeneration_)
                return;
            status_->setText(message);
            Q_EMIT answered();
        });
}

bool TryModelTab::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == row_ && event->type() == QEvent::KeyPress) {
        const int key = static_cast<QKeyEvent*>(event)->key();
        if (key == Qt::Key_Return || key == Qt::Key_Enter) {
            tryRow(row_->text());
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void TryModelTab::dragEnterEvent(QDragEnterEvent* event)
{
    if (predictor_ && !predictor_->input().table && !localFiles(event->mimeData()).isEmpty())
        event->acceptProposedAction();
}

void TryModelTab::dropEvent(QDropEvent* event)
{
    const QStringList files = localFiles(event->mimeData());
    if (files.isEmpty())
        return;
    event->acceptProposedAction();
    tryFiles(files);
}

} // namespace entrena::ui
