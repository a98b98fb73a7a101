#include "MainWindow.h"

#include "AppIcon.h"
#include "RunTableModel.h"
#include "TrainingController.h"
#include "WindowLayout.h"
#include "charts/LiveCharts.h"
#include "charts/RunHistory.h"
#include "dialogs/DataPreviewDialog.h"
#include "finders/LrFinderDialog.h"
#include "entrena/search/BatchSizeFinder.h"
#include "entrena/system/Devices.h"
#include "experiment/ExperimentsPanel.h"
#include "experiment/CrossValidationDialog.h"
#include "experiment/SweepDialog.h"
#include "widgets/DiskUseBar.h"
#include "widgets/FocusRing.h"
#include "widgets/NoticeBanner.h"
#include "panels/QueuePanel.h"
#include "panels/RunConfigPanel.h"
#include "runs/RunNaming.h"
#include "runs/RunQueue.h"
#include "panels/RunsPanel.h"
#include "settings/LanguageManager.h"
#include "settings/Settings.h"
#include "finders/BatchSizeAnswer.h"
#include "finders/BatchSizeSearch.h"

#include <QApplication>
#include <QCloseEvent>
#include <QFileInfo>
#include <QLabel>
#include <QLocale>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>
#include <fstream>

namespace entrena::ui {

// The form on the left (it scrolls; Start and Stop stay in view beneath it), the charts above
// the runs, queue and experiments on the right. Returns the form's side.
QWidget* MainWindow::buildCentre()
{
    formScroll_ = new QScrollArea;
    formScroll_->setObjectName(QStringLiteral("formScroll"));
    // Not a stop of its own: its fields are, and the one that takes the focus scrolls into view.
    formScroll_->setFocusPolicy(Qt::NoFocus);
    formScroll_->setWidget(config_);
    formScroll_->setWidgetResizable(true);
    fitFormWidth();

    vertical_ = new QSplitter(Qt::Vertical);
    vertical_->setObjectName(QStringLiteral("chartsSplitter"));
    // Notices that need action stand above the charts until dismissed.
    auto* chartsSide = new QWidget;
    auto* chartsLayout = new QVBoxLayout(chartsSide);
    chartsLayout->setContentsMargins(0, 0, 0, 0);
    chartsLayout->addWidget(banner_);
    chartsLayout->addWidget(charts_, 1);
    vertical_->addWidget(chartsSide);
    // Beside the runs list: the runs waiting their turn, and the experiments (sweeps).
    lowerTabs_->setObjectName(QStringLiteral("lowerTabs"));
    lowerTabs_->setDocumentMode(true);
    lowerTabs_->addTab(runs_, QString());
    lowerTabs_->addTab(queuePanel_, QString());
    lowerTabs_->addTab(experiments_, QString());
    vertical_->addWidget(lowerTabs_);
    vertical_->setStretchFactor(0, 3);
    vertical_->setStretchFactor(1, 1);
    // The form scrolls; Start and Stop stay in view beneath it.
    auto* left = new QWidget;
    left->setObjectName(QStringLiteral("formSide"));
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->setSpacing(0);
    leftLayout->addWidget(formScroll_, 1);
    leftLayout->addWidget(config_->buttonBar());
    horizontal_ = new QSplitter(Qt::Horizontal);
    horizontal_->setObjectName(QStringLiteral("mainSplitter"));
    horizontal_->addWidget(left);
    horizontal_->addWidget(vertical_);
    horizontal_->setStretchFactor(1, 1);
    setCentralWidget(horizontal_);
    return left;
}

void MainWindow::buildStatusBar()
{
    progress_ = new QProgressBar;
    progress_->setMaximumWidth(260);
    progress_->setTextVisible(true);
    status_ = new QLabel;
    statusBar()->addWidget(status_, 1);
    diskUse_ = new DiskUseBar;
    statusBar()->addPermanentWidget(diskUse_);
    statusBar()->addPermanentWidget(progress_);
    // The store's disk use follows the runs list, at most every few seconds while runs train (the
    // list re-reads itself every two).
    diskUseClock_.start();
    connect(runs_, &RunsPanel::refreshed, this, [this] {
        if (!controller_->isRunning() || diskUseClock_.elapsed() > 10000) {
            diskUse_->update(runs_->model()->store());
            diskUseClock_.restart();
        }
    });
    connect(diskUse_, &DiskUseBar::freed, runs_, &RunsPanel::refresh);
}

// The form's requests, and the batch-size search it starts.
void MainWindow::connectForm()
{
    connect(config_, &RunConfigPanel::startRequested, this, &MainWindow::startTraining);
    connect(config_, &RunConfigPanel::stopRequested, controller_, &app::TrainingController::stop);
    connect(config_, &RunConfigPanel::lrFinderRequested, this, &MainWindow::findLearningRate);
    connect(config_, &RunConfigPanel::batchFinderRequested, this, &MainWindow::findBatchSize);
    connect(config_, &RunConfigPanel::dataPreviewRequested, this, &MainWindow::previewData);
    connect(batchSearch_, &BatchSizeSearch::trial, this, [this](const QString& device, qint64 batch, bool fits, qint64 peak) {
        statusBar()->showMessage(tr("Batch %1 on %2: %3 (peak %4 MiB)")
                                     .arg(batch)
                                     .arg(device, fits ? tr("fits") : tr("too big"))
                                     .arg(QLocale().toString(double(peak) / 1048576.0, 'f', 1)));
    });
    connect(batchSearch_, &BatchSizeSearch::finished, this, [this](const BatchSizeResult& r) {
        config_->setBatchSearchRunning(false);
        statusBar()->clearMessage();
        showBatchSizeAnswer(r);
    });
    connect(batchSearch_, &BatchSizeSearch::failed, this, [this](const QString& message) {
        config_->setBatchSearchRunning(false);
        statusBar()->clearMessage();
        showError(tr("Cannot find a batch size"), message);
    });
}

// The training controller's events, and the runs list's requests.
void MainWindow::connectTraining()
{
    connect(controller_, &app::TrainingController::started, this, &MainWindow::onStarted);
    connect(controller_, &app::TrainingController::steps, this, &MainWindow::onSteps);
    connect(controller_, &app::TrainingController::epochEnded, this, &MainWindow::onEpoch);
    connect(controller_, &app::TrainingController::notice, this, &MainWindow::onNotice);
    connect(controller_, &app::TrainingController::ended, this, &MainWindow::onEnded);
    connect(controller_, &app::TrainingController::idle, this, &MainWindow::onIdle);
    connect(runs_, &RunsPanel::runAgainRequested, this, [this](const QString& json) {
        try {
            config_->setConfig(RunConfig::fromJson(json.toStdString()));
            statusBar()->showMessage(tr("The run's configuration is loaded; press Start to run it again."), 5000);
        } catch (const ConfigError& e) {
            showError(tr("Cannot load configuration"), QString::fromStdString(e.what()));
        }
    });
    connect(runs_, &RunsPanel::resumeRequested, this, &MainWindow::resumeRun);
    connect(runs_, &RunsPanel::compareRequested, this, &MainWindow::compareRuns);
}

MainWindow::MainWindow(const QString& dbPath, const RunConfig& initial, LanguageManager& languages, QWidget* parent)
    : QMainWindow(parent)
    , dbPath_(dbPath)
    , languages_(languages)
    , controller_(new app::TrainingController(this))
    , config_(new RunConfigPanel)
    , charts_(new LiveCharts)
    , banner_(new NoticeBanner)
    , runs_(new RunsPanel)
    , queue_(new RunQueue(RunQueue::fileFor(dbPath), this))
    , queuePanel_(new QueuePanel(queue_))
    , experiments_(new ExperimentsPanel)
    , lowerTabs_(new QTabWidget)
    , batchSearch_(new BatchSizeSearch(this))
{
    setObjectName(QStringLiteral("mainWindow"));
    setWindowIcon(applicationIcon());
    FocusRing::install(); // the keyboard's focus, visible in this window and every dialog
    config_->setConfig(initial);
    config_->setDevices(probeDevices(false).devices);
    config_->setConfig(initial); // again, now that the device list is complete

    auto* left = buildCentre();
    buildStatusBar();
    layout_ = new WindowLayout(this, {horizontal_, vertical_, left, lowerTabs_, runs_->header()});
    createMenus();
    retranslate();

    orderTabs();
    connectForm();
    connectTraining();
    const QString error = runs_->open(dbPath_);
    if (!error.isEmpty()) {
        lastError_ = error;
        status_->setText(tr("Run store unavailable: %1").arg(error));
    }
    connectQueueAndExperiments();
    if (!layout_->restore())
        resize(1280, 820);
    fitToScreen();
}

void MainWindow::orderTabs()
{
    // Tab follows the reading order (a walk found Start before Run name): the form's fields top to
    // bottom, its buttons beneath it, then the right side; the focus starts on Run name.
    QWidget* last = nullptr;
    for (QWidget* w = config_->nextInFocusChain(); w != config_ && config_->isAncestorOf(w); w = w->nextInFocusChain())
        if (w->focusPolicy() & Qt::TabFocus && !QStringList{QStringLiteral("startButton"), QStringLiteral("queueButton"),
                                                              QStringLiteral("stopButton"), QStringLiteral("findLrButton"),
                                                              QStringLiteral("findBatchButton")}
                                                   .contains(w->objectName()))
            last = w;
    for (const char* name : {"startButton", "queueButton", "stopButton", "findLrButton", "findBatchButton"})
        if (auto* button = findChild<QWidget*>(QLatin1String(name)); button && last) {
            setTabOrder(last, button);
            last = button;
        }
    if (QWidget* name = findChild<QWidget*>(QStringLiteral("nameEdit")))
        name->setFocus(Qt::OtherFocusReason);
}

void MainWindow::fitFormWidth()
{
    // As wide as the form needs in the current language (Spanish labels are longer): never a
    // horizontal scroll bar that hides Browse… and Preview data.
    const int bar = formScroll_->verticalScrollBar()->sizeHint().width();
    formScroll_->setMinimumWidth(config_->sizeHint().width() + bar + 2 * formScroll_->frameWidth() + 4);
}

QSize MainWindow::sizeWithin(const QSize& wanted, const QSize& available)
{
    return wanted.boundedTo(available);
}

void MainWindow::fitToScreen()
{
    // The first window (and one restored from a larger screen) must fit the screen it opens on:
    // at 1280x720 an 820-pixel window hid Start, Stop, the runs and the status bar below the edge.
    const QScreen* s = screen() ? screen() : QGuiApplication::primaryScreen();
    if (!s)
        return;
    const QRect available = s->availableGeometry();
    // The window manager's decoration. Before the window is shown it has none yet: assume a title
    // bar's worth, and fit again once shown (showEvent), when the real frame is known.
    QSize frame = frameGeometry().size() - geometry().size();
    if (frame.isEmpty() && !isVisible())
        frame = QSize(8, 40);
    resize(sizeWithin(size(), available.size() - frame));
    fittedSize_ = size();
    QRect placed(pos(), frameGeometry().size());
    if (!available.contains(placed))
        move(std::clamp(placed.left(), available.left(), std::max(available.left(), available.right() - placed.width() + 1)),
             std::clamp(placed.top(), available.top(), std::max(available.top(), available.bottom() - placed.height() + 1)));
}

void MainWindow::showEvent(QShowEvent* event)
{
    QMainWindow::showEvent(event);
    if (!fittedWhenShown_) {
        fittedWhenShown_ = true;
        // Once mapped, a window manager's frame is known: fit again if there is one (offscreen and
        // frameless platforms have none, and were fitted before).
        // A size set on purpose after the first fit (a caller's resize) is left alone.
        QTimer::singleShot(0, this, [this] {
            if (size() == fittedSize_ && !(frameGeometry().size() - geometry().size()).isEmpty())
                fitToScreen();
        });
    }
}

MainWindow::~MainWindow() = default;

void MainWindow::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QMainWindow::changeEvent(event);
}

void MainWindow::showBatchSizeAnswer(const BatchSizeResult& r)
{
    status_->setText(tr("Largest batch that fits: %1.").arg(QLocale().toString(qlonglong(r.batchSize))));
    BatchSizeAnswer::open(this, r, config_->config().data.batchSize, [this](int64_t batch) {
        RunConfig c = config_->config();
        c.data.batchSize = batch;
        config_->setConfig(c);
        status_->setText(tr("Batch size set to %1.").arg(QLocale().toString(qlonglong(batch))));
    });
}

void MainWindow::showError(const QString& title, const QString& message)
{
    lastError_ = message;
    auto* box = new QMessageBox(QMessageBox::Warning, title, message, QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open(); // not exec(): the event loop, and training events, keep flowing
}

bool MainWindow::startTraining()
{
    if (runs_->model()->readOnlyCause() != ReadOnlyCause::Writable) { // said before a run is made to fail
        QMessageBox::information(this, tr("Cannot start"),
                                 tr("This run store can only be read, so a new run cannot be stored in it. Start Entrena "
                                    "with a store you can write (entrena --db FILE), or import these runs into yours."));
        return false;
    }
    const bool training = controller_->isRunning();
    auto config = validatedConfig(training ? tr("Cannot add to the queue") : tr("Cannot start"));
    if (!config)
        return false;
    if (training) { // the form's configuration waits for its turn
        queue_->add(*config, config_->ranks());
        statusBar()->showMessage(
            tr("“%1” is queued: it starts when the runs before it have ended.").arg(QString::fromStdString(config->name)), 5000);
        return false;
    }
    return launch(*config, config_->ranks());
}

bool MainWindow::launch(RunConfig config, int ranks)
{
    if (controller_->isRunning())
        return false;
    config.name = nameForNewRun(QString::fromStdString(config.name), QString::fromStdString(config.toJson()), runs_->namedRuns())
                      .toStdString();
    beginRun(tr("Starting…"));
    controller_->start(config, dbPath_, ranks);
    return true;
}

std::optional<RunConfig> MainWindow::validatedConfig(const QString& errorTitle)
{
    try {
        // Round-trip through the JSON contract: the same checks as entrena-cli, naming the key.
        return RunConfig::fromJson(config_->config().toJson());
    } catch (const ConfigError& e) {
        showError(errorTitle, tr("The configuration is not valid: %1").arg(QString::fromStdString(e.what())));
        return std::nullopt;
    }
}

void MainWindow::findBatchSize()
{
    if (batchSearch_->isRunning()) {
        batchSearch_->stop();
        return;
    }
    const auto config = validatedConfig(tr("Cannot find a batch size"));
    if (!config)
        return;
    batchSearch_->start(*config);
    config_->setBatchSearchRunning(true);
    status_->setText(tr("Finding the largest batch that fits…"));
}

DataPreviewDialog* MainWindow::previewData()
{
    // Only the data matters here: a form with another problem can still show its data.
    auto* dialog = new DataPreviewDialog(config_->config().data, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &DataPreviewDialog::balanceRequested, this, [this] {
        RunConfig c = config_->config();
        c.data.balance = Balance::Weights;
        config_->setConfig(c);
        status_->setText(tr("The classes will be balanced: the loss is weighted by class."));
    });
    dialog->open();
    return dialog;
}

LrFinderDialog* MainWindow::findLearningRate()
{
    const auto config = validatedConfig(tr("Cannot find a learning rate"));
    if (!config)
        return nullptr;
    auto* dialog = new LrFinderDialog(*config, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &LrFinderDialog::applyLearningRate, this, [this](double lr) {
        RunConfig c = config_->config();
        c.optimizer.lr = lr;
        config_->setConfig(c);
        statusBar()->showMessage(tr("Learning rate set to %1.").arg(lr), 5000);
    });
    connect(dialog, &LrFinderDialog::applyMaxLr, this, [this](double lr) {
        RunConfig c = config_->config();
        c.scheduler.kind = SchedulerKind::OneCycle;
        c.scheduler.maxLr = lr;
        config_->setConfig(c);
        statusBar()->showMessage(tr("One-cycle schedule with max_lr %1.").arg(lr), 5000);
    });
    dialog->open();
    dialog->start();
    return dialog;
}

void MainWindow::beginRun(const QString& status)
{
    charts_->clear();
    banner_->clear();
    lastError_.clear();
    totalSteps_ = 0;
    lastStep_ = 0;
    epoch_ = 0;
    progress_->setValue(0);
    status_->setText(status);
    config_->setRunning(true);
    runClock_.start();
}

bool MainWindow::resumeRun(qint64 runId)
{
    if (controller_->isRunning())
        return false;
    beginRun(tr("Resuming run %1…").arg(runId));
    showRunHistory(charts_, dbPath_.toStdString(), runId); // the charts show the whole run, not only its rest
    controller_->resume(runId, dbPath_);
    return true;
}

void MainWindow::onStarted(const StartEvent& e)
{
    totalSteps_ = e.totalSteps;
    epochs_ = e.epochs;
    progress_->setRange(0, int(std::min<int64_t>(e.totalSteps, std::numeric_limits<int>::max())));
    status_->setText(tr("Run %1 training on %2").arg(e.runId).arg(QString::fromStdString(e.device)));
    runs_->refresh();
}

void MainWindow::onSteps(const QVector<StepEvent>& steps)
{
    charts_->addSteps(steps);
    const StepEvent& last = steps.back();
    lastStep_ = last.step;
    progress_->setValue(int(last.step));
    const double elapsed = double(runClock_.elapsed()) / 1000.0;
    const double fraction = totalSteps_ > 0 ? double(last.step) / double(totalSteps_) : 0.0;
    const double eta = fraction > 0 ? elapsed * (1 - fraction) / fraction : 0.0;
    const QLocale locale;
    status_->setText(tr("Epoch %1 of %2 · loss %3 · %4 samples/s · about %5 s left")
                         .arg(last.epoch)
                         .arg(epochs_)
                         .arg(locale.toString(last.loss, 'f', 4))
                         .arg(locale.toString(last.samplesPerSec, 'f', 0))
                         .arg(locale.toString(eta, 'f', 0)));
}

void MainWindow::onEpoch(const EpochEvent& e)
{
    epoch_ = e.epoch;
    charts_->addEpoch(e, e.step);
    if (e.step > lastStep_) { // epochs shorter than the log interval move the bar too
        lastStep_ = e.step;
        progress_->setValue(int(std::min<int64_t>(e.step, std::numeric_limits<int>::max())));
    }
}

void MainWindow::onNotice(const NoticeEvent& e)
{
    banner_->add(e); // not_learning, data_warning
    if (e.kind == "lr_reduced")
        statusBar()->showMessage(tr("Learning rate reduced: %1").arg(QString::fromStdString(e.message)), 5000);
    if (e.kind == "rollback") {
        charts_->markEvent(e);
        statusBar()->showMessage(tr("Divergence at step %1, rolled back: %2").arg(e.step).arg(QString::fromStdString(e.message)),
                                 10000);
    }
    if (e.kind == "oom_retry") {
        charts_->markEvent(e);
        statusBar()->showMessage(tr("Out of memory at step %1: %2").arg(e.step).arg(QString::fromStdString(e.message)), 10000);
    }
}

void MainWindow::onEnded(const EndEvent& e)
{
    lastEnd_ = e.status;
    const QLocale locale;
    switch (e.status) {
    case RunStatus::Finished:
        // No test split (a table without one): the validation's best, or the time alone; never "-100%".
        if (e.testAccuracy >= 0)
            status_->setText(tr("Finished in %1 s: test accuracy %2%")
                                 .arg(locale.toString(e.seconds, 'f', 1))
                                 .arg(locale.toString(e.testAccuracy * 100.0, 'f', 2)));
        else if (e.bestValAccuracy >= 0)
            status_->setText(tr("Finished in %1 s: best validation accuracy %2% (no test set)")
                                 .arg(locale.toString(e.seconds, 'f', 1))
                                 .arg(locale.toString(e.bestValAccuracy * 100.0, 'f', 2)));
        else
            status_->setText(tr("Finished in %1 s.").arg(locale.toString(e.seconds, 'f', 1)));
        progress_->setValue(progress_->maximum());
        break;
    case RunStatus::Stopped:
        status_->setText(tr("Stopped after %1 s; a checkpoint was saved.").arg(locale.toString(e.seconds, 'f', 1)));
        break;
    default:
        status_->setText(tr("The run failed."));
        showError(tr("Training failed"), tr("The run failed: %1").arg(QString::fromStdString(e.error)));
        break;
    }
}

void MainWindow::onIdle()
{
    config_->setRunning(false);
    runs_->refresh();
    refreshExperiments();
    if (closeWhenIdle_) {
        close();
        return;
    }
    // The next queued run, unless the user stopped this one: Stop pauses the queue.
    if (lastEnd_ != RunStatus::Stopped)
        startNextQueued();
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (crossValidation_ && !crossValidation_->confirmClose()) {
        event->ignore();
        return;
    }
    if (sweep_ && !sweep_->confirmClose()) {
        event->ignore();
        return;
    }
    if (controller_->isRunning()) {
        if (closeWhenIdle_) {
            event->ignore(); // already stopping; closes when the run has ended
            return;
        }
        QMessageBox box(QMessageBox::Question, tr("Training is running"),
                        tr("A run is training. Stop it (a checkpoint is saved) and quit, or keep it running?"),
                        QMessageBox::NoButton, this);
        auto* stopButton = box.addButton(tr("Stop and quit"), QMessageBox::AcceptRole);
        box.addButton(tr("Keep running"), QMessageBox::RejectRole);
        box.exec();
        if (box.clickedButton() != stopButton) {
            event->ignore();
            return;
        }
        if (!controller_->isRunning()) {
            // The run ended while the question was open: there is nothing left to stop, and no
            // "idle" to come that would close the window.
            remember();
            event->accept();
            return;
        }
        closeWhenIdle_ = true;
        status_->setText(tr("Stopping…"));
        controller_->stop();
        event->ignore();
        return;
    }
    remember();
    event->accept();
}

void MainWindow::remember()
{
    layout_->save();
    WindowLayout::rememberForm(config_->config());
}

} // namespace entrena::ui
