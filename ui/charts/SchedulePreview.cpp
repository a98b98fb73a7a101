#include "charts/SchedulePreview.h"

#include "charts/ChartTheme.h"
#include "charts/CompactTicker.h"
#include "entrena/config/Registry.h"
#include "entrena/optim/LrScheduler.h"

#include <QEvent>
#include <QVBoxLayout>
#include <qcustomplot.h>

namespace entrena::ui {
namespace {

// Optimizer steps an epoch of the chosen data takes: its training samples as read (`known`), else as
// its registry entry expects them, less the validation split unless the files hold their own.
int64_t stepsPerEpoch(const RunConfig& c, int64_t known, bool ownValidation)
{
    int64_t samples = known > 0 ? known : registryEntry(c.data.dataset).typicalSamples;
    if (c.data.trainLimit > 0)
        samples = std::min(samples, c.data.trainLimit);
    if (!ownValidation)
        samples = int64_t(double(samples) * (1.0 - c.data.valFraction));
    const int64_t micro = (samples + c.data.batchSize - 1) / std::max<int64_t>(1, c.data.batchSize);
    return std::max<int64_t>(1, (micro + c.train.accumulate - 1) / c.train.accumulate);
}

} // namespace

SchedulePreview::SchedulePreview(QWidget* parent)
    : QWidget(parent)
    , plot_(new QCustomPlot(this))
{
    plot_->setObjectName(QStringLiteral("schedulePreview"));
    plot_->setMinimumHeight(90);
    plot_->setMaximumHeight(120);
    plot_->addGraph()->setPen(QPen(QColor(148, 103, 189), 1.5));
    // The steps across, in the small font and as the live charts write them ("2k"): without them a new
    // user could not tell a warm-up of 100 steps from one of 10,000.
    const QFont small(font().family(), std::max(6, font().pointSize() - 2));
    plot_->xAxis->setTicker(QSharedPointer<CompactTicker>::create());
    plot_->xAxis->ticker()->setTickCount(4);
    plot_->xAxis->setTickLabelFont(small);
    plot_->yAxis->setTickLabelFont(small);
    plot_->axisRect()->setAutoMargins(QCP::msLeft | QCP::msBottom);
    plot_->axisRect()->setMargins(QMargins(0, 4, 4, 0));
    followPalette(plot_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_);
    retranslate();
}

void SchedulePreview::retranslate()
{
    plot_->setAccessibleName(tr("Learning rate schedule preview"));
    plot_->setToolTip(tr("The learning rate (up) that each step of the planned run (across) will apply"));
}

void SchedulePreview::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

void SchedulePreview::show(const RunConfig& c, int64_t samples, bool ownValidation)
{
    QVector<double> x, y;
    try {
        const auto curve =
            LrScheduler::plannedCurve(c.scheduler, c.optimizer.lr, c.train.epochs, stepsPerEpoch(c, samples, ownValidation));
        // At most ~2,000 points: a preview needs the shape, not every step.
        const size_t stride = std::max<size_t>(1, curve.size() / 2000);
        for (size_t i = 0; i < curve.size(); i += stride) {
            x.push_back(double(i + 1));
            y.push_back(curve[i]);
        }
    } catch (const std::exception&) {
        // An impossible schedule (e.g. total_steps shorter than the run) draws nothing; starting says why.
    }
    plot_->graph(0)->setData(x, y, true);
    plot_->xAxis->setRange(1, std::max(2.0, x.isEmpty() ? 2.0 : x.back()));
    // From zero, so that a flat schedule reads as flat and a decay as a decay.
    const double top = y.isEmpty() ? 1.0 : *std::max_element(y.begin(), y.end());
    plot_->yAxis->setRange(0, top > 0 ? top * 1.1 : 1.0);
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

int SchedulePreview::points() const
{
    return plot_->graph(0)->dataCount();
}

double SchedulePreview::lastStep() const
{
    return plot_->graph(0)->dataCount() ? (plot_->graph(0)->data()->constEnd() - 1)->key : 0;
}

} // namespace entrena::ui
