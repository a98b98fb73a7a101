#include "experiment/BestSoFarChart.h"

#include "charts/ChartTheme.h"
#include "entrena/experiment/MetricRegistry.h"
#include "form/KeyField.h"

#include <algorithm>

namespace entrena::ui {

BestSoFarChart::BestSoFarChart(QWidget* parent)
    : QCustomPlot(parent)
    , best_(addGraph())
    , values_(addGraph())
    , empty_(new QCPItemText(this))
{
    setObjectName(QStringLiteral("bestSoFarChart"));
    setMinimumSize(280, 200);
    best_->setLineStyle(QCPGraph::lsStepLeft);
    best_->setPen(QPen(QColor(230, 120, 0), 2.5));
    values_->setLineStyle(QCPGraph::lsNone);
    values_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QColor(65, 105, 225), 5));
    empty_->setPositionAlignment(Qt::AlignCenter);
    empty_->position->setType(QCPItemPosition::ptAxisRectRatio);
    empty_->position->setCoords(0.5, 0.5);
    empty_->setProperty("placeholder", true);
    legendAbove(this); // where it hides no point
    followPalette(this);
    retranslate();
}

void BestSoFarChart::setData(const ExperimentData& data)
{
    data_ = data;
    struct Point {
        double wall, value;
    };
    std::vector<Point> points;
    for (const TrialRow& t : data.trials)
        for (const MetricPoint& p : t.points)
            points.push_back({p.wallTime - data.startWall, data.higherIsBetter() ? 100.0 * p.value : p.value});
    std::sort(points.begin(), points.end(), [](const Point& a, const Point& b) { return a.wall < b.wall; });
    const double span = points.empty() ? 0.0 : points.back().wall;
    // Seconds for a sweep of a few minutes, minutes up to a few hours, then hours.
    const double unit = span < 300 ? 1.0 : span < 3 * 3600 ? 60.0 : 3600.0;
    setProperty("unit", unit);
    QVector<double> x, best, vx, vy;
    const bool higher = data.higherIsBetter();
    for (const Point& p : points) {
        const double w = std::max(0.0, p.wall) / unit;
        vx << w;
        vy << p.value;
        if (best.isEmpty() || (higher ? p.value > best.back() : p.value < best.back())) {
            x << w;
            best << p.value;
        }
    }
    if (!x.isEmpty() && !vx.isEmpty()) { // the best holds until the latest point
        x << vx.back();
        best << best.back();
    }
    best_->setData(x, best, true);
    values_->setData(vx, vy, true);
    empty_->setVisible(points.empty());
    legend->setVisible(!points.empty());
    if (!points.empty()) {
        bool found = false;
        QCPRange y = values_->getValueRange(found);
        const double pad = std::max(y.size() * 0.08, higher ? 0.5 : 0.005);
        yAxis->setRange(y.lower - pad, y.upper + pad);
        xAxis->setRange(0, std::max(vx.back() * 1.04, 1.0 / unit));
    }
    retranslate();
    replot();
}

void BestSoFarChart::retranslate()
{
    const double unit = property("unit").toDouble();
    xAxis->setLabel(unit >= 3600 ? tr("Wall time since the first trial (h)")
                    : unit >= 60 ? tr("Wall time since the first trial (min)")
                                 : tr("Wall time since the first trial (s)"));
    const MetricEntry& compared = metricOrDefault(data_.experiment.metric);
    yAxis->setLabel(compared.percent ? tr("%1 (%)").arg(registryText(compared.label)) : registryText(compared.label));
    best_->setName(tr("Best so far"));
    values_->setName(tr("A trial's epoch"));
    empty_->setText(tr("No trial has reached the end of an epoch yet."));
    setAccessibleName(tr("Best so far against wall time"));
}

void BestSoFarChart::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) {
        retranslate();
        replot();
    }
    QCustomPlot::changeEvent(event);
}

} // namespace entrena::ui
