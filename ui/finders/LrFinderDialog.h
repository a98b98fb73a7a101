#pragma once

#include "JobHandle.h"
#include "entrena/config/Config.h"
#include "entrena/search/LrFinder.h"

#include <QDialog>

class QCustomPlot;
class QCPGraph;
class QCPItemStraightLine;
class QLabel;
class QPushButton;

namespace entrena::ui {

/// The learning-rate range test for a configuration: runs as a job of the bridge's runner, draws the loss
/// against the rate (log axis) as it goes, marks the suggested rate; the marker can be dragged,
/// and one click applies the chosen rate as the base learning rate or as one-cycle's max_lr.
class LrFinderDialog : public QDialog {
    Q_OBJECT
public:
    LrFinderDialog(const RunConfig& config, QWidget* parent = nullptr);
    ~LrFinderDialog() override;

    /// Starts the sweep (the dialog does when shown; tests call it directly).
    void start(const LrFinderOptions& options = {});
    bool isFinished() const { return finished_; }
    double chosenLr() const { return chosen_; }
    const LrFinderResult& result() const { return result_; }
    /// Moves the marker (what dragging does).
    void choose(double lr);
    QCustomPlot* plot() const { return plot_; }

Q_SIGNALS:
    void finished(bool ok, const QString& message);
    void applyLearningRate(double lr);
    void applyMaxLr(double lr);

protected:
    void reject() override;

private:
    void onStep(int step, double lr, double loss);
    void onDone(const LrFinderResult& result, const QString& error);
    void updateLabel();

    RunConfig config_;
    app::JobHandle<LrFinderResult> job_;
    QCustomPlot* plot_;
    QCPGraph* raw_;
    QCPGraph* smooth_;
    QCPItemStraightLine* marker_;
    QLabel* status_;
    QPushButton* useLr_;
    QPushButton* useMaxLr_;
    LrFinderResult result_;
    double chosen_ = 0;
    bool finished_ = false;
    bool dragging_ = false;
};

} // namespace entrena::ui
