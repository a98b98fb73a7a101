#pragma once

class QCustomPlot;
class QCPItemText;
class QColor;
class QPalette;

namespace entrena::ui {

/// Charts in the application's palette: background, axes, ticks, labels, grid, legend and titles
/// follow the palette (a dark desktop gets dark charts: QCustomPlot paints fixed white and black
/// otherwise), and again whenever the palette changes. Data colours stay as they are. Tick labels
/// write numbers as the reader's language does ("0,5" in Spanish), and follow a change of language:
/// QCustomPlot fixes its locale when it is made, so a live switch left the charts' "0.5". A
/// placeholder text (an item with the property `placeholder`) is kept inside the axis rect, its font
/// shrunk where a language's lines are wider than the chart.
void followPalette(QCustomPlot* plot);

/// The text an empty chart shows in the middle of its axis rect, in the palette's disabled text colour
/// and kept inside the rect (followPalette()); its text is the caller's.
QCPItemText* addPlaceholder(QCustomPlot* plot);
/// An empty chart says what will appear, instead of numbering and ruling axes that have nothing on
/// them: `placeholder` shown, tick labels and grid lines hidden (and the other way when not `empty`).
void showPlaceholder(QCustomPlot* plot, QCPItemText* placeholder, bool empty);

/// A background that marks a cell as the best (`good`) or as a warning, readable on `palette`.
QColor markColor(const QPalette& palette, bool good);
/// Puts `plot`'s legend in a row of its own above the axes, its entries side by side, and shows it.
void legendAbove(QCustomPlot* plot);
/// The colour of an empty chart's text: softer than the axes', at least 4.5:1 against the chart.
QColor placeholderColor(const QPalette& palette);

} // namespace entrena::ui
