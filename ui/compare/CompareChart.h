#pragma once

#include "compare/CompareData.h"

#include <QElapsedTimer>
#include <qcustomplot.h>

namespace entrena::ui {

/// One metric of a comparison: a line per run (the raw series faint behind the smoothed one when
/// smoothing is on), events as vertical markers, hover read-out of every run's value at the
/// cursor. Whole series stay in memory; what is drawn is decimated (M4) to the chart's width for
/// the visible x-range on every zoom or pan, through a precomputed overview for long series, so
/// a million points per run redraw as fast as a thousand.
class CompareChart : public QCustomPlot {
    Q_OBJECT
public:
    CompareChart(const QString& metric, double scale, QWidget* parent = nullptr);

    QString metric() const { return metric_; }
    void setTitle(const QString& title);
    void setValueLabel(const QString& label);

    /// Replaces the runs shown (colours by position in `data`); with `keepView` the axes' ranges
    /// and hidden runs stay as they were (the whole series replacing an overview).
    void setData(const CompareData& data, bool keepView = false);
    void setXMode(XAxisMode mode);
    /// 0 ≤ weight < 1; 0 draws the raw series alone.
    void setSmoothing(double weight);
    void setLogScale(bool on);
    void setRunVisible(int run, bool visible);
    /// Fits the axes to the visible runs.
    void fit();

    /// Every visible run's value at x (the smoothed value when smoothing is on), and the events
    /// within `tolerance` of x, one line each: what hovering shows.
    QStringList hoverText(double x, double tolerance = 0) const;
    /// Runs with data in this chart.
    int lineCount() const { return int(lines_.size()); }
    /// Whether smoothing applies to any of its lines (step series of kSmoothableMinPoints or more, of
    /// a measured metric: the learning rate is a schedule's planned value, drawn as it is).
    bool smoothable() const;
    /// A series that is planned, not measured (the learning rate): never smoothed.
    bool planned() const;
    static constexpr std::size_t kSmoothableMinPoints = 64;
    /// Points drawn now, over all graphs (for tests and benchmarks).
    int drawnPoints() const;
    /// Milliseconds the last decimation took (the replot's own time is replotTime()).
    double lastDecimationMs() const { return decimationMs_; }
    /// Re-decimates for the visible range (done on every range change).
    void redecimate();

Q_SIGNALS:
    void xRangeChanged(const QCPRange& range);

private:
    /// The run's events as dashed lines across the chart; `index` is its place in the data.
    void addMarkers(const CompareRun& run, int index);
    struct Overview {
        std::vector<double> x, y;
        void build(const std::vector<double>& fullX, const std::vector<double>& fullY);
    };
    struct Line {
        int run = 0;
        QString label;
        QColor color;
        std::vector<double> step, wall, raw, smooth, x;
        double samplesPerStep = 1, stepsPerEpoch = 0, startWall = 0;
        Overview rawOverview, smoothOverview;
        QCPGraph* rawGraph = nullptr;
        QCPGraph* smoothGraph = nullptr;
        bool visible = true;
    };
    struct Marker {
        int run = 0;
        double step = 0;
        double wall = 0;
        QString text;
        QCPItemStraightLine* item = nullptr;
    };

    void rebuildX(bool refit);
    void placeMarkers();
    void drawLine(Line& line, const std::vector<double>& y, const Overview& overview, QCPGraph* graph, const QCPRange& range,
                  int pixels);
    double toX(const Line& line, double step, double wall) const;
    void hover(QMouseEvent* event);

    QString metric_;
    double scale_;
    XAxisMode mode_ = XAxisMode::Step;
    double smoothing_ = 0;
    std::vector<Line> lines_;
    std::vector<Marker> markers_;
    double decimationMs_ = 0;
    bool decimating_ = false;
};

} // namespace entrena::ui
