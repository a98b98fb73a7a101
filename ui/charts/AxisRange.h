#pragma once

class QCustomPlot;
class QCPAxis;
class QCPGraph;
class QCPRange;

namespace entrena::ui {

/// The range an axis shows for data from `lower` to `upper`: 4% of air on each side, and at
/// least 5% of the values' size (or 1 around zero). A flat series, such as a constant learning
/// rate or a steady memory reading, is then drawn mid-axis on readable ticks; QCustomPlot's own
/// rescale keeps the old span for data without spread, so padding it on every redraw grew the
/// axis without end (±5, ±20 … ±150000).
QCPRange displayRange(double lower, double upper);

/// The extent of the data of `plot`'s visible plottables along `axis` (as key or value axis);
/// `found` says whether there was any.
QCPRange dataRange(QCustomPlot* plot, const QCPAxis* axis, bool& found);

/// A line through one point draws nothing, and through three is easy to miss: `graph` shows a
/// mark at each point while it has fewer than 20 (a short run's handful), and none after.
void markFewPoints(QCPGraph* graph);

/// Fits the x axis and both value axes of `plot` to the data of its visible plottables with
/// displayRange(). An axis without data keeps its range.
void fitAxesToData(QCustomPlot* plot);

} // namespace entrena::ui
