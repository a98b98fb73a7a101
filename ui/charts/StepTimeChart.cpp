#include "charts/StepTimeChart.h"

#include "charts/AxisRange.h"
#include "charts/ChartMenu.h"
#include "charts/ChartTheme.h"

#include <QEvent>
#include <QLabel>
#include <QLocale>
#include <QResizeEvent>
#include <QVBoxLayout>
#include <algorithm>
#include <array>
#include <qcustomplot.h>

namespace entrena::ui {
namespace {

constexpr int kParts = 6;

std::array<double, kParts> partsOf(const PhaseTimes& p)
{
    return {p.data, p.forward, p.backward, p.optimizer, p.comm, p.logging};
}

QString percent(double share)
{
    return QLocale().toString(share * 100.0, 'f', 0);
}

} // namespace

StepTimeChart::StepTimeChart(QWidget* parent)
    : QWidget(parent)
    , plot_(new QCustomPlot(this))
    , hint_(new QLabel(this))
{
    plot_->setObjectName(QStringLiteral("stepTimePlot"));
    plot_->setMinimumSize(200, 120);
    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    plot_->plotLayout()->insertRow(0);
    plot_->plotLayout()->addElement(0, 0, new QCPTextElement(plot_, QString(), QFont(plot_->font().family(), -1, QFont::Bold)));
    // The legend in a column of its own to the right: inside, it covered the latest steps.
    plot_->legend->setVisible(true);
    plot_->plotLayout()->addElement(1, 1, plot_->legend);
    plot_->plotLayout()->setColumnStretchFactor(1, 0.001);
    plot_->legend->setBorderPen(Qt::NoPen);
    plot_->legend->setBrush(Qt::NoBrush);
    plot_->yAxis->ticker()->setTickCount(4);
    QFont small = plot_->font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    plot_->legend->setFont(small);
    ChartMenu::install(plot_);
    followPalette(plot_);
    placeholder_ = addPlaceholder(plot_);
    showPlaceholder(plot_, placeholder_, true);

    const QColor colors[kParts] = {QColor(214, 39, 40),  QColor(31, 119, 180),  QColor(44, 160, 44),
                                   QColor(255, 127, 14), QColor(148, 103, 189), QColor(127, 127, 127)};
    for (int i = 0; i < kParts; ++i) {
        QCPGraph* g = plot_->addGraph();
        g->setPen(QPen(colors[i].darker(120), 1.0));
        QColor fill = colors[i];
        fill.setAlpha(150);
        g->setBrush(fill);
        if (i > 0)
            g->setChannelFillGraph(layers_.back());
        layers_.push_back(g);
    }

    hint_->setObjectName(QStringLiteral("stepTimeHint"));
    hint_->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_, 1);
    layout->addWidget(hint_);
    retranslate();
}

void StepTimeChart::retranslate()
{
    if (auto* t = qobject_cast<QCPTextElement*>(plot_->plotLayout()->element(0, 0)))
        t->setText(tr("Time per step (ms)"));
    plot_->setAccessibleName(tr("Time per step chart"));
    const QString names[kParts] = {tr("waiting for data"), tr("forward"),       tr("backward"),
                                   tr("optimizer"),        tr("communication"), tr("logging")};
    for (int i = 0; i < kParts; ++i)
        layers_[i]->setName(names[i]);
    plot_->xAxis->setLabel(tr("step"));
    placeholder_->setText(tr("Where each step's time goes,\nonce a run starts"));
    if (hasLast_)
        setHint(hintFor(last_.phases, last_.stepSeconds, last_.mfu));
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void StepTimeChart::setHint(const QString& text)
{
    if (text != hint_->text())
        hint_->setText(text);
    fitHint();
}

// A wrapped label in a nested layout gets one line's height when space is short (at 1280x720 the
// hint's second line was cut): reserve what its text needs at this width; the plot gives way.
void StepTimeChart::fitHint()
{
    const int needed = hint_->text().isEmpty() ? 0 : hint_->heightForWidth(std::max(1, width()));
    if (hint_->minimumHeight() != needed)
        hint_->setMinimumHeight(needed);
}

void StepTimeChart::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    fitHint();
}

void StepTimeChart::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

void StepTimeChart::clear()
{
    for (QCPGraph* g : layers_)
        g->data()->clear();
    hasLast_ = false;
    setHint(QString());
    showPlaceholder(plot_, placeholder_, true);
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void StepTimeChart::addSteps(const QVector<StepEvent>& steps)
{
    for (const StepEvent& s : steps) {
        if (s.stepSeconds <= 0)
            continue;
        double top = 0;
        const auto parts = partsOf(s.phases);
        for (int i = 0; i < kParts; ++i) {
            top += parts[std::size_t(i)] * 1e3;
            layers_[i]->addData(double(s.step), top);
        }
        last_ = s;
        hasLast_ = true;
    }
    if (!hasLast_)
        return;
    setHint(hintFor(last_.phases, last_.stepSeconds, last_.mfu));
    // Fitted as the other live charts are: QCustomPlot's own rescale kept a single step at -50…125.
    for (QCPGraph* g : layers_)
        markFewPoints(g);
    fitAxesToData(plot_);
    plot_->yAxis->setRangeLower(0);
    showPlaceholder(plot_, placeholder_, false);
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

QString StepTimeChart::hintFor(const PhaseTimes& p, double stepSeconds, double mfu)
{
    if (stepSeconds <= 0)
        return {};
    const auto share = [&](double part) { return part / stepSeconds; };
    QString hint;
    if (share(p.data) >= 0.3)
        hint = tr("Waiting for data %1% of each step: raise data.workers, or lower the augmentation's cost.")
                   .arg(percent(share(p.data)));
    else if (share(p.comm) >= 0.3)
        hint = tr("Communication %1% of each step: raise the batch per device, so that each all-reduce carries more work.")
                   .arg(percent(share(p.comm)));
    else if (share(p.logging) >= 0.05)
        hint = tr("Reporting %1% of each step: raise train.log_every.").arg(percent(share(p.logging)));
    else if (share(p.optimizer) >= 0.3)
        hint = tr("The optimizer's update %1% of each step: a larger batch spreads its cost over more samples.")
                   .arg(percent(share(p.optimizer)));
    else if (share(p.forward + p.backward) >= 0.7)
        hint = tr("Compute-bound: forward and backward %1% of each step.").arg(percent(share(p.forward + p.backward)));
    if (mfu >= 0) {
        // A fraction of the measured ceiling: never above 100%, also for runs stored before the
        // engine capped it.
        const QString utilisation = tr("Model-FLOP utilisation %1%.").arg(QLocale().toString(std::min(mfu, 1.0) * 100.0, 'f', 1));
        hint = hint.isEmpty() ? utilisation : hint + QLatin1Char(' ') + utilisation;
    }
    return hint;
}

QString StepTimeChart::hint() const
{
    return hint_->text();
}

int StepTimeChart::points() const
{
    return layers_.front()->dataCount();
}

double StepTimeChart::lastStackMs() const
{
    const auto data = layers_.back()->data();
    return data->isEmpty() ? 0.0 : (data->constEnd() - 1)->value;
}

} // namespace entrena::ui
