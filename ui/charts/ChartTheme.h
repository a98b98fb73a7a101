#pragma once

class QCustomPlot;
class QColor;
class QPalette;

namespace entrena::ui {

/// Charts in the application's palette: background, axes, ticks, labels, grid, legend and titles
/// follow the palette (a dark desktop gets dark charts: QCustomPlot paints fixed white and black
/// otherwise), and again whenever the palette changes. Data colours stay as they are.
void followPalette(QCustomPlot* plot);

/// A background that marks a cell as the best (`good`) or as a warning, readable on `palette`.
QColor markColor(const QPalette& palette, bool good);

} // namespace entrena::ui
