#include "experiment/SweepRunner.h"

#include "JobRunner.h"
#include "entrena/store/RunStore.h"
#include "experiment/ExperimentData.h"

namespace entrena::ui {

namespace {

/// On the job's thread: each call becomes a progress value, in order.
class Relay : public SweepObserver {
public:
    explicit Relay(app::JobContext& context)
        : context_(context)
    {
    }
    void onSweepStart(int64_t experiment, const std::string& method, int trials) override
    {
        SweepNews n;
        n.kind = SweepNews::Kind::SweepStart;
        n.experiment = experiment;
        n.text = QString::fromStdString(method);
        n.trials = trials;
        context_.progress(n);
    }
    void onTrialStart(int trial, int64_t runId, const TrialParams& params) override
    {
        SweepNews n;
        n.kind = SweepNews::Kind::TrialStart;
        n.trial = trial;
        n.runId = runId;
        n.text = paramsText(params);
        context_.progress(n);
    }
    void onTrialEnd(int trial, int64_t runId, RunStatus status, std::optional<double> metric, int epochs) override
    {
        SweepNews n;
        n.kind = SweepNews::Kind::TrialEnd;
        n.trial = trial;
        n.runId = runId;
        n.status = status;
        n.hasMetric = metric.has_value();
        n.metric = metric.value_or(0.0);
        n.epochs = epochs;
        context_.progress(n);
    }
    void onExploit(int trial, int64_t runId, int64_t sourceRun, int64_t step, const TrialParams& params) override
    {
        SweepNews n;
        n.kind = SweepNews::Kind::Exploit;
        n.trial = trial;
        n.runId = runId;
        n.sourceRun = sourceRun;
        n.step = step;
        n.text = paramsText(params);
        context_.progress(n);
    }
    void onTrialError(int trial, const std::string& line) override
    {
        SweepNews n;
        n.kind = SweepNews::Kind::TrialError;
        n.trial = trial;
        n.text = QString::fromStdString(line);
        context_.progress(n);
    }

private:
    app::JobContext& context_;
};

} // namespace

SweepRunner::SweepRunner(QObject* parent)
    : QObject(parent)
{
}

SweepRunner::~SweepRunner()
{
    stop();
}

bool SweepRunner::start(const SweepPlan& plan, const SweepLaunch& launch)
{
    if (isRunning())
        return false;
    experiment_ = 0;
    job_ = app::JobRunner::shared()->run(tr("Sweep"), [plan, launch](app::JobContext& context) {
        RunStore store(launch.dbPath);
        Relay relay(context);
        return runSweep(store, plan, relay, context.stopToken(), launch);
    });
    follow();
    return true;
}

bool SweepRunner::resume(qint64 experiment, const SweepLaunch& launch)
{
    if (isRunning())
        return false;
    experiment_ = experiment;
    job_ = app::JobRunner::shared()->run(tr("Sweep"), [experiment, launch](app::JobContext& context) {
        RunStore store(launch.dbPath);
        Relay relay(context);
        return resumeSweep(store, std::to_string(experiment), relay, context.stopToken(), launch);
    });
    follow();
    return true;
}

void SweepRunner::follow()
{
    job_.onProgress<SweepNews>(this,
                               [this](const SweepNews& n) {
                                   if (n.kind == SweepNews::Kind::SweepStart)
                                       experiment_ = n.experiment;
                                   Q_EMIT news(n);
                               })
        .onFinished(this, [this](const SweepResult& r) { Q_EMIT finished(r); })
        .onFailed(this, [this](const QString& message) { Q_EMIT failed(message); })
        .onCancelled(this, [this] { Q_EMIT stopped(experiment_); });
}

void SweepRunner::stop()
{
    job_.cancel();
}

} // namespace entrena::ui
