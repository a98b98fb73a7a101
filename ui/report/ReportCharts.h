#pragma once

#include "report/Report.h"

#include <QColor>

class QCustomPlot;

namespace entrena::ui {

/// The colour of the i-th run, the same in every chart of a report (Tableau's ten).
QColor runColor(std::size_t index);

/// A chart of one metric with a line per run, sized `width` × `height` and ready to render
/// (offscreen, no window shown). The caller owns it.
QCustomPlot* buildReportChart(const Report& report, const ChartSpec& spec, int width, int height);

} // namespace entrena::ui
