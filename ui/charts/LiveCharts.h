#pragma once

#include "entrena/train/Events.h"

#include <QTimer>
#include <QVector>
#include <QWidget>

class QCustomPlot;
class QCPGraph;
class QCPItemText;

namespace entrena::ui {

class StepTimeChart;

/// The live charts of a run: training loss and learning rate per logged step, validation loss
/// and accuracy per epoch, and memory. New points are appended as they arrive; drawing is
/// coalesced by a single-shot timer so the charts replot at most ~30 times a second however
/// fast the events come.
class LiveCharts : public QWidget {
    Q_OBJECT
public:
    explicit LiveCharts(QWidget* parent = nullptr);

    void clear();
    /// Data-parallel runs: the memory lines, one per rank (for tests).
    const QVector<QCPGraph*>& rankMemoryGraphs() const { return rankMemory_; }
    void addSteps(const QVector<StepEvent>& steps);
    void addEpoch(const EpochEvent& epoch, int64_t step);
    /// Marks an event (a divergence rollback, an OOM retry) on the loss and learning-rate charts.
    void markEvent(const NoticeEvent& event);
    int eventMarks() const { return marks_; }

    // For tests and reports.
    int trainLossPoints() const;
    int validationPoints() const;
    int learningRatePoints() const;
    int replotCount() const { return replots_; }
    /// Fits the axes to the data now, instead of at the next coalesced redraw (for a screenshot).
    void replotNow() { replot(/*immediate=*/true); }
    StepTimeChart* stepTimes() const { return stepTimes_; }

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    void scheduleReplot();
    /// Fits the axes and redraws, at the next event loop pass or (immediate) at once.
    void replot(bool immediate = false);

    QCustomPlot* lossPlot_;
    QCustomPlot* valPlot_;
    QCustomPlot* lrPlot_;
    QCustomPlot* memoryPlot_;
    StepTimeChart* stepTimes_;
    QCPGraph* trainLoss_;
    QCPGraph* epochTrainLoss_;
    QCPGraph* valLoss_;
    QCPGraph* valAccuracy_;
    QCPGraph* lr_;
    QCPGraph* memory_;
    QCPGraph* deviceAllocated_;
    QCPGraph* deviceUsed_;
    QCPGraph* deviceReserved_;
    QCPGraph* devicePeak_;
    QCPGraph* deviceTotal_;
    QVector<QCPGraph*> rankMemory_; ///< data-parallel runs: one line per rank
    QVector<QCPItemText*> placeholders_; ///< loss, validation, learning rate, memory: shown while empty
    QTimer replotTimer_;
    int replots_ = 0;
    int marks_ = 0;
};

} // namespace entrena::ui
