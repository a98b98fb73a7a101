#include "dialogs/RunDetailsDialog.h"

#include "ChoiceLabels.h"
#include "JobRunner.h"
#include "RunTableModel.h"
#include "compare/CompareView.h"
#include "dialogs/CellSamplesDialog.h"
#include "dialogs/EvaluationTab.h"
#include "dialogs/TryModelTab.h"
#include "entrena/config/Registry.h"
#include "entrena/export/Export.h"
#include "settings/Settings.h"
#include "widgets/ScreenFit.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

namespace entrena::ui {
namespace {

QTableWidget* table(const QStringList& headers)
{
    auto* t = new QTableWidget(0, int(headers.size()));
    t->setHorizontalHeaderLabels(headers);
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->verticalHeader()->hide();
    t->horizontalHeader()->setStretchLastSection(true);
    return t;
}

/// A stored UTC time ("2026-12-04T03:55:32.007Z") as the reader's local date and time.
QString readableTime(const std::string& iso)
{
    const QDateTime t = QDateTime::fromString(QString::fromStdString(iso), Qt::ISODateWithMs);
    return t.isValid() ? QLocale().toString(t.toLocalTime(), QLocale::ShortFormat) : QString::fromStdString(iso);
}

/// An event's kind as the reader says it; a kind this build does not know stays as stored.
QString kindText(const std::string& kind)
{
    static const char* const known[][2] = {
        {"checkpoint", QT_TRANSLATE_NOOP("RunDetailsDialog", "checkpoint")},
        {"checkpoints_deleted", QT_TRANSLATE_NOOP("RunDetailsDialog", "checkpoints deleted")},
        {"data_warning", QT_TRANSLATE_NOOP("RunDetailsDialog", "data warning")},
        {"early_stop", QT_TRANSLATE_NOOP("RunDetailsDialog", "early stop")},
        {"lr_reduced", QT_TRANSLATE_NOOP("RunDetailsDialog", "learning rate reduced")},
        {"not_learning", QT_TRANSLATE_NOOP("RunDetailsDialog", "not learning")},
        {"oom_retry", QT_TRANSLATE_NOOP("RunDetailsDialog", "out of memory, retried")},
        {"resumed", QT_TRANSLATE_NOOP("RunDetailsDialog", "resumed")},
        {"rollback", QT_TRANSLATE_NOOP("RunDetailsDialog", "rolled back")},
    };
    for (const auto& k : known)
        if (kind == k[0])
            return QCoreApplication::translate("RunDetailsDialog", k[1]);
    return QString::fromStdString(kind);
}

void addRow(QTableWidget* t, const QStringList& cells)
{
    const int row = t->rowCount();
    t->insertRow(row);
    for (int c = 0; c < cells.size(); ++c)
        t->setItem(row, c, new QTableWidgetItem(cells[c]));
}

} // namespace

// What was trained and how it went, the figures a person asks first; the tags and notes to edit.
QWidget* RunDetailsDialog::summaryTab(const std::optional<RunRecord>& run)
{
    const QLocale locale;
    auto* summary = new QWidget;
    auto* form = new QFormLayout(summary);
    if (run) {
        form->addRow(tr("Name:"), new QLabel(QString::fromStdString(run->name).toHtmlEscaped()));
        form->addRow(tr("Status:"), new QLabel(app::RunTableModel::statusText(run->status)));
        // What was trained, in the form's words, and how it went: the figures a person asks first.
        const QJsonObject config = QJsonDocument::fromJson(QByteArray::fromStdString(run->configJson)).object();
        const auto choice = [&](const char* section, const char* key) {
            return config.value(QLatin1String(section)).toObject().value(QLatin1String(key)).toString();
        };
        // Own data is named by its folder or file ("Image folder digits"), the rest by the data set.
        QString data = app::ChoiceLabels::dataset(choice("data", "dataset"));
        const QString dataPath = choice("data", "path");
        const auto kind = fromString<DatasetKind>(choice("data", "dataset").toStdString());
        if (!dataPath.isEmpty() && (!kind || dataPath.toStdString() != registryEntry(*kind).defaultPath))
            data = tr("%1 “%2”").arg(data, QFileInfo(dataPath).fileName());
        form->addRow(tr("Trained:"), new QLabel(tr("%1 on %2, %3, %4")
                                                    .arg(app::ChoiceLabels::model(choice("model", "arch")), data,
                                                         app::ChoiceLabels::optimizer(choice("optimizer", "name")),
                                                         app::ChoiceLabels::scheduler(choice("scheduler", "name")))));
        form->addRow(tr("Started:"), new QLabel(readableTime(run->started)));
        form->addRow(tr("Ended:"), new QLabel(readableTime(run->ended)));
        const auto figure = [&](const QString& label, const std::optional<double>& v, double scale, int decimals,
                                const QString& unit) {
            if (v)
                form->addRow(label, new QLabel(locale.toString(*v * scale, 'f', decimals) + unit));
        };
        figure(tr("Test accuracy:"), run->testAccuracy, 100, 2, QStringLiteral("%"));
        figure(tr("Best validation accuracy:"), run->bestValAccuracy, 100, 2, QStringLiteral("%"));
        figure(tr("Final training loss:"), run->finalTrainLoss, 1, 4, QString());
        figure(tr("Duration:"), run->seconds, 1, 1, QStringLiteral(" s"));
        figure(tr("Throughput:"), run->samplesPerSec, 1, 0, tr(" samples/s"));
        figure(tr("Peak memory:"), run->peakMemoryBytes, 1.0 / 1048576.0, 0, QStringLiteral(" MiB"));
        if (!run->error.empty()) {
            auto* error = new QLabel(QString::fromStdString(run->error).toHtmlEscaped());
            error->setWordWrap(true);
            form->addRow(tr("Error:"), error);
        }
        QStringList tags;
        for (const auto& t : store_.tags(runId_))
            tags << QString::fromStdString(t);
        tags_->setText(tags.join(QStringLiteral(", ")));
        tags_->setPlaceholderText(tr("comma-separated, e.g. baseline, cnn"));
        notes_->setPlainText(QString::fromStdString(run->notes));
    }
    form->addRow(tr("Tags:"), tags_);
    form->addRow(tr("Notes:"), notes_);
    return summary;
}

QWidget* RunDetailsDialog::configurationTab(const std::optional<RunRecord>& run)
{
    auto* config = new QPlainTextEdit;
    config->setReadOnly(true);
    config->setObjectName(QStringLiteral("configText"));
    if (run)
        config->setPlainText(QString::fromUtf8(
            QJsonDocument::fromJson(QByteArray::fromStdString(run->configJson)).toJson(QJsonDocument::Indented)));
    return config;
}

QWidget* RunDetailsDialog::eventsTab()
{
    auto* events = table({tr("Step"), tr("Time"), tr("Kind"), tr("Message")});
    for (const auto& e : store_.events(runId_))
        addRow(events, {QString::number(e.step), readableTime(e.time), kindText(e.kind), QString::fromStdString(e.message)});
    events->resizeColumnsToContents(); // whole times, not "2026-12-04T…"
    events->horizontalHeader()->setStretchLastSection(true);
    return events;
}

// The checkpoints on disk (a missing one said so), and the export of the best or the last.
QWidget* RunDetailsDialog::checkpointsTab()
{
    const QLocale locale;
    auto* checkpoints = table({tr("Epoch"), tr("Step"), tr("Best"), tr("Size"), tr("File")});
    for (const auto& c : store_.checkpoints(runId_)) {
        const QString path = QString::fromStdString(c.path);
        const bool exists = QFileInfo::exists(path);
        missing_ += exists ? 0 : 1;
        addRow(checkpoints, {QString::number(c.epoch), QString::number(c.step), c.isBest ? tr("yes") : QString(),
                             locale.formattedDataSize(c.bytes), exists ? path : tr("%1 (missing: deleted or moved)").arg(path)});
    }
    // Weights other tools read: PyTorch's torch.load, safetensors (docs/export.md).
    exportButton_->setObjectName(QStringLiteral("exportWeightsButton"));
    auto* exportMenu = new QMenu(exportButton_);
    exportMenu->addAction(tr("Best checkpoint…"), this, [this] { chooseExport(QStringLiteral("best")); });
    exportMenu->addAction(tr("Last checkpoint…"), this, [this] { chooseExport(QStringLiteral("last")); });
    exportButton_->setMenu(exportMenu);
    exportButton_->setEnabled(store_.checkpoints(runId_).size() > std::size_t(missing_));
    exportStatus_->setWordWrap(true);
    exportStatus_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* checkpointsPage = new QWidget;
    auto* checkpointsLayout = new QVBoxLayout(checkpointsPage);
    if (store_.checkpoints(runId_).empty()) { // an empty table would not say why
        auto* none = new QLabel(TryModelTab::freedText(store_, runId_, tr("This run kept no checkpoint.")));
        none->setObjectName(QStringLiteral("noCheckpoints"));
        none->setWordWrap(true);
        checkpointsLayout->addWidget(none);
    }
    checkpointsLayout->addWidget(checkpoints);
    auto* exportRow = new QHBoxLayout;
    exportRow->addWidget(exportButton_);
    exportRow->addWidget(exportStatus_, 1);
    checkpointsLayout->addLayout(exportRow);
    return checkpointsPage;
}

RunDetailsDialog::RunDetailsDialog(RunStore& store, int64_t runId, QWidget* parent)
    : QDialog(parent)
    , store_(store)
    , runId_(runId)
    , notes_(new QPlainTextEdit)
    , tags_(new QLineEdit)
    , exportButton_(new QPushButton(tr("Export weights…")))
    , exportStatus_(new QLabel)
{
    notes_->setObjectName(QStringLiteral("notesEdit"));
    tags_->setObjectName(QStringLiteral("tagsEdit"));
    const auto run = store.findRun(std::to_string(runId));
    setWindowTitle(tr("Run %1").arg(runId));
    sizeToScreen(this, QSize(1100, 760));
    auto* tabs = new QTabWidget;
    tabs->addTab(summaryTab(run), tr("Summary"));
    // The run's charts: the compare view with one run (smoothing, x-axis modes, hover, export).
    auto* charts = new CompareView(QString::fromStdString(store.path()), {runId});
    charts->setWindowFlag(Qt::Window, false);
    charts->setAttribute(Qt::WA_DeleteOnClose, false);
    tabs->addTab(charts, tr("Charts"));

    // What the finished model gets wrong, class by class (stored with the run since schema 6).
    evaluation_ = new EvaluationTab(run ? evaluationFromJson(run->evaluationJson) : EvaluationReport{});
    connect(evaluation_, &EvaluationTab::samplesWanted, this, [this](int t, int p, qint64 index) { openCell(t, p, index); });
    tabs->addTab(evaluation_, tr("Evaluation"));
    // The trained model on the user's own images or rows (docs/predict.md).
    tryIt_ = new TryModelTab(store, runId);
    tabs->addTab(tryIt_, tr("Try it"));
    tabs_ = tabs;

    tabs->addTab(configurationTab(run), tr("Configuration"));
    tabs->addTab(eventsTab(), tr("Events"));
    tabs->addTab(checkpointsTab(), tr("Checkpoints"));

    // A store that can only be read keeps its notes and tags as they are: nothing to save.
    auto* buttons = new QDialogButtonBox(store_.readOnly() ? QDialogButtonBox::Close : QDialogButtonBox::Save | QDialogButtonBox::Close);
    notes_->setReadOnly(store_.readOnly());
    tags_->setReadOnly(store_.readOnly());
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(tabs);
    layout->addWidget(buttons);
}

CellSamplesDialog* RunDetailsDialog::openCell(int trueClass, int predicted, qint64 index)
{
    if (cellSamples_)
        cellSamples_->close(); // one cell at a time: the next click replaces it
    cellSamples_ = new CellSamplesDialog(store_, runId_, review_, trueClass, predicted, index, this);
    cellSamples_->setAttribute(Qt::WA_DeleteOnClose);
    connect(cellSamples_, &CellSamplesDialog::reviewReady, this,
            [this](std::shared_ptr<const SplitReview> review) { review_ = std::move(review); });
    cellSamples_->show();
    return cellSamples_;
}

CellSamplesDialog* RunDetailsDialog::cellSamples() const
{
    return cellSamples_;
}

void RunDetailsDialog::showTryIt()
{
    tabs_->setCurrentWidget(tryIt_);
}

void RunDetailsDialog::chooseExport(const QString& which)
{
    const QString folder = Settings::lastExportFolder.value();
    const QString start =
        QDir(folder.isEmpty() ? TryModelTab::dataFolder(store_, runId_, false) : folder).filePath(QStringLiteral("run-%1-%2.pt").arg(runId_).arg(which));
    QString filter;
    const QString path = QFileDialog::getSaveFileName(this, tr("Export weights"), start,
                                                      tr("PyTorch state dict (*.pt *.pth)") + QStringLiteral(";;") +
                                                          tr("safetensors (*.safetensors)") + QStringLiteral(";;") +
                                                          tr("ONNX, for other runtimes (*.onnx)"),
                                                      &filter);
    if (path.isEmpty())
        return;
    Settings::lastExportFolder.set(QFileInfo(path).absolutePath());
    exportCheckpoint(which, path);
}

void RunDetailsDialog::exportCheckpoint(const QString& which, const QString& path)
{
    exportButton_->setEnabled(false);
    exportStatus_->setText(tr("Exporting and checking the weights on the test set…"));
    // The export reads the checkpoint and measures its test accuracy: seconds of work, so off the
    // GUI thread, through a connection of its own (SQLite connections are not shared between threads).
    const auto job =
        app::JobRunner::shared()->run(tr("Export weights"), [db = store_.path(), id = runId_, which = which.toStdString(),
                                                             path = path.toStdString()](app::JobContext&) {
            RunStore store(db);
            return entrena::exportCheckpoint(store, id, which, path);
        });
    job.onFinished(this, [this](const ExportResult& r) {
        QString message =
            tr("Wrote %1 (%n tensor(s), from %2) and %3.", nullptr, r.tensors)
                .arg(QString::fromStdString(r.file), QString::fromStdString(r.checkpoint), QString::fromStdString(r.sidecar));
        if (r.testAccuracy >= 0)
            message += QLatin1Char(' ') +
                       tr("Test accuracy of these weights: %1%.").arg(QLocale().toString(r.testAccuracy * 100.0, 'f', 2));
        onExported(true, message);
    });
    job.onFailed(this, [this](const QString& message) { onExported(false, message); });
}

void RunDetailsDialog::onExported(bool ok, const QString& message)
{
    exportButton_->setEnabled(true);
    exportStatus_->setText(message);
    if (!ok) {
        auto* box = new QMessageBox(QMessageBox::Warning, tr("Export weights"), message, QMessageBox::Ok, this);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    }
    Q_EMIT exportFinished(ok, message);
}

void RunDetailsDialog::accept()
{
    std::vector<std::string> tags;
    for (const QString& t : tags_->text().split(QLatin1Char(','), Qt::SkipEmptyParts))
        tags.push_back(t.trimmed().toStdString());
    store_.setTags(runId_, tags);
    store_.setNotes(runId_, notes_->toPlainText().toStdString());
    QDialog::accept();
}

} // namespace entrena::ui
