#pragma once

#include "experiment/ExperimentData.h"

#include <QList>
#include <QSet>
#include <QStringList>
#include <QWidget>
#include <optional>
#include <vector>

class QPainter;

namespace entrena::ui {

/// The trials of an experiment as lines across one vertical axis per parameter and a last axis
/// for the metric, each line coloured by its metric (the better, the brighter). Drag along an
/// axis to keep the trials inside that range (a brush; several axes combine); the others fade.
/// A click on an axis without dragging clears its brush.
class ParallelCoordinates : public QWidget {
    Q_OBJECT
public:
    explicit ParallelCoordinates(QWidget* parent = nullptr);

    void setData(const ExperimentData& data);
    int axisCount() const { return int(axes_.size()); }
    QString axisTitle(int axis) const;
    /// Where a value (as JSON) lies on a parameter's axis, or a metric on the last: 0 at the
    /// bottom, 1 at the top; none when the axis cannot place it.
    std::optional<double> position(int axis, const std::string& json) const;
    std::optional<double> metricPosition(double metric) const;

    /// Keeps the trials between `from` and `to` (positions, 0..1) on `axis`.
    void setBrush(int axis, double from, double to);
    /// The same in the axis's own values (a numeric parameter, or the metric).
    void setBrushValues(int axis, double low, double high);
    void clearBrushes();
    bool hasBrush() const;
    /// The runs inside every brush (all the runs when there is none), in trial order.
    QList<qint64> selectedRuns() const;
    /// Runs drawn bolder, the rows selected in the trials table.
    void setHighlighted(const QList<qint64>& runs);
    /// The point of `axis` at `position` in this widget (for tests that drag).
    QPoint pointAt(int axis, double position) const;

    QSize minimumSizeHint() const override;

Q_SIGNALS:
    void selectionChanged();

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void paintLines(QPainter& p, const QRect& area);
    void paintAxis(QPainter& p, const QRect& area, int i);
    struct Axis {
        QString title;
        bool categorical = false;
        bool log = false;
        bool percent = false; ///< an accuracy, shown in percent
        double low = 0, high = 1;
        QStringList categories; ///< categorical: the values as JSON, in the space's order
        std::optional<std::pair<double, double>> brush;
    };
    struct Line {
        qint64 runId = 0;
        std::vector<std::optional<double>> at; ///< a position per axis
        std::optional<double> metric;
    };
    QRect plotArea() const;
    int axisX(int axis) const;
    double positionAtY(int y) const;
    int axisNear(int x) const;
    bool inside(const Line& line) const;
    QColor colorOf(double metric) const;
    QString tickText(const Axis& axis, double position) const;
    /// Half the room an edge axis's title needs, in pixels.
    int halfTitle(const Axis& axis) const;

    std::vector<Axis> axes_;
    std::vector<Line> lines_;
    bool higherIsBetter_ = true;
    QSet<qint64> highlighted_;
    int dragAxis_ = -1;
    int dragFrom_ = 0;
};

} // namespace entrena::ui
