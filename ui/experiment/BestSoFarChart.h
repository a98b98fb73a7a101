#pragma once

#include "experiment/ExperimentData.h"

#include <qcustomplot.h>

namespace entrena::ui {

/// The experiment's best value of its metric so far against wall time since its first trial
/// started (a step each time a trial beats it), over every trial's value at each epoch.
class BestSoFarChart : public QCustomPlot {
    Q_OBJECT
public:
    explicit BestSoFarChart(QWidget* parent = nullptr);
    void setData(const ExperimentData& data);
    /// The staircase's points (for tests): wall time in the axis's unit, best value.
    QCPGraph* bestGraph() const { return best_; }

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();

    QCPGraph* best_;
    QCPGraph* values_;
    QCPItemText* empty_;
    ExperimentData data_;
};

} // namespace entrena::ui
