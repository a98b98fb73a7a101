#include "charts/LiveCharts.h"

#include "charts/AxisRange.h"
#include "charts/ChartMenu.h"
#include "charts/ChartTheme.h"
#include "charts/CompactTicker.h"
#include "charts/StepTimeChart.h"

#include <QEvent>
#include <QGridLayout>
#include <qcustomplot.h>

namespace entrena::ui {
namespace {

constexpr int kReplotIntervalMs = 33; // ≤ 30 Hz

QCustomPlot* makePlot(QWidget* parent)
{
    auto* plot = new QCustomPlot(parent);
    // Five charts and five runs fit a 1280×720 screen, beside a form in the longer Spanish words.
    plot->setMinimumSize(190, 120);
    plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    plot->setNoAntialiasingOnDrag(true);
    plot->plotLayout()->insertRow(0);
    plot->plotLayout()->addElement(0, 0, new QCPTextElement(plot, QString(), QFont(plot->font().family(), -1, QFont::Bold)));
    plot->legend->setVisible(false);
    plot->legend->setBrush(QColor(255, 255, 255, 190)); // the data stays visible behind it
    QFont small = plot->font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    plot->legend->setFont(small);
    // Few ticks: these charts are small, and crowded labels overlap. Steps in thousands: "250k".
    plot->xAxis->setTicker(QSharedPointer<CompactTicker>::create());
    for (QCPAxis* axis : {plot->xAxis, plot->yAxis, plot->yAxis2})
        axis->ticker()->setTickCount(4);
    ChartMenu::install(plot);
    followPalette(plot);
    return plot;
}

/// The legend in a row of its own under the title, its entries side by side: inside the axis
/// rectangle it covered the lines of these small charts.
void legendUnderTitle(QCustomPlot* plot)
{
    plot->legend->setVisible(true);
    plot->plotLayout()->insertRow(1);
    plot->plotLayout()->addElement(1, 0, plot->legend);
    plot->legend->setFillOrder(QCPLegend::foColumnsFirst);
    plot->legend->setBorderPen(Qt::NoPen);
    plot->legend->setBrush(Qt::NoBrush);
    plot->legend->setMargins(QMargins(4, 0, 4, 0));
    plot->plotLayout()->setRowStretchFactor(1, 0.001);
}

void setTitle(QCustomPlot* plot, const QString& title)
{
    if (auto* t = qobject_cast<QCPTextElement*>(plot->plotLayout()->element(0, 0)))
        t->setText(title);
}

QCPGraph* addGraph(QCustomPlot* plot, const QColor& color, QCPAxis* valueAxis = nullptr, bool points = false)
{
    QCPGraph* g = valueAxis ? plot->addGraph(plot->xAxis, valueAxis) : plot->addGraph();
    g->setPen(QPen(color, 1.6));
    if (points)
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 5));
    return g;
}

} // namespace

LiveCharts::LiveCharts(QWidget* parent)
    : QWidget(parent)
{
    lossPlot_ = makePlot(this);
    valPlot_ = makePlot(this);
    lrPlot_ = makePlot(this);
    memoryPlot_ = makePlot(this);
    stepTimes_ = new StepTimeChart(this);
    lossPlot_->setObjectName(QStringLiteral("lossPlot"));
    valPlot_->setObjectName(QStringLiteral("validationPlot"));
    lrPlot_->setObjectName(QStringLiteral("learningRatePlot"));
    memoryPlot_->setObjectName(QStringLiteral("memoryPlot"));

    trainLoss_ = addGraph(lossPlot_, QColor(31, 119, 180));
    epochTrainLoss_ = addGraph(lossPlot_, QColor(255, 127, 14), nullptr, true);
    legendUnderTitle(lossPlot_);

    valPlot_->yAxis2->setVisible(true);
    // Epochs are whole: no "1.5" between epoch 1 and 2.
    auto epochs = QSharedPointer<QCPAxisTickerFixed>::create();
    epochs->setTickStep(1.0);
    epochs->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    valPlot_->xAxis->setTicker(epochs);
    valLoss_ = addGraph(valPlot_, QColor(214, 39, 40), nullptr, true);
    valAccuracy_ = addGraph(valPlot_, QColor(44, 160, 44), valPlot_->yAxis2, true);
    legendUnderTitle(valPlot_);
    for (QCustomPlot* p : {lossPlot_, valPlot_, lrPlot_, memoryPlot_})
        placeholders_.push_back(addPlaceholder(p));

    lr_ = addGraph(lrPlot_, QColor(148, 103, 189));
    memory_ = addGraph(memoryPlot_, QColor(140, 86, 75));
    // On a GPU: the caching allocator's allocated, reserved and peak bytes, and the card's total
    // as a dashed ceiling.
    deviceAllocated_ = addGraph(memoryPlot_, QColor(31, 119, 180));
    deviceReserved_ = addGraph(memoryPlot_, QColor(255, 127, 14));
    devicePeak_ = addGraph(memoryPlot_, QColor(214, 39, 40));
    deviceTotal_ = addGraph(memoryPlot_, QColor(120, 120, 120));
    deviceTotal_->setPen(QPen(QColor(120, 120, 120), 1.2, Qt::DashLine));
    // NVML's reading, where the driver's library is present: every process's use of the card.
    deviceUsed_ = addGraph(memoryPlot_, QColor(23, 190, 207));
    deviceUsed_->setPen(QPen(QColor(23, 190, 207), 1.2, Qt::DotLine));
    for (QCPGraph* g : {deviceAllocated_, deviceReserved_, devicePeak_, deviceTotal_, deviceUsed_})
        g->removeFromLegend();

    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0);
    // Two rows of charts, not three: on a 1280x720 screen three rows left each chart a strip
    // too low to read.
    grid->addWidget(lossPlot_, 0, 0);
    grid->addWidget(valPlot_, 0, 1);
    grid->addWidget(lrPlot_, 0, 2);
    grid->addWidget(memoryPlot_, 1, 0);
    grid->addWidget(stepTimes_, 1, 1, 1, 2);
    for (int column = 0; column < 3; ++column)
        grid->setColumnStretch(column, 1);
    grid->setRowStretch(0, 1);
    grid->setRowStretch(1, 1);

    replotTimer_.setSingleShot(true);
    replotTimer_.setInterval(kReplotIntervalMs);
    connect(&replotTimer_, &QTimer::timeout, this, [this] { replot(); });
    retranslate();
}

void LiveCharts::retranslate()
{
    setTitle(lossPlot_, tr("Training loss"));
    setTitle(valPlot_, tr("Validation"));
    setTitle(lrPlot_, tr("Learning rate"));
    setTitle(memoryPlot_, tr("Memory (MiB)"));
    // A screen reader announces a chart by what it plots.
    lossPlot_->setAccessibleName(tr("Training loss chart"));
    valPlot_->setAccessibleName(tr("Validation chart"));
    lrPlot_->setAccessibleName(tr("Learning rate chart"));
    memoryPlot_->setAccessibleName(tr("Memory chart"));
    memory_->setName(tr("process resident"));
    deviceAllocated_->setName(tr("device allocated"));
    deviceReserved_->setName(tr("device reserved"));
    devicePeak_->setName(tr("device peak"));
    deviceTotal_->setName(tr("device total"));
    deviceUsed_->setName(tr("device used, all processes (NVML)"));
    trainLoss_->setName(tr("per step"));
    epochTrainLoss_->setName(tr("epoch mean"));
    valLoss_->setName(tr("loss"));
    valAccuracy_->setName(tr("accuracy (right axis)"));
    placeholders_[0]->setText(tr("The loss of each logged step,\nonce a run starts"));
    placeholders_[1]->setText(tr("Validation loss and accuracy\nafter each epoch"));
    placeholders_[2]->setText(tr("The learning rate\neach step applied"));
    placeholders_[3]->setText(tr("This process's memory\nas the run goes"));
    lossPlot_->xAxis->setLabel(tr("step"));
    lrPlot_->xAxis->setLabel(tr("step"));
    memoryPlot_->xAxis->setLabel(tr("step"));
    valPlot_->xAxis->setLabel(tr("epoch"));
    scheduleReplot();
}

void LiveCharts::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

void LiveCharts::markEvent(const NoticeEvent& e)
{
    for (QCustomPlot* p : {lossPlot_, lrPlot_}) {
        auto* line = new QCPItemStraightLine(p);
        const QColor color = e.kind == "oom_retry" ? QColor(255, 127, 14) : QColor(214, 39, 40);
        line->setPen(QPen(color, 1.2, Qt::DashLine));
        line->point1->setCoords(double(e.step), 0);
        line->point2->setCoords(double(e.step), 1);
        line->setSelectable(false);
        line->setObjectName(QString::fromStdString(e.kind));
    }
    ++marks_;
    scheduleReplot();
}

void LiveCharts::clear()
{
    for (QCustomPlot* p : {lossPlot_, lrPlot_}) // the event marks, not the placeholders
        for (int i = p->itemCount() - 1; i >= 0; --i)
            if (qobject_cast<QCPItemStraightLine*>(p->item(i)))
                p->removeItem(i);
    marks_ = 0;
    for (QCPGraph* g : {trainLoss_, epochTrainLoss_, valLoss_, valAccuracy_, lr_, memory_, deviceAllocated_, deviceReserved_,
                        devicePeak_, deviceTotal_, deviceUsed_})
        g->data()->clear();
    for (QCPGraph* g : rankMemory_)
        memoryPlot_->removeGraph(g);
    rankMemory_.clear();
    stepTimes_->clear();
    scheduleReplot();
}

void LiveCharts::addSteps(const QVector<StepEvent>& steps)
{
    for (const StepEvent& s : steps) {
        trainLoss_->addData(double(s.step), s.loss);
        lr_->addData(double(s.step), s.lr);
        constexpr double kMiB = 1024.0 * 1024.0;
        memory_->addData(double(s.step), double(s.memoryBytes) / kMiB);
        if (s.rankMemoryBytes.size() > 1) {
            // Every rank's memory (rank 0's is this process's), each its own dashed line.
            static const QColor colours[] = {QColor(140, 86, 75),   QColor(148, 103, 189), QColor(44, 160, 44),
                                             QColor(227, 119, 194), QColor(188, 189, 34),  QColor(23, 190, 207)};
            while (rankMemory_.size() < int(s.rankMemoryBytes.size())) {
                const int r = int(rankMemory_.size());
                QCPGraph* g = memoryPlot_->addGraph();
                g->setPen(QPen(colours[r % 6], 1.5, Qt::DashLine));
                g->setName(tr("rank %1").arg(r));
                g->addToLegend();
                rankMemory_.push_back(g);
                memoryPlot_->legend->setVisible(true);
            }
            for (size_t r = 0; r < s.rankMemoryBytes.size(); ++r)
                rankMemory_[int(r)]->addData(double(s.step), double(s.rankMemoryBytes[r]) / kMiB);
        }
        if (s.deviceAllocated >= 0) {
            if (!memoryPlot_->legend->visible()) {
                memoryPlot_->legend->setVisible(true);
                for (QCPGraph* g : {deviceAllocated_, deviceReserved_, devicePeak_, deviceTotal_})
                    g->addToLegend();
            }
            deviceAllocated_->addData(double(s.step), double(s.deviceAllocated) / kMiB);
            deviceReserved_->addData(double(s.step), double(s.deviceReserved) / kMiB);
            devicePeak_->addData(double(s.step), double(s.devicePeak) / kMiB);
            if (s.deviceTotal > 0)
                deviceTotal_->addData(double(s.step), double(s.deviceTotal) / kMiB);
        }
        if (s.deviceUsed >= 0) {
            if (deviceUsed_->data()->isEmpty())
                deviceUsed_->addToLegend();
            deviceUsed_->addData(double(s.step), double(s.deviceUsed) / kMiB);
        }
    }
    stepTimes_->addSteps(steps);
    scheduleReplot();
}

void LiveCharts::addEpoch(const EpochEvent& e, int64_t step)
{
    epochTrainLoss_->addData(double(step), e.trainLoss);
    valLoss_->addData(double(e.epoch), e.valLoss);
    valAccuracy_->addData(double(e.epoch), e.valAccuracy);
    scheduleReplot();
}

int LiveCharts::trainLossPoints() const
{
    return trainLoss_->dataCount();
}
int LiveCharts::validationPoints() const
{
    return valAccuracy_->dataCount();
}
int LiveCharts::learningRatePoints() const
{
    return lr_->dataCount();
}

void LiveCharts::scheduleReplot()
{
    if (!replotTimer_.isActive())
        replotTimer_.start();
}

void LiveCharts::replot(bool immediate)
{
    ++replots_;
    QCustomPlot* const plots[] = {lossPlot_, valPlot_, lrPlot_, memoryPlot_};
    const bool empty[] = {trainLoss_->data()->isEmpty(), valLoss_->data()->isEmpty(), lr_->data()->isEmpty(),
                          memory_->data()->isEmpty()};
    for (QCPGraph* g : {trainLoss_, lr_, memory_, deviceAllocated_, deviceReserved_, devicePeak_, deviceTotal_, deviceUsed_})
        markFewPoints(g);
    for (QCPGraph* g : rankMemory_)
        markFewPoints(g);
    for (int i = 0; i < 4; ++i) {
        QCustomPlot* p = plots[i];
        fitAxesToData(p);
        showPlaceholder(p, placeholders_[i], empty[i]);
    }
    // Loss on the lower half of the validation chart, accuracy on the upper: their two axes are
    // independent, and the lines crossed each other.
    if (!empty[1]) {
        const QCPRange loss = valPlot_->yAxis->range(), accuracy = valPlot_->yAxis2->range();
        // With room for the points' marks: the lowest loss and the highest accuracy sat on the edges.
        valPlot_->yAxis->setRange(loss.lower - 0.1 * loss.size(), loss.upper + loss.size());
        valPlot_->yAxis2->setRange(accuracy.lower - accuracy.size(), accuracy.upper + 0.1 * accuracy.size());
    }
    for (QCustomPlot* p : plots)
        p->replot(immediate ? QCustomPlot::rpImmediateRefresh : QCustomPlot::rpQueuedReplot);
}

} // namespace entrena::ui
