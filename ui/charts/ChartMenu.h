#pragma once

#include <QObject>
#include <QString>

class QCustomPlot;

namespace entrena::ui {

/// What every chart offers on right-click: export as PNG, SVG or PDF, and "Copy data as CSV"
/// with exactly the series drawn. Install once per chart; the menu follows the language.
class ChartMenu : public QObject {
    Q_OBJECT
public:
    /// Adds the context menu to `plot` (the menu is parented to it).
    static ChartMenu* install(QCustomPlot* plot);

    /// Saves the chart as it is shown, chosen by the extension of `path` (.png, .svg, .pdf).
    /// Returns an empty string, or a message naming the problem. Written whole or not at all.
    static QString save(QCustomPlot* plot, const QString& path);
    /// The drawn series as CSV: `series,<x-axis label>,<value>` and one row per point of every
    /// visible, non-empty graph, in drawing order; numbers in full precision.
    static QString csv(const QCustomPlot* plot);

private:
    explicit ChartMenu(QCustomPlot* plot);
    void show(const QPoint& pos);
    void exportAs(const QString& suffix);

    QCustomPlot* plot_;
};

} // namespace entrena::ui
