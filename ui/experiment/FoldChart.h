#pragma once
// A cross-validation's folds side by side (the experiment's window, in place of a sweep's parallel
// coordinates and best-so-far curve, which mean nothing for folds): each fold's validation accuracy
// and, where the folds kept their evaluation, its recall averaged over the classes, as bars over
// the folds counted from 1, with the mean as a line and ± one standard deviation as a band.

#include "entrena/experiment/CrossValidation.h"

#include <qcustomplot.h>

namespace entrena::ui {

class FoldChart : public QCustomPlot {
    Q_OBJECT
public:
    explicit FoldChart(QWidget* parent = nullptr);
    void setSummary(const CrossValidationSummary& summary);
    /// The bars of validation accuracy and of macro recall (for tests), in percent.
    QCPBars* accuracyBars() const { return accuracy_; }
    QCPBars* recallBars() const { return recall_; }

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();

    QCPBars* accuracy_;
    QCPBars* recall_;
    QCPGraph* mean_;
    QCPGraph* bandLow_;
    QCPGraph* bandHigh_;
    CrossValidationSummary summary_;
};

} // namespace entrena::ui
