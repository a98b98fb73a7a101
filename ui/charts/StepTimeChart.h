#pragma once
// Where each step's time goes: data, forward, backward, optimizer, communication and logging as a
// stacked area (milliseconds per step against the step), with a plain-language hint when one
// part dominates.

#include "entrena/train/Events.h"

#include <QVector>
#include <QWidget>

class QCustomPlot;
class QCPGraph;
class QCPItemText;
class QLabel;

namespace entrena::ui {

class StepTimeChart : public QWidget {
    Q_OBJECT
public:
    explicit StepTimeChart(QWidget* parent = nullptr);

    void clear();
    void addSteps(const QVector<StepEvent>& steps);

    /// What to do about a split, or "" when no part stands out. `mfu` < 0: unknown.
    static QString hintFor(const PhaseTimes& perStep, double stepSeconds, double mfu);

    QString hint() const;
    int points() const;
    /// The top of the stack at the last step: the parts' sum in milliseconds.
    double lastStackMs() const;
    QCustomPlot* plot() const { return plot_; }

protected:
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void setHint(const QString& text);
    void fitHint();
    void retranslate();

    QCustomPlot* plot_;
    QVector<QCPGraph*> layers_; ///< bottom to top, cumulative
    QLabel* hint_;
    QCPItemText* placeholder_ = nullptr; ///< shown while no step has come
    StepEvent last_;
    bool hasLast_ = false;
};

} // namespace entrena::ui
