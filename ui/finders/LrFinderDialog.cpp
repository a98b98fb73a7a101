#include "finders/LrFinderDialog.h"

#include "JobRunner.h"
#include "charts/ChartMenu.h"
#include "charts/ChartTheme.h"
#include "widgets/ScreenFit.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QVBoxLayout>
#include <qcustomplot.h>

namespace entrena::ui {
namespace {

/// One step of the sweep, as the job reports it.
struct SweepStep {
    int step = 0;
    double lr = 0;
    double loss = 0;
};

} // namespace

LrFinderDialog::LrFinderDialog(const RunConfig& config, QWidget* parent)
    : QDialog(parent)
    , config_(config)
    , plot_(new QCustomPlot)
    , status_(new QLabel)
    , useLr_(new QPushButton)
    , useMaxLr_(new QPushButton)
{
    setWindowTitle(tr("Find a learning rate"));
    sizeToScreen(this, QSize(760, 520));
    plot_->setObjectName(QStringLiteral("lrFinderPlot"));
    plot_->xAxis->setScaleType(QCPAxis::stLogarithmic);
    plot_->xAxis->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
    // Every tick a power of ten written alike ("10⁻⁶ … 10⁻⁴"), not "1E-06" beside "0.0001".
    plot_->xAxis->setNumberFormat(QStringLiteral("eb"));
    plot_->xAxis->setNumberPrecision(0);
    plot_->xAxis->setLabel(tr("learning rate (log scale)"));
    plot_->yAxis->setLabel(tr("training loss"));
    raw_ = plot_->addGraph();
    raw_->setPen(QPen(QColor(31, 119, 180, 150), 1)); // faint beside the smoothed curve, but seen on dark too
    raw_->setName(tr("loss"));
    smooth_ = plot_->addGraph();
    smooth_->setPen(QPen(QColor(31, 119, 180), 2));
    smooth_->setName(tr("smoothed, spikes removed"));
    marker_ = new QCPItemStraightLine(plot_);
    marker_->setPen(QPen(QColor(214, 39, 40), 1.5, Qt::DashLine));
    marker_->setVisible(false);
    plot_->legend->setVisible(true);
    ChartMenu::install(plot_);
    followPalette(plot_);
    // Dragging on the chart moves the marker.
    connect(plot_, &QCustomPlot::mousePress, this, [this](QMouseEvent* e) {
        if (finished_ && e->button() == Qt::LeftButton) {
            dragging_ = true;
            choose(plot_->xAxis->pixelToCoord(e->pos().x()));
        }
    });
    connect(plot_, &QCustomPlot::mouseMove, this, [this](QMouseEvent* e) {
        if (dragging_)
            choose(plot_->xAxis->pixelToCoord(e->pos().x()));
    });
    connect(plot_, &QCustomPlot::mouseRelease, this, [this] { dragging_ = false; });

    status_->setWordWrap(true);
    useLr_->setObjectName(QStringLiteral("useLrButton"));
    useMaxLr_->setObjectName(QStringLiteral("useMaxLrButton"));
    useLr_->setText(tr("Use as learning rate"));
    useMaxLr_->setText(tr("Use as one-cycle max_lr"));
    useLr_->setEnabled(false);
    useMaxLr_->setEnabled(false);
    connect(useLr_, &QPushButton::clicked, this, [this] {
        Q_EMIT applyLearningRate(chosen_);
        accept();
    });
    connect(useMaxLr_, &QPushButton::clicked, this, [this] {
        Q_EMIT applyMaxLr(chosen_);
        accept();
    });
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    buttons->addButton(useLr_, QDialogButtonBox::ActionRole);
    buttons->addButton(useMaxLr_, QDialogButtonBox::ActionRole);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(plot_, 1);
    layout->addWidget(status_);
    layout->addWidget(buttons);
}

LrFinderDialog::~LrFinderDialog()
{
    job_.cancel(); // a sweep still running stops at its next step; it owns what it uses
}

void LrFinderDialog::reject()
{
    job_.cancel();
    QDialog::reject();
}

void LrFinderDialog::start(const LrFinderOptions& options)
{
    status_->setText(
        tr("Sweeping the learning rate from %1 to %2 over %3 steps…").arg(options.startLr).arg(options.endLr).arg(options.steps));
    job_ = app::JobRunner::shared()->run(windowTitle(), [config = config_, options](app::JobContext& context) {
        return findLearningRate(config, options, context.stopToken(), [&context](int step, double lr, double loss) {
            context.progress(SweepStep{step, lr, loss});
        });
    });
    job_.onProgress<SweepStep>(this, [this](const SweepStep& s) { onStep(s.step, s.lr, s.loss); })
        .onFinished(this, [this](const LrFinderResult& result) { onDone(result, QString()); })
        .onFailed(this, [this](const QString& message) { onDone({}, message); });
}

void LrFinderDialog::onStep(int, double lr, double loss)
{
    if (finished_)
        return;
    raw_->addData(lr, loss);
    plot_->rescaleAxes();
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void LrFinderDialog::onDone(const LrFinderResult& result, const QString& error)
{
    finished_ = true;
    result_ = result;
    if (!error.isEmpty() || result.lrs.size() < 5) {
        const QString message =
            error.isEmpty() ? tr("The loss was not finite from the first steps on: start the sweep at a lower rate.") : error;
        status_->setText(message);
        Q_EMIT finished(false, message);
        return;
    }
    raw_->setData(QVector<double>(result.lrs.begin(), result.lrs.end()),
                  QVector<double>(result.losses.begin(), result.losses.end()));
    smooth_->setData(QVector<double>(result.lrs.begin(), result.lrs.end()),
                     QVector<double>(result.smoothed.begin(), result.smoothed.end()));
    plot_->rescaleAxes();
    // The exploded tail would flatten the rest: show the curve up to a little above its start
    // (what rises past that is the explosion, drawn off the top on purpose), and all of its
    // descent, the raw losses' lowest included (the bottom used to cut the raw curve off).
    const double top = std::max(result.smoothed.front(), result.losses.front()) * 1.25;
    double bottom = *std::min_element(result.smoothed.begin(), result.smoothed.end());
    for (double loss : result.losses)
        if (std::isfinite(loss))
            bottom = std::min(bottom, loss);
    plot_->yAxis->setRange(bottom - 0.05 * (top - bottom), top);
    for (QCPGraph* g : {raw_, smooth_})
        g->setProperty("clippedAbove", true); // for the screenshot tour's axis check
    marker_->setVisible(true);
    choose(result.suggestion.suggestedLr);
    useLr_->setEnabled(true);
    useMaxLr_->setEnabled(true);
    Q_EMIT finished(true, status_->text());
}

void LrFinderDialog::choose(double lr)
{
    if (result_.lrs.empty())
        return;
    chosen_ = std::clamp(lr, result_.lrs.front(), result_.lrs.back());
    marker_->point1->setCoords(chosen_, 0);
    marker_->point2->setCoords(chosen_, 1);
    updateLabel();
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void LrFinderDialog::updateLabel()
{
    const QLocale locale;
    const LrSuggestion& s = result_.suggestion;
    status_->setText(tr("Suggested: %1 (valley rule: the middle of the loss's descent from %2 to %3; steepest descent at %4). "
                        "Chosen: %5 — drag on the chart to change it.")
                         .arg(locale.toString(s.suggestedLr, 'g', 3),
                              locale.toString(result_.lrs[std::size_t(s.valleyBegin)], 'g', 3),
                              locale.toString(result_.lrs[std::size_t(s.valleyEnd)], 'g', 3),
                              locale.toString(s.steepestLr, 'g', 3), locale.toString(chosen_, 'g', 3)));
}

} // namespace entrena::ui
