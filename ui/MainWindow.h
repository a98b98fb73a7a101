#pragma once

#include "entrena/config/Config.h"
#include "entrena/train/Events.h"

#include <QElapsedTimer>
#include <QMainWindow>
#include <optional>

class QAction;
class QLabel;
class QScrollArea;
class QMenu;
class QProgressBar;
class QSplitter;
class QTabWidget;

namespace entrena {
struct BatchSizeResult;
}
namespace entrena::app {
class TrainingController;
}

namespace entrena::ui {

class DataPreviewDialog;
class ExperimentView;
class ExperimentsPanel;
class LanguageManager;
class LiveCharts;
class NoticeBanner;
class QueuePanel;
class RunConfigPanel;
class DiskUseBar;
class RunQueue;
class RunsPanel;
class CrossValidationDialog;
class SweepDialog;

/// The workbench: configuration on the left, live charts in the middle, runs below.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    MainWindow(const QString& dbPath, const RunConfig& initial, LanguageManager& languages, QWidget* parent = nullptr);
    ~MainWindow() override;

    LiveCharts* charts() const { return charts_; }
    RunsPanel* runs() const { return runs_; }
    RunConfigPanel* configPanel() const { return config_; }
    /// The strip above the charts for notices that need action (not learning, unreadable files).
    NoticeBanner* noticeBanner() const { return banner_; }
    app::TrainingController* controller() const { return controller_; }
    /// The message of the last run that failed or could not start (for tests).
    QString lastError() const { return lastError_; }

    /// Starts a run with the panel's configuration; while one trains, adds it to the queue instead.
    /// True when a run started.
    bool startTraining();
    /// The runs waiting to start, and their tab beside the runs list.
    RunQueue* queue() const { return queue_; }
    QueuePanel* queuePanel() const { return queuePanel_; }
    ExperimentsPanel* experimentsPanel() const { return experiments_; }
    /// The tabs under the charts: runs, queue, experiments.
    QTabWidget* lowerTabs() const { return lowerTabs_; }
    /// Starts the queued run at `index` now when nothing trains; else it becomes the next to start.
    void runQueuedNext(int index);
    /// Run → Sweep…: the sweep dialog for the form's configuration (null: the form is not valid and
    /// no sweep runs).
    SweepDialog* openSweep();
    /// Run → Cross-validate…: k-fold cross-validation of the form's configuration (null: the form is
    /// not valid and none runs).
    CrossValidationDialog* openCrossValidation();
    /// An experiment's view, in a window of its own.
    ExperimentView* openExperiment(qint64 experimentId);
    /// Continues a stopped or interrupted run from its latest checkpoint.
    bool resumeRun(qint64 runId);
    /// Opens the learning-rate range test for the panel's configuration (null: not valid).
    class LrFinderDialog* findLearningRate();
    /// Starts the batch-size finder for the panel's configuration, or stops it if it runs.
    void findBatchSize();
    /// Opens the preview of the panel's data: classes, counts and pictures (read off the GUI thread).
    DataPreviewDialog* previewData();

    /// The window's size on a screen with `available` room: `wanted`, shrunk to fit.
    static QSize sizeWithin(const QSize& wanted, const QSize& available);

protected:
    void closeEvent(QCloseEvent* event) override;
    void changeEvent(QEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    // The constructor's parts.
    QWidget* buildCentre();
    void buildStatusBar();
    void connectForm();
    void connectTraining();
    void fitToScreen();
    /// Keeps the window's arrangement and the form for the next session.
    void remember();
    void createMenus();
    void createFileMenu();
    void createEditMenu();
    void createRunMenu();
    void createHelpMenu();
    void retranslate();
    void showError(const QString& title, const QString& message);
    void showBatchSizeAnswer(const BatchSizeResult& result);
    /// The panel's configuration, checked as entrena-cli checks it; on error, shown under `errorTitle`.
    std::optional<RunConfig> validatedConfig(const QString& errorTitle);
    /// Resets the charts and progress for a run about to start.
    void beginRun(const QString& status);
    void openConfig();
    void saveConfig();
    void loadRecipe(const QString& name);
    void onStarted(const StartEvent& e);
    void onSteps(const QVector<StepEvent>& steps);
    void onEpoch(const EpochEvent& e);
    void onNotice(const NoticeEvent& e);
    void onEnded(const EndEvent& e);
    void onIdle();
    /// Names a run by what differs from the others, and starts it.
    bool launch(RunConfig config, int ranks);
    void startNextQueued();
    /// The queue's, the sweep's and the experiments' connections (MainWindowQueue.cpp).
    void connectQueueAndExperiments();
    void retranslateTabs();
    /// The form's column as wide as the form needs in the current language.
    void fitFormWidth();
    void orderTabs();
    void compareRuns(const QList<qint64>& runIds);
    void refreshExperiments();

    QString dbPath_;
    LanguageManager& languages_;
    app::TrainingController* controller_;
    RunConfigPanel* config_;
    LiveCharts* charts_;
    NoticeBanner* banner_;
    RunsPanel* runs_;
    RunQueue* queue_;
    QueuePanel* queuePanel_;
    ExperimentsPanel* experiments_;
    QTabWidget* lowerTabs_;
    SweepDialog* sweep_ = nullptr;
    CrossValidationDialog* crossValidation_ = nullptr;
    RunStatus lastEnd_ = RunStatus::Finished; ///< how the last run ended: one stopped pauses the queue
    QSplitter* vertical_;
    QSplitter* horizontal_;
    QProgressBar* progress_;
    QLabel* status_;
    QMenu* fileMenu_;
    QMenu* editMenu_;
    QMenu* runMenu_;
    QAction* startAction_;
    QAction* stopAction_;
    QAction* findLrAction_;
    QAction* findBatchAction_;
    QAction* previewDataAction_;
    QAction* compareAction_;
    QAction* sweepAction_;
    QAction* crossValidateAction_;
    QMenu* helpMenu_;
    QAction* openAction_;
    QAction* saveAction_;
    QAction* reportAction_;
    QAction* clusterAction_;
    QMenu* recipesMenu_;
    QAction* defaultRecipeAction_;
    QAction* fastCnnRecipeAction_;
    QAction* quitAction_;
    QAction* settingsAction_;
    QAction* aboutAction_;
    QAction* guideAction_ = nullptr;
    QString lastError_;
    int64_t totalSteps_ = 0;
    int64_t lastStep_ = 0;
    int epochs_ = 0;
    int epoch_ = 0;
    bool closeWhenIdle_ = false;
    bool fittedWhenShown_ = false;
    QSize fittedSize_; ///< the size fitToScreen() chose
    QScrollArea* formScroll_ = nullptr;
    DiskUseBar* diskUse_ = nullptr;
    QElapsedTimer diskUseClock_;
    QElapsedTimer runClock_;
    class BatchSizeSearch* batchSearch_;
    class WindowLayout* layout_ = nullptr;
};

} // namespace entrena::ui
