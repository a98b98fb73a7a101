#include "experiment/FoldChart.h"

#include "charts/ChartTheme.h"

#include <QEvent>
#include <algorithm>

namespace entrena::ui {

FoldChart::FoldChart(QWidget* parent)
    : QCustomPlot(parent)
    , accuracy_(new QCPBars(xAxis, yAxis))
    , recall_(new QCPBars(xAxis, yAxis))
    , mean_(addGraph())
    , bandLow_(addGraph())
    , bandHigh_(addGraph())
{
    setObjectName(QStringLiteral("foldChart"));
    setMinimumSize(280, 200);
    accuracy_->setPen(Qt::NoPen);
    accuracy_->setBrush(QColor(65, 105, 225));
    recall_->setPen(Qt::NoPen);
    recall_->setBrush(QColor(230, 120, 0));
    auto* group = new QCPBarsGroup(this);
    accuracy_->setBarsGroup(group);
    recall_->setBarsGroup(group);
    accuracy_->setWidth(0.35);
    recall_->setWidth(0.35);
    mean_->setPen(QPen(QColor(65, 105, 225), 1.5, Qt::DashLine));
    // ± one standard deviation: a band between two lines.
    bandLow_->setPen(Qt::NoPen);
    bandHigh_->setPen(Qt::NoPen);
    bandHigh_->setBrush(QColor(65, 105, 225, 40));
    bandHigh_->setChannelFillGraph(bandLow_);
    bandLow_->removeFromLegend();
    auto ticks = QSharedPointer<QCPAxisTickerFixed>::create(); // folds are counted in whole numbers
    ticks->setTickStep(1.0);
    ticks->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    xAxis->setTicker(ticks);
    legendAbove(this); // where it hides no bar
    followPalette(this);
    retranslate();
}

void FoldChart::setSummary(const CrossValidationSummary& summary)
{
    summary_ = summary;
    const auto bars = [](QCPBars* b, const FoldFigure* f) {
        QVector<double> x, y;
        for (size_t i = 0; f && i < f->values.size(); ++i) {
            x << double(i + 1);
            y << 100.0 * f->values[i];
        }
        b->setData(x, y, true);
        b->setVisible(!y.isEmpty());
        return int(y.size());
    };
    const FoldFigure* accuracy = summary.find("best_val_accuracy");
    const int folds = std::max(bars(accuracy_, accuracy), bars(recall_, summary.find("macro_recall")));
    QVector<double> x{0.5, folds + 0.5}, mean, low, high;
    if (accuracy && !accuracy->values.empty()) {
        mean = {100 * accuracy->mean, 100 * accuracy->mean};
        low = {100 * (accuracy->mean - accuracy->sd), 100 * (accuracy->mean - accuracy->sd)};
        high = {100 * (accuracy->mean + accuracy->sd), 100 * (accuracy->mean + accuracy->sd)};
    }
    mean_->setData(mean.isEmpty() ? QVector<double>() : x, mean, true);
    bandLow_->setData(low.isEmpty() ? QVector<double>() : x, low, true);
    bandHigh_->setData(high.isEmpty() ? QVector<double>() : x, high, true);
    xAxis->setRange(0.5, std::max(1, folds) + 0.5);
    yAxis->setRange(0, 105);
    replot(QCustomPlot::rpQueuedReplot);
}

void FoldChart::retranslate()
{
    xAxis->setLabel(tr("fold"));
    yAxis->setLabel(tr("%"));
    accuracy_->setName(tr("validation accuracy"));
    recall_->setName(tr("recall, the classes' mean"));
    mean_->setName(tr("mean accuracy"));
    bandHigh_->setName(tr("± one standard deviation"));
    setAccessibleName(tr("Folds chart"));
    setToolTip(tr("Each fold's validation accuracy and recall, with the accuracy's mean and spread over the folds"));
}

void FoldChart::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) {
        retranslate();
        replot(QCustomPlot::rpQueuedReplot);
    }
    QCustomPlot::changeEvent(event);
}

} // namespace entrena::ui
