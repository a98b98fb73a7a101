// MainWindow's wiring of the run queue, the sweep dialog and the experiments: which signal starts
// what. Kept apart from MainWindow.cpp, which wires the training itself.
#include "MainWindow.h"
#include "RunTableModel.h"
#include "TrainingController.h"
#include "compare/CompareView.h"
#include "experiment/ExperimentView.h"
#include "experiment/ExperimentsPanel.h"
#include "experiment/CrossValidationDialog.h"
#include "experiment/SweepDialog.h"
#include "panels/QueuePanel.h"
#include "panels/RunConfigPanel.h"
#include "runs/RunQueue.h"
#include "panels/RunsPanel.h"

#include <QMessageBox>
#include <QStatusBar>
#include <QTabWidget>

namespace entrena::ui {

void MainWindow::connectQueueAndExperiments()
{
    connect(queuePanel_, &QueuePanel::runNextRequested, this, &MainWindow::runQueuedNext);
    connect(queue_, &RunQueue::changed, this, &MainWindow::retranslateTabs);
    connect(runs_, &RunsPanel::experimentRequested, this, &MainWindow::openExperiment);
    connect(experiments_, &ExperimentsPanel::openRequested, this, &MainWindow::openExperiment);
    connect(lowerTabs_, &QTabWidget::currentChanged, this, [this](int index) {
        if (lowerTabs_->widget(index) == experiments_)
            refreshExperiments();
    });
    // Restored, not started: a queue left by the last session waits for Run next or a run's end.
    if (!queue_->loadError().isEmpty())
        statusBar()->showMessage(tr("Part of the run queue could not be restored: %1").arg(queue_->loadError()), 10000);
    refreshExperiments();
    retranslateTabs();
}

void MainWindow::retranslateTabs()
{
    lowerTabs_->setTabText(lowerTabs_->indexOf(runs_), tr("Runs"));
    lowerTabs_->setTabText(lowerTabs_->indexOf(queuePanel_),
                           queue_->isEmpty() ? tr("Queue") : tr("Queue (%1)").arg(queue_->size()));
    lowerTabs_->setTabText(lowerTabs_->indexOf(experiments_), tr("Experiments"));
}

void MainWindow::startNextQueued()
{
    if (controller_->isRunning())
        return;
    if (const auto next = queue_->takeFirst())
        launch(next->config, next->ranks);
}

void MainWindow::runQueuedNext(int index)
{
    if (index < 0 || index >= queue_->size())
        return;
    queue_->move(index, 0);
    if (controller_->isRunning())
        statusBar()->showMessage(tr("It starts when the current run ends."), 5000);
    else
        startNextQueued();
}

void MainWindow::compareRuns(const QList<qint64>& runIds)
{
    auto* view = new CompareView(dbPath_, runIds, this); // a window of its own; deleted on close
    connect(view, &CompareView::failed, this, [this](const QString& message) { showError(tr("Cannot compare runs"), message); });
    view->show();
}

void MainWindow::refreshExperiments()
{
    experiments_->refresh(runs_->model()->store());
}

SweepDialog* MainWindow::openSweep()
{
    if (!sweep_ || !sweep_->isRunning()) {
        const auto config = validatedConfig(tr("Cannot sweep"));
        if (!config)
            return nullptr;
        if (sweep_) {
            sweep_->setBase(*config);
        } else {
            sweep_ = new SweepDialog(*config, dbPath_, controller_->rankProgram(), this);
            // The trials are runs of this store: the lists show them as they start and end.
            const auto refresh = [this] {
                runs_->refresh();
                refreshExperiments();
            };
            connect(sweep_, &SweepDialog::trialStarted, this, refresh);
            connect(sweep_, &SweepDialog::trialEnded, this, refresh);
            connect(sweep_, &SweepDialog::sweepEnded, this, refresh);
            connect(sweep_, &SweepDialog::openExperimentRequested, this, &MainWindow::openExperiment);
        }
    }
    sweep_->show();
    sweep_->raise();
    sweep_->activateWindow();
    return sweep_;
}

CrossValidationDialog* MainWindow::openCrossValidation()
{
    if (!crossValidation_ || !crossValidation_->isRunning()) {
        const auto config = validatedConfig(tr("Cannot cross-validate"));
        if (!config)
            return nullptr;
        if (crossValidation_) {
            crossValidation_->setBase(*config);
        } else {
            crossValidation_ = new CrossValidationDialog(*config, dbPath_, controller_->rankProgram(), this);
            // The folds are runs of this store: the lists show them as they start and end.
            const auto refresh = [this] {
                runs_->refresh();
                refreshExperiments();
            };
            connect(crossValidation_, &CrossValidationDialog::foldStarted, this, refresh);
            connect(crossValidation_, &CrossValidationDialog::foldEnded, this, refresh);
            connect(crossValidation_, &CrossValidationDialog::ended, this, refresh);
            connect(crossValidation_, &CrossValidationDialog::openExperimentRequested, this, &MainWindow::openExperiment);
        }
    }
    crossValidation_->show();
    crossValidation_->raise();
    crossValidation_->activateWindow();
    return crossValidation_;
}

ExperimentView* MainWindow::openExperiment(qint64 experimentId)
{
    auto* view = new ExperimentView(dbPath_, experimentId, this); // a window of its own; deleted on close
    connect(view, &ExperimentView::compareRequested, this, &MainWindow::compareRuns);
    connect(view, &ExperimentView::resumeRequested, this, [this, view](qint64 id) {
        if (sweep_ && sweep_->isRunning()) {
            showError(tr("Cannot resume the sweep"), tr("A sweep is running; stop it or wait for it to end."));
            return;
        }
        if (SweepDialog* d = openSweep(); d && d->resume(id))
            view->reload(); // now running: the view follows its trials
    });
    connect(view, &ExperimentView::failed, this,
            [this](const QString& message) { showError(tr("Cannot open the experiment"), message); });
    view->show();
    return view;
}

} // namespace entrena::ui
