#pragma once
// Tick labels for counts that grow large (steps, samples seen): 250k and 1.5M rather than 250000
// and 1500000, which ran into each other on a chart a third of a laptop screen wide. Numbers are
// written in the chart's language ("1,5M" in Spanish).

#include <qcustomplot.h>

namespace entrena::ui {

/// Counts are whole: ticks fall on whole numbers (a short run's steps ticked at 7.5 and 12.5).
class CompactTicker : public QCPAxisTicker {
protected:
    double getTickStep(const QCPRange& range) override;
    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar, int precision) override;
};

/// The tick step for whole numbers: QCustomPlot's step, raised to the nearest of 1, 2 and 5 times a
/// power of ten where it is not whole.
double wholeTickStep(double step);

/// `value` as CompactTicker writes it (for tests, and text beside a chart).
QString compactNumber(double value, const QLocale& locale);

} // namespace entrena::ui
