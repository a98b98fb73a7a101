#pragma once

#include "entrena/export/SplitReview.h"
#include "entrena/store/RunStore.h"

#include <QDialog>
#include <QPointer>
#include <memory>

class QLabel;
class QLineEdit;
class QPushButton;
class QPlainTextEdit;
class QTableWidget;
class QTabWidget;

namespace entrena::ui {

class CellSamplesDialog;
class EvaluationTab;
class TryModelTab;

/// One run: its summary, configuration, events and checkpoints; notes and tags editable.
class RunDetailsDialog : public QDialog {
    Q_OBJECT
public:
    RunDetailsDialog(RunStore& store, int64_t runId, QWidget* parent = nullptr);

    void accept() override;

    /// Opens on the "Try it" tab: the run's model on the user's own inputs.
    void showTryIt();
    TryModelTab* tryIt() const { return tryIt_; }
    EvaluationTab* evaluation() const { return evaluation_; }

    /// Opens the samples of a confusion-matrix cell (what clicking the cell or a wrong example
    /// does), selecting the split's sample `index` when it is one of them.
    CellSamplesDialog* openCell(int trueClass, int predicted, qint64 index = -1);
    /// The cell's window last opened (null when none is open).
    CellSamplesDialog* cellSamples() const;

    /// Checkpoint rows whose file no longer exists (for tests).
    int missingCheckpoints() const { return missing_; }

    /// Exports the run's `which` ("best" or "last") checkpoint to `path` (.pt, .pth or
    /// .safetensors) as a job of the bridge's runner; exportFinished() reports the outcome.
    void exportCheckpoint(const QString& which, const QString& path);

Q_SIGNALS:
    /// `ok` false: `message` says what went wrong; true: what was written.
    void exportFinished(bool ok, const QString& message);

private:
    // The tabs, each built from the store.
    QWidget* summaryTab(const std::optional<RunRecord>& run);
    QWidget* configurationTab(const std::optional<RunRecord>& run);
    QWidget* eventsTab();
    QWidget* checkpointsTab();
    void chooseExport(const QString& which);
    void onExported(bool ok, const QString& message);

    RunStore& store_;
    int64_t runId_;
    QTabWidget* tabs_ = nullptr;
    TryModelTab* tryIt_ = nullptr;
    EvaluationTab* evaluation_ = nullptr;
    QPointer<CellSamplesDialog> cellSamples_;
    std::shared_ptr<const SplitReview> review_; ///< the evaluated split classified again, once per window
    QPlainTextEdit* notes_;
    QLineEdit* tags_;
    QPushButton* exportButton_;
    QLabel* exportStatus_;
    int missing_ = 0;
};

} // namespace entrena::ui
