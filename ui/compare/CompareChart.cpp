#include "compare/CompareChart.h"

#include "charts/AxisRange.h"
#include "charts/ChartTheme.h"
#include "charts/CompactTicker.h"
#include "entrena/store/Decimate.h"
#include "report/Report.h"
#include "report/ReportCharts.h"

#include <QDateTime>
#include <QLocale>
#include <QToolTip>
#include <algorithm>
#include <cmath>

namespace entrena::ui {
namespace {

// The overview keeps M4 of this many buckets: ≤ 4 × 16384 points however long the series.
constexpr int kOverviewBuckets = 16384;
constexpr int kMaxMarkersPerRun = 200;

QCPTextElement* titleOf(QCustomPlot* plot)
{
    return qobject_cast<QCPTextElement*>(plot->plotLayout()->element(0, 0));
}

} // namespace

void CompareChart::Overview::build(const std::vector<double>& fullX, const std::vector<double>& fullY)
{
    x.clear();
    y.clear();
    std::vector<std::size_t> keep;
    m4Indices(fullX.data(), fullY.data(), 0, fullX.size(), kOverviewBuckets, keep);
    x.reserve(keep.size());
    y.reserve(keep.size());
    for (std::size_t i : keep) {
        x.push_back(fullX[i]);
        y.push_back(fullY[i]);
    }
}

CompareChart::CompareChart(const QString& metric, double scale, QWidget* parent)
    : QCustomPlot(parent)
    , metric_(metric)
    , scale_(scale)
{
    setObjectName(metric);
    // Three rows of these, in a window or in a run's details, fit a 1280×720 screen (at 200 pixels
    // each the details dialog needed 760).
    setMinimumSize(260, 150);
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    yAxis->ticker()->setTickCount(4); // small charts: crowded value labels ran together
    axisRect()->setRangeDrag(Qt::Horizontal | Qt::Vertical);
    axisRect()->setRangeZoom(Qt::Horizontal);
    setNoAntialiasingOnDrag(true);
    plotLayout()->insertRow(0);
    plotLayout()->addElement(0, 0, new QCPTextElement(this, QString(), QFont(font().family(), -1, QFont::Bold)));
    setMouseTracking(true);
    connect(xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, [this](const QCPRange& r) {
        redecimate();
        Q_EMIT xRangeChanged(r);
    });
    connect(this, &QCustomPlot::mouseMove, this, &CompareChart::hover);
    followPalette(this);
}

void CompareChart::setTitle(const QString& title)
{
    if (QCPTextElement* t = titleOf(this))
        t->setText(title);
}

void CompareChart::setValueLabel(const QString& label)
{
    yAxis->setLabel(label);
}

void CompareChart::setData(const CompareData& data, bool keepView)
{
    // Refining an overview with the whole series must not undo the reader's zoom or hidden runs.
    const QCPRange x = xAxis->range(), y = yAxis->range();
    std::map<int, bool> visible;
    for (const Line& line : lines_)
        visible[line.run] = line.visible;
    clearGraphs();
    clearItems();
    lines_.clear();
    markers_.clear();
    for (std::size_t r = 0; r < data.runs.size(); ++r) {
        const CompareRun& run = data.runs[r];
        const auto it = run.metrics.find(metric_);
        if (it == run.metrics.end())
            continue;
        Line line;
        line.run = int(r);
        line.label = Report::runLabel(run.record);
        line.color = runColor(r);
        line.step = it->second.step;
        line.wall = it->second.wall;
        line.raw = it->second.value;
        for (double& v : line.raw)
            v *= scale_;
        line.samplesPerStep = run.samplesPerStep;
        line.stepsPerEpoch = run.stepsPerEpoch;
        line.startWall = run.startWall;
        line.rawGraph = addGraph();
        line.smoothGraph = addGraph();
        line.rawGraph->setName(line.label);
        line.smoothGraph->setName(tr("%1 (smoothed)").arg(line.label));
        if (line.raw.size() < kSmoothableMinPoints) // epoch-level metrics: a few points, shown as points
            line.rawGraph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 4));
        lines_.push_back(std::move(line));
        addMarkers(run, int(r));
    }
    setSmoothing(smoothing_);
    rebuildX(!keepView);
    if (keepView) {
        for (const auto& [run, on] : visible)
            setRunVisible(run, on);
        yAxis->setRange(y);
        xAxis->setRange(x);
        redecimate();
        replot(rpQueuedReplot);
    }
}

/// The run's events as dashed lines across the chart (at most kMaxMarkersPerRun).
void CompareChart::addMarkers(const CompareRun& run, int index)
{
    int shown = 0;
    for (const EventRecord& e : run.events) {
        if (shown++ >= kMaxMarkersPerRun)
            break;
        Marker m;
        m.run = index;
        m.step = double(e.step);
        const QDateTime t = QDateTime::fromString(QString::fromStdString(e.time), Qt::ISODateWithMs);
        m.wall = t.isValid() ? double(t.toMSecsSinceEpoch()) / 1000.0 : 0;
        m.text = QStringLiteral("%1: %2").arg(QString::fromStdString(e.kind), QString::fromStdString(e.message));
        m.item = new QCPItemStraightLine(this);
        QColor c = runColor(std::size_t(index));
        c.setAlpha(e.kind == "checkpoint" ? 50 : 160); // checkpoints are routine; LR cuts, rollbacks, OOM retries are not
        m.item->setPen(QPen(c, 1, Qt::DashLine));
        m.item->setSelectable(false);
        markers_.push_back(m);
    }
}

double CompareChart::toX(const Line& line, double step, double wall) const
{
    switch (mode_) {
    case XAxisMode::Step: return step;
    case XAxisMode::Epoch: return line.stepsPerEpoch > 0 ? step / line.stepsPerEpoch : step;
    case XAxisMode::Samples: return step * line.samplesPerStep;
    case XAxisMode::WallTime: return wall;
    case XAxisMode::RelativeTime: return wall - line.startWall;
    }
    return step;
}

void CompareChart::rebuildX(bool refit)
{
    for (Line& line : lines_) {
        line.x.resize(line.step.size());
        for (std::size_t i = 0; i < line.step.size(); ++i)
            line.x[i] = toX(line, line.step[i], line.wall[i]);
        // Wall time can step back across a resume; the decimation needs x sorted.
        if (!std::is_sorted(line.x.begin(), line.x.end())) {
            std::vector<std::size_t> order(line.x.size());
            for (std::size_t i = 0; i < order.size(); ++i)
                order[i] = i;
            std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return line.x[a] < line.x[b]; });
            auto permute = [&](std::vector<double>& v) {
                std::vector<double> out(v.size());
                for (std::size_t i = 0; i < order.size(); ++i)
                    out[i] = v[order[i]];
                v.swap(out);
            };
            for (auto* v : {&line.x, &line.step, &line.wall, &line.raw, &line.smooth})
                if (v->size() == order.size())
                    permute(*v);
        }
        line.rawOverview.build(line.x, line.raw);
        if (!line.smooth.empty())
            line.smoothOverview.build(line.x, line.smooth);
    }
    placeMarkers();
    if (mode_ == XAxisMode::WallTime) {
        auto ticker = QSharedPointer<QCPAxisTickerDateTime>::create();
        ticker->setDateTimeFormat(QStringLiteral("HH:mm:ss\nyyyy-MM-dd"));
        xAxis->setTicker(ticker);
    } else if (mode_ == XAxisMode::Epoch) {
        // Whole epochs: "2.5" and "7.5" between them read as nonsense.
        auto epochs = QSharedPointer<QCPAxisTickerFixed>::create();
        epochs->setTickStep(1.0);
        epochs->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
        xAxis->setTicker(epochs);
    } else {
        xAxis->setTicker(QSharedPointer<CompactTicker>::create());
    }
    static const char* const labels[] = {QT_TR_NOOP("step"), QT_TR_NOOP("epoch"), QT_TR_NOOP("samples seen"),
                                         QT_TR_NOOP("wall time"), QT_TR_NOOP("seconds since start")};
    xAxis->setLabel(tr(labels[int(mode_)]));
    if (refit)
        fit();
}

void CompareChart::placeMarkers()
{
    for (Marker& m : markers_) {
        const auto line = std::find_if(lines_.begin(), lines_.end(), [&](const Line& l) { return l.run == m.run; });
        if (line == lines_.end()) {
            m.item->setVisible(false);
            continue;
        }
        const double x = toX(*line, m.step, m.wall);
        m.item->point1->setCoords(x, 0);
        m.item->point2->setCoords(x, 1);
        m.item->setVisible(line->visible);
    }
}

void CompareChart::setXMode(XAxisMode mode)
{
    mode_ = mode;
    rebuildX(true);
}

void CompareChart::setSmoothing(double weight)
{
    smoothing_ = std::clamp(weight, 0.0, 0.999);
    for (Line& line : lines_) {
        QColor faint = line.color;
        if (smoothing_ > 0 && !planned() && line.raw.size() >= kSmoothableMinPoints) {
            line.smooth = emaDebiased(line.raw, smoothing_);
            line.smoothOverview.build(line.x, line.smooth);
            faint.setAlpha(60);
            line.smoothGraph->setPen(QPen(line.color, 1.6));
            line.smoothGraph->setVisible(line.visible);
        } else {
            line.smooth.clear();
            line.smoothGraph->data()->clear();
            line.smoothGraph->setVisible(false);
        }
        // Width 1 for long raw series: decimated, they zig-zag inside each pixel column, and
        // Qt's stroker is hundreds of times slower on that with a wider pen (3 s a replot here).
        line.rawGraph->setPen(QPen(faint, line.raw.size() >= 64 ? 1.0 : 1.4));
        if (line.rawGraph->scatterStyle().shape() != QCPScatterStyle::ssNone)
            line.rawGraph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(line.color), QBrush(line.color), 4));
    }
    redecimate();
    replot(rpQueuedReplot);
}

void CompareChart::setLogScale(bool on)
{
    yAxis->setScaleType(on ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    if (on)
        yAxis->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
    else
        yAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
    fit();
}

void CompareChart::setRunVisible(int run, bool visible)
{
    for (Line& line : lines_)
        if (line.run == run) {
            line.visible = visible;
            line.rawGraph->setVisible(visible);
            line.smoothGraph->setVisible(visible && !line.smooth.empty());
        }
    placeMarkers();
    replot(rpQueuedReplot);
}

void CompareChart::fit()
{
    bool any = false;
    QCPRange x, y;
    for (const Line& line : lines_) {
        if (!line.visible || line.x.empty())
            continue;
        const QCPRange lx(line.x.front(), line.x.back());
        // The overview holds every extreme of the series: enough for the y-range.
        double lo = INFINITY, hi = -INFINITY;
        for (double v : line.rawOverview.y)
            if (std::isfinite(v) && (yAxis->scaleType() == QCPAxis::stLinear || v > 0)) {
                lo = std::min(lo, v);
                hi = std::max(hi, v);
            }
        if (!std::isfinite(lo))
            continue;
        x = any ? QCPRange(std::min(x.lower, lx.lower), std::max(x.upper, lx.upper)) : lx;
        y = any ? QCPRange(std::min(y.lower, lo), std::max(y.upper, hi)) : QCPRange(lo, hi);
        any = true;
    }
    if (!any)
        return;
    if (x.size() <= 0)
        x = QCPRange(x.lower - 1, x.upper + 1);
    if (yAxis->scaleType() == QCPAxis::stLinear)
        y = displayRange(y.lower, y.upper); // a near-flat memory line no longer looks like a change
    else if (y.size() <= 1e-12 * std::max(1.0, std::abs(y.center())))
        y = QCPRange(y.lower - std::max(0.1 * std::abs(y.lower), 1e-9), y.upper + std::max(0.1 * std::abs(y.upper), 1e-9));
    yAxis->setRange(y);
    xAxis->setRange(x); // redecimates and moves the linked charts, when the range changes
    redecimate();       // and when it does not (a linked chart set it already)
    replot(rpQueuedReplot);
}

void CompareChart::drawLine(Line& line, const std::vector<double>& y, const Overview& overview, QCPGraph* graph,
                            const QCPRange& range, int pixels)
{
    // From the overview when it has at least two buckets per pixel in the range, else from the
    // whole series: either way a few times `pixels` points to draw.
    const bool coarse = !overview.x.empty() && line.x.size() > std::size_t(4 * kOverviewBuckets);
    const std::vector<double>& xs = coarse ? overview.x : line.x;
    const std::vector<double>& ys = coarse ? overview.y : y;
    auto lo = std::size_t(std::lower_bound(xs.begin(), xs.end(), range.lower) - xs.begin());
    auto hi = std::size_t(std::upper_bound(xs.begin(), xs.end(), range.upper) - xs.begin());
    const double visibleBuckets = kOverviewBuckets * range.size() / std::max(1e-300, line.x.back() - line.x.front());
    if (coarse && visibleBuckets < 2.0 * pixels) {
        drawLine(line, y, Overview{}, graph, range, pixels); // zoomed in: the raw slice is short
        return;
    }
    lo = lo > 0 ? lo - 1 : 0; // one point beyond each edge, so the line reaches the border
    hi = std::min(xs.size(), hi + 1);
    std::vector<std::size_t> keep;
    m4Indices(xs.data(), ys.data(), lo, hi, pixels, keep);
    QVector<QCPGraphData> points;
    points.reserve(int(keep.size()));
    for (std::size_t i : keep)
        points.append(QCPGraphData(xs[i], ys[i]));
    graph->data()->set(points, true);
    // Dense (several points per pixel column, as M4 leaves them) is drawn without antialiasing:
    // it looks the same and paints in half the time. Zoomed in, lines are smooth again.
    graph->setAntialiased(points.size() < 2 * pixels);
}

void CompareChart::redecimate()
{
    if (decimating_)
        return;
    decimating_ = true;
    QElapsedTimer clock;
    clock.start();
    const QCPRange range = xAxis->range();
    const int pixels = std::max(50, axisRect()->width());
    for (Line& line : lines_) {
        if (line.x.empty())
            continue;
        drawLine(line, line.raw, line.rawOverview, line.rawGraph, range, pixels);
        if (!line.smooth.empty())
            drawLine(line, line.smooth, line.smoothOverview, line.smoothGraph, range, pixels);
    }
    decimationMs_ = double(clock.nsecsElapsed()) / 1e6;
    decimating_ = false;
}

bool CompareChart::planned() const
{
    return metric_ == QStringLiteral("lr");
}

bool CompareChart::smoothable() const
{
    if (planned())
        return false;
    for (const auto& line : lines_)
        if (line.raw.size() >= kSmoothableMinPoints)
            return true;
    return false;
}

int CompareChart::drawnPoints() const
{
    int n = 0;
    for (int i = 0; i < graphCount(); ++i)
        n += graph(i)->visible() ? graph(i)->dataCount() : 0;
    return n;
}

QStringList CompareChart::hoverText(double x, double tolerance) const
{
    QStringList out;
    const QLocale locale;
    for (const Line& line : lines_) {
        if (!line.visible || line.x.empty() || x < line.x.front())
            continue;
        const std::size_t i = std::size_t(std::upper_bound(line.x.begin(), line.x.end(), x) - line.x.begin()) - 1;
        const double v = line.smooth.empty() ? line.raw[i] : line.smooth[i];
        out << QStringLiteral("%1: %2").arg(line.label, locale.toString(v, 'g', 5));
    }
    for (const Marker& m : markers_)
        if (m.item->visible() && std::abs(m.item->point1->coords().x() - x) <= tolerance)
            out << m.text;
    return out;
}

void CompareChart::hover(QMouseEvent* event)
{
    if (lines_.empty() || !axisRect()->rect().contains(event->pos()))
        return;
    const double x = xAxis->pixelToCoord(event->pos().x());
    const double tolerance = std::abs(xAxis->pixelToCoord(event->pos().x() + 3) - x);
    const QString xText = mode_ == XAxisMode::WallTime
                              ? QDateTime::fromMSecsSinceEpoch(qint64(x * 1000)).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"))
                              : QLocale().toString(x, 'g', 6);
    QToolTip::showText(event->globalPosition().toPoint(),
                       QStringLiteral("%1 %2\n").arg(xAxis->label(), xText) + hoverText(x, tolerance).join(QLatin1Char('\n')),
                       this);
}

} // namespace entrena::ui
