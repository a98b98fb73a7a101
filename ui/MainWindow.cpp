#include "MainWindow.h"

#include "AppIcon.h"

#include "TrainingController.h"
#include "charts/LiveCharts.h"
#include "charts/RunHistory.h"
#include "compare/CompareView.h"
#include "dialogs/ClusterScriptDialog.h"
#include "dialogs/DataPreviewDialog.h"
#include "dialogs/DevicesDialog.h"
#include "entrena/search/BatchSizeFinder.h"
#include "dialogs/LrFinderDialog.h"
#include "dialogs/SettingsDialog.h"
#include "entrena/system/Devices.h"
#include "panels/NoticeBanner.h"
#include "panels/RunConfigPanel.h"
#include "panels/RunNaming.h"
#include "panels/RunsPanel.h"
#include "settings/LanguageManager.h"
#include "RunTableModel.h"
#include "tools/BatchSizeAnswer.h"
#include "tools/BatchSizeSearch.h"
#include "WindowLayout.h"
#include "settings/Settings.h"

#include <QApplication>
#include <QCloseEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QLocale>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSaveFile>
#include <QScreen>
#include <QScrollArea>
#include <QSplitter>
#include <QStatusBar>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

#include <fstream>

namespace entrena::ui {

MainWindow::MainWindow(const QString& dbPath, const RunConfig& initial, LanguageManager& languages, QWidget* parent)
    : QMainWindow(parent)
    , dbPath_(dbPath)
    , languages_(languages)
    , controller_(new app::TrainingController(this))
    , config_(new RunConfigPanel)
    , charts_(new LiveCharts)
    , banner_(new NoticeBanner)
    , runs_(new RunsPanel)
    , batchSearch_(new BatchSizeSearch(this))
{
    setObjectName(QStringLiteral("mainWindow"));
    setWindowIcon(applicationIcon());
    config_->setConfig(initial);
    config_->setDevices(probeDevices(false).devices);
    config_->setConfig(initial); // again, now that the device list is complete

    auto* scroll = new QScrollArea;
    scroll->setWidget(config_);
    scroll->setWidgetResizable(true);
    scroll->setMinimumWidth(config_->sizeHint().width() + 24);

    vertical_ = new QSplitter(Qt::Vertical);
    vertical_->setObjectName(QStringLiteral("chartsSplitter"));
    // Notices that need action stand above the charts until dismissed.
    auto* chartsSide = new QWidget;
    auto* chartsLayout = new QVBoxLayout(chartsSide);
    chartsLayout->setContentsMargins(0, 0, 0, 0);
    chartsLayout->addWidget(banner_);
    chartsLayout->addWidget(charts_, 1);
    vertical_->addWidget(chartsSide);
    vertical_->addWidget(runs_);
    vertical_->setStretchFactor(0, 3);
    vertical_->setStretchFactor(1, 1);
    // The form scrolls; Start and Stop stay in view beneath it.
    auto* left = new QWidget;
    left->setObjectName(QStringLiteral("formSide"));
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->setSpacing(0);
    leftLayout->addWidget(scroll, 1);
    leftLayout->addWidget(config_->buttonBar());
    horizontal_ = new QSplitter(Qt::Horizontal);
    horizontal_->setObjectName(QStringLiteral("mainSplitter"));
    horizontal_->addWidget(left);
    horizontal_->addWidget(vertical_);
    horizontal_->setStretchFactor(1, 1);
    setCentralWidget(horizontal_);

    progress_ = new QProgressBar;
    progress_->setMaximumWidth(260);
    progress_->setTextVisible(true);
    status_ = new QLabel;
    statusBar()->addWidget(status_, 1);
    statusBar()->addPermanentWidget(progress_);

    layout_ = new WindowLayout(this, {horizontal_, vertical_, left, runs_, runs_->header()});
    createMenus();
    retranslate();

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
    connect(runs_, &RunsPanel::compareRequested, this, [this](const QList<qint64>& ids) {
        auto* view = new CompareView(dbPath_, ids, this); // a window of its own; deleted on close
        connect(view, &CompareView::failed, this, [this](const QString& message) { showError(tr("Cannot compare runs"), message); });
        view->show();
    });

    const QString error = runs_->open(dbPath_);
    if (!error.isEmpty()) {
        lastError_ = error;
        status_->setText(tr("Run store unavailable: %1").arg(error));
    }
    if (!layout_->restore())
        resize(1280, 820);
    fitToScreen();
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

void MainWindow::createMenus()
{
    fileMenu_ = menuBar()->addMenu(QString());
    openAction_ = fileMenu_->addAction(QString(), this, &MainWindow::openConfig);
    openAction_->setShortcut(QKeySequence::Open);
    saveAction_ = fileMenu_->addAction(QString(), this, &MainWindow::saveConfig);
    saveAction_->setShortcut(QKeySequence::Save);
    reportAction_ = fileMenu_->addAction(QString(), runs_, &RunsPanel::exportReportOfSelection);
    reportAction_->setObjectName(QStringLiteral("exportReportAction"));
    clusterAction_ = fileMenu_->addAction(QString(), this, [this] {
        const auto config = validatedConfig(tr("Cannot write a cluster script"));
        if (!config)
            return;
        ClusterScriptDialog dialog(*config, this);
        dialog.exec();
    });
    clusterAction_->setObjectName(QStringLiteral("clusterAction"));
    fileMenu_->addSeparator();
    // Recipes shipped with Entrena (resources/configs), loaded into the panel to start from.
    recipesMenu_ = fileMenu_->addMenu(QString());
    defaultRecipeAction_ = recipesMenu_->addAction(QString(), this, [this] { loadRecipe(QStringLiteral("default.json")); });
    fastCnnRecipeAction_ = recipesMenu_->addAction(QString(), this, [this] { loadRecipe(QStringLiteral("cnn-fast.json")); });
    defaultRecipeAction_->setObjectName(QStringLiteral("defaultRecipeAction"));
    fastCnnRecipeAction_->setObjectName(QStringLiteral("fastCnnRecipeAction"));
    fileMenu_->addSeparator();
    quitAction_ = fileMenu_->addAction(QString(), this, &QWidget::close);
    quitAction_->setShortcut(QKeySequence::Quit);

    editMenu_ = menuBar()->addMenu(QString());
    settingsAction_ = editMenu_->addAction(QString(), this, [this] {
        SettingsDialog dialog(languages_, this);
        if (dialog.exec() == QDialog::Accepted)
            runs_->model()->setBaselineTolerance(Settings::baselineTolerance.value() / 100.0);
    });
    settingsAction_->setShortcut(QKeySequence::Preferences);

    // The buttons' work from the keyboard: each action clicks its button, so a disabled button
    // (a run training, a form with a problem) is a disabled shortcut too.
    runMenu_ = menuBar()->addMenu(QString());
    const auto clicks = [this](const char* button, const QKeySequence& keys, const char* name) {
        QAction* action = runMenu_->addAction(QString(), this, [this, button] {
            if (auto* b = findChild<QPushButton*>(QLatin1String(button)))
                b->click();
        });
        action->setShortcut(keys);
        action->setObjectName(QLatin1String(name));
        return action;
    };
    startAction_ = clicks("startButton", QKeySequence(Qt::CTRL | Qt::Key_Return), "startAction");
    stopAction_ = clicks("stopButton", QKeySequence(Qt::CTRL | Qt::Key_Period), "stopAction");
    findLrAction_ = clicks("findLrButton", QKeySequence(Qt::CTRL | Qt::Key_L), "findLrAction");
    findBatchAction_ = clicks("findBatchButton", QKeySequence(Qt::CTRL | Qt::Key_B), "findBatchAction");
    previewDataAction_ = clicks("previewDataButton", QKeySequence(Qt::CTRL | Qt::Key_D), "previewDataAction");
    runMenu_->addSeparator();
    compareAction_ = clicks("compareButton", QKeySequence(Qt::CTRL | Qt::Key_K), "compareAction");

    layout_->addViewMenu();
    helpMenu_ = menuBar()->addMenu(QString());
    aboutAction_ = helpMenu_->addAction(QString(), this, [this] {
        QApplication::setOverrideCursor(Qt::WaitCursor);
        const DeviceReport report = probeDevices(!controller_->isRunning()); // no GEMM timing while training
        QApplication::restoreOverrideCursor();
        DevicesDialog dialog(report, this);
        dialog.exec();
    });
}

void MainWindow::retranslate()
{
    setWindowTitle(tr("Entrena — %1").arg(QFileInfo(dbPath_).fileName()));
    fileMenu_->setTitle(tr("&File"));
    openAction_->setText(tr("&Open configuration…"));
    saveAction_->setText(tr("&Save configuration…"));
    reportAction_->setText(tr("Export &report of the selected runs…"));
    clusterAction_->setText(tr("&Launch on a cluster…"));
    recipesMenu_->setTitle(tr("&Recipes"));
    defaultRecipeAction_->setText(tr("Default: MLP, reduce on plateau, 12 epochs"));
    fastCnnRecipeAction_->setText(tr("Fast CNN: one-cycle, 2 epochs to 91% test accuracy"));
    quitAction_->setText(tr("&Quit"));
    editMenu_->setTitle(tr("&Edit"));
    settingsAction_->setText(tr("&Settings…"));
    runMenu_->setTitle(tr("&Run"));
    startAction_->setText(tr("&Start"));
    stopAction_->setText(tr("S&top"));
    findLrAction_->setText(tr("Find &learning rate…"));
    findBatchAction_->setText(tr("Find &batch size…"));
    previewDataAction_->setText(tr("Preview &data…"));
    compareAction_->setText(tr("&Compare selected runs"));
    helpMenu_->setTitle(tr("&Help"));
    aboutAction_->setText(tr("&About and devices…"));
    layout_->retranslate();
    if (!controller_->isRunning())
        status_->setText(tr("Ready. Runs are stored in %1").arg(dbPath_));
}

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
    if (controller_->isRunning())
        return false;
    auto config = validatedConfig(tr("Cannot start"));
    if (!config)
        return false;
    config->name = nameForNewRun(QString::fromStdString(config->name), QString::fromStdString(config->toJson()),
                                 runs_->namedRuns())
                       .toStdString();
    beginRun(tr("Starting…"));
    controller_->start(*config, dbPath_, config_->ranks());
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
    charts_->addEpoch(e, lastStep_);
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
    const QLocale locale;
    switch (e.status) {
    case RunStatus::Finished:
        status_->setText(tr("Finished in %1 s: test accuracy %2%")
                             .arg(locale.toString(e.seconds, 'f', 1))
                             .arg(locale.toString(e.testAccuracy * 100.0, 'f', 2)));
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
    if (closeWhenIdle_)
        close();
}

void MainWindow::openConfig()
{
    const QString file = QFileDialog::getOpenFileName(this, tr("Open configuration"), Settings::lastConfigFolder.value(),
                                                      tr("Configurations (*.json)"));
    if (file.isEmpty())
        return;
    Settings::lastConfigFolder.set(QFileInfo(file).absolutePath());
    try {
        config_->setConfig(RunConfig::fromFile(file.toStdString()));
    } catch (const ConfigError& e) {
        showError(tr("Cannot open configuration"), QString::fromStdString(e.what()));
    }
}

void MainWindow::loadRecipe(const QString& name)
{
    QFile file(QStringLiteral(":/configs/") + name);
    try {
        if (!file.open(QIODevice::ReadOnly))
            throw ConfigError(file.errorString().toStdString());
        config_->setConfig(RunConfig::fromJson(file.readAll().toStdString()));
    } catch (const ConfigError& e) {
        showError(tr("Cannot open configuration"), QString::fromStdString(e.what()));
    }
}

void MainWindow::saveConfig()
{
    const QString file = QFileDialog::getSaveFileName(this, tr("Save configuration"), Settings::lastConfigFolder.value(),
                                                      tr("Configurations (*.json)"));
    if (file.isEmpty())
        return;
    Settings::lastConfigFolder.set(QFileInfo(file).absolutePath());
    QSaveFile out(file);
    if (!out.open(QIODevice::WriteOnly) || out.write(QByteArray::fromStdString(config_->config().toJson(2) + "\n")) < 0 ||
        !out.commit())
        showError(tr("Cannot save configuration"), tr("Could not write %1: %2").arg(file, out.errorString()));
}

void MainWindow::closeEvent(QCloseEvent* event)
{
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
