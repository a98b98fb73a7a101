#pragma once
// Tick labels for counts that grow large (steps, samples seen): 250k and 1.5M rather than 250000
// and 1500000, which ran into each other on a chart a third of a laptop screen wide. Numbers are
// written in the chart's language ("1,5M" in Spanish).

#include <qcustomplot.h>

namespace entrena::ui {

class CompactTicker : public QCPAxisTicker {
protected:
    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar, int precision) override;
};

/// `value` as CompactTicker writes it (for tests, and text beside a chart).
QString compactNumber(double value, const QLocale& locale);

} // namespace entrena::ui
