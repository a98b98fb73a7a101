#include "charts/AxisRange.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace entrena::ui {

QCPRange displayRange(double lower, double upper)
{
    if (lower > upper)
        std::swap(lower, upper);
    const double center = (lower + upper) / 2;
    const double span = upper - lower;
    const double least = center == 0 ? 1.0 : std::abs(center) * 0.05;
    const double shown = std::max(span * 1.08, least);
    return QCPRange(center - shown / 2, center + shown / 2);
}

QCPRange dataRange(QCustomPlot* plot, const QCPAxis* axis, bool& found)
{
    found = false;
    QCPRange data;
    for (int i = 0; i < plot->plottableCount(); ++i) {
        const QCPAbstractPlottable* p = plot->plottable(i);
        if (!p->visible() || (p->keyAxis() != axis && p->valueAxis() != axis))
            continue;
        bool has = false;
        const QCPRange r = p->keyAxis() == axis ? p->getKeyRange(has) : p->getValueRange(has);
        if (!has)
            continue;
        data = found ? QCPRange(std::min(data.lower, r.lower), std::max(data.upper, r.upper)) : r;
        found = true;
    }
    return data;
}

void markFewPoints(QCPGraph* graph)
{
    constexpr int kFew = 20;
    const bool few = graph->dataCount() > 0 && graph->dataCount() < kFew;
    if (few == !graph->scatterStyle().isNone())
        return;
    graph->setScatterStyle(few ? QCPScatterStyle(QCPScatterStyle::ssDisc, graph->pen().color(), 5) : QCPScatterStyle());
}

void fitAxesToData(QCustomPlot* plot)
{
    for (QCPAxis* axis : {plot->xAxis, plot->yAxis, plot->yAxis2}) {
        bool any = false;
        const QCPRange data = dataRange(plot, axis, any);
        if (!any)
            continue;
        if (axis->scaleType() == QCPAxis::stLogarithmic && data.lower > 0) {
            axis->setRange(data.lower / 1.1, data.upper * 1.1); // the same air, as a factor
        } else if (axis == plot->xAxis && data.upper - data.lower < 2) {
            // One step or one epoch so far: a little of the axis either side of it, in whole units.
            axis->setRange(data.lower - 1, data.upper + 1);
        } else {
            axis->setRange(displayRange(data.lower, data.upper));
        }
    }
}

} // namespace entrena::ui
