#include "report/ReportCharts.h"

#include "charts/AxisRange.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <qcustomplot.h>

namespace entrena::ui {

QColor runColor(std::size_t index)
{
    static const QColor palette[] = {{31, 119, 180}, {255, 127, 14},  {44, 160, 44},   {214, 39, 40},  {148, 103, 189},
                                     {140, 86, 75},  {227, 119, 194}, {127, 127, 127}, {188, 189, 34}, {23, 190, 207}};
    return palette[index % std::size(palette)];
}

QCustomPlot* buildReportChart(const Report& report, const ChartSpec& spec, int width, int height)
{
    auto* plot = new QCustomPlot;
    plot->resize(width, height);
    plot->setObjectName(spec.metric);
    plot->plotLayout()->insertRow(0);
    plot->plotLayout()->addElement(0, 0, new QCPTextElement(plot, spec.title, QFont(plot->font().family(), -1, QFont::Bold)));
    plot->xAxis->setLabel(spec.byEpoch ? Report::tr("epoch") : Report::tr("step"));
    plot->yAxis->setLabel(spec.valueLabel);
    plot->legend->setVisible(report.runs.size() > 1);
    plot->legend->setBrush(QColor(255, 255, 255, 200));
    QFont small = plot->font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    plot->legend->setFont(small);
    for (std::size_t i = 0; i < report.runs.size(); ++i) {
        const ReportRun& run = report.runs[i];
        QCPGraph* g = plot->addGraph();
        g->setName(Report::runLabel(run.record));
        g->setPen(QPen(runColor(i), 1.4));
        if (spec.byEpoch)
            g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 5));
        const auto it = run.series.find(spec.metric);
        if (it == run.series.end())
            continue;
        QVector<double> x, y;
        x.reserve(int(it->second.size()));
        y.reserve(int(it->second.size()));
        for (const MetricPoint& p : it->second) {
            x << (spec.byEpoch ? double(p.epoch) : double(p.step));
            y << p.value * spec.scale;
        }
        g->setData(x, y, true);
    }
    fitAxesToData(plot); // a constant gets a readable range too
    if (spec.metric == QStringLiteral("lr")) {
        // A rate from zero, as the form's preview draws it: a constant reads as flat, not as a line
        // on an axis from 0.00196 to 0.00204, and a decay as a decay.
        const QCPRange r = plot->yAxis->range();
        plot->yAxis->setRange(0, std::max(r.upper, 1e-12) * 1.1);
    }
    if (spec.byEpoch) {
        // Whole epochs: ticks at 1.5 and 2.5 read as nonsense.
        auto epochs = QSharedPointer<QCPAxisTickerFixed>::create();
        epochs->setTickStep(1.0);
        epochs->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
        plot->xAxis->setTicker(epochs);
    }
    return plot;
}

} // namespace entrena::ui
