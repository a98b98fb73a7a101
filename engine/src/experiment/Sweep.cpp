// The sweep's driver: plans and checks a sweep, records it as an experiment, and runs its trials as
// `entrena-cli train` processes, `parallel` at a time, feeding their events to the method. The
// trials are forked by a trial server that has LibTorch loaded already (TrialServer.h).
#include "entrena/experiment/Sweep.h"

#include "entrena/config/Registry.h"
#include "entrena/experiment/CrossValidation.h"
#include "entrena/experiment/SweepMethodRegistry.h"
#include "entrena/store/RunStore.h"
#include "experiment/SweepDriver.h"
#include "experiment/TrialName.h"
#include "experiment/TrialProcess.h"

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <poll.h>
#include <sstream>
#include <unistd.h>
#include <variant>

namespace entrena {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::optional<double> bestOf(const std::vector<double>& values, bool higher)
{
    if (values.empty())
        return std::nullopt;
    return higher ? *std::max_element(values.begin(), values.end()) : *std::min_element(values.begin(), values.end());
}

/// One trial process and the trial it trains.
struct Running {
    SweepTrial* trial;
    std::unique_ptr<TrialProcess> process;
    int fold = -1;      ///< sweep --cv: which of the trial's folds it trains
    bool ended = false; ///< its `end` event came
};

class Driver {
public:
    Driver(SweepContext& ctx, SweepMethod& method, const SweepLaunch& launch, const StopToken& stop)
        : ctx_(ctx)
        , method_(method)
        , launch_(launch)
        , stop_(stop)
    {
        const auto& s = ctx.plan.settings;
        threadsPerTrial_ = std::max(1, launch.cores / std::max(1, s.parallel));
        folder_ = fs::path(launch.dbPath).parent_path() / "experiments" / ("experiment-" + std::to_string(ctx.experiment));
        fs::create_directories(folder_);
        if (launch.server) {
            // Started ahead from a copy of this file (startTrialServer): kept here beside the trials'
            // own, as the record of what the server read.
            std::ofstream(folder_ / "base.json") << ctx.plan.base.toJson(2) << "\n";
            server_ = launch.server;
        } else if (!std::getenv("ENTRENA_TRIAL_EXEC")) {
            try {
                const fs::path base = folder_ / "base.json";
                std::ofstream(base) << ctx.plan.base.toJson(2) << "\n";
                server_ = std::make_shared<TrialServer>(launch.program, launch.dbPath, base.string());
            } catch (const std::exception&) {
                // Without it each trial is exec'd: slower to start, the same runs.
            }
        }
    }

    /// Runs until the method has nothing left, or a stop request stopped every trial.
    bool run()
    {
        bool stopping = false;
        for (;;) {
            if (!stopping && stop_.stopRequested()) {
                stopping = true;
                for (auto& r : running_)
                    r.process->signal(SIGTERM); // each stops after its step, with a checkpoint
            }
            while (!stopping && int(running_.size()) < ctx_.plan.settings.parallel) {
                if (startQueuedFold())
                    continue;
                auto work = pending();
                if (!work)
                    work = method_.next(ctx_);
                if (!work)
                    break;
                launch(*work);
            }
            if (running_.empty())
                break;
            pump(200);
        }
        if (!stopping) {
            method_.finish(ctx_);
            dropPrunedFiles();
        }
        return stopping;
    }

private:
    /// A pruned trial is done: its checkpoints only take room (kept with --keep-pruned, to resume it).
    void dropPrunedFiles()
    {
        if (ctx_.plan.settings.keepPruned)
            return;
        for (auto& t : ctx_.trials)
            if (t->status == RunStatus::Pruned)
                for (const int64_t run : t->runIds())
                    ctx_.store.freeCheckpoints(run);
    }

    /// Trials to take up again before the method's own work: queued ones, and those stopped or
    /// killed inside a stage.
    std::optional<SweepWork> pending()
    {
        for (auto& t : ctx_.trials) {
            if (t->phase == SweepTrial::Phase::Queued)
                return SweepWork{t.get(), true, t->target > 0 ? t->target : ctx_.plan.maxEpochs()};
            if (t->phase == SweepTrial::Phase::Resumable)
                return SweepWork{t.get(), false, t->target};
        }
        return std::nullopt;
    }

    /// What the driver sets besides the trial's values: its stage's epochs, its share of the cores.
    std::vector<std::string> stage(int target) const
    {
        std::vector<std::string> o;
        o.push_back("train.epochs=" + std::to_string(target));
        if (ctx_.plan.base.devices.type == DeviceType::Cpu)
            o.push_back("devices.threads=" + std::to_string(threadsPerTrial_));
        return o;
    }

    void launch(const SweepWork& w)
    {
        SweepTrial& t = *w.trial;
        t.target = w.target;
        if (w.fresh)
            t.metrics.clear();
        if (t.folds.empty()) {
            start(t, -1, w.fresh, t.runId);
            return;
        }
        // A cross-validated trial is a stage of each of its folds, each a process when a slot is free;
        // a fold that reached this stage already (before a stop) is not trained again.
        t.phase = SweepTrial::Phase::Running;
        bool any = false;
        for (SweepFold& f : t.folds) {
            f.fresh = w.fresh || f.runId == 0;
            if (w.fresh)
                f.metrics.clear();
            const bool reached = !f.fresh && f.status == RunStatus::Finished && int(f.metrics.size()) >= w.target;
            f.queued = !reached;
            any = any || f.queued;
        }
        if (!any)
            stageEnded(t);
    }

    /// Starts the first fold waiting for a slot; false when none waits.
    bool startQueuedFold()
    {
        for (auto& t : ctx_.trials)
            for (size_t k = 0; k < t->folds.size(); ++k)
                if (SweepFold& f = t->folds[k]; f.queued) {
                    f.queued = false;
                    f.running = true;
                    if (f.fresh)
                        f.runId = 0;
                    start(*t, int(k), f.fresh, f.runId);
                    return true;
                }
        return false;
    }

    /// A process for trial `t` (its fold `fold`, or the trial itself for -1): a new run, or run `runId`
    /// going on to the trial's target.
    void start(SweepTrial& t, int fold, bool fresh, int64_t runId)
    {
        std::vector<std::string> args;
        if (fresh) {
            auto overrides = stage(t.target);
            if (fold >= 0)
                overrides.push_back("data.fold=" + std::to_string(fold));
            RunConfig c = configForTrial(ctx_.plan.base, t.params, overrides);
            c.name = trialName(ctx_.plan.settings.name, t.index, t.params, fold);
            const fs::path file = folder_ / ("trial-" + std::to_string(t.index) +
                                             (fold >= 0 ? "-fold-" + std::to_string(fold) : std::string()) + ".json");
            std::ofstream(file) << c.toJson(2) << "\n";
            args = {"train", "--config", file.string()};
        } else {
            // The same run goes on: more epochs, perhaps new values (pbt), from its latest checkpoint.
            const auto run = ctx_.store.findRun(std::to_string(runId));
            std::vector<std::string> o = overridesOf(t.params);
            const auto more = stage(t.target);
            o.insert(o.end(), more.begin(), more.end());
            const RunConfig c = RunConfig::fromJson(run->configJson, o);
            ctx_.store.setRunConfig(runId, c.toJson());
            ctx_.store.setRunStatus(runId, RunStatus::Stopped);
            args = {"train", "--resume", std::to_string(runId)};
        }
        args.insert(args.end(), {"--db", launch_.dbPath, "--json"});
        const std::string trial = std::to_string(ctx_.experiment) + ":" + std::to_string(t.index);
        const TrialEnv env{{"ENTRENA_TRIAL", trial}};
        std::unique_ptr<TrialProcess> process;
        if (server_ && server_->alive()) {
            try {
                process = std::make_unique<TrialProcess>(*server_, args, env);
            } catch (const std::exception&) {
                // It could not fork this one, or it has gone: exec this trial. The server stays
                // (running trials refer to it); once gone, alive() sends every later trial to exec.
            }
        }
        if (!process)
            process = std::make_unique<TrialProcess>(launch_.program, args, env);
        running_.push_back({&t, std::move(process), fold});
        t.phase = SweepTrial::Phase::Running;
    }

    void pump(int timeoutMs)
    {
        std::vector<pollfd> fds;
        for (const auto& r : running_) {
            fds.push_back({r.process->stdoutFd(), POLLIN, 0});
            fds.push_back({r.process->stderrFd(), POLLIN, 0});
        }
        if (server_ && server_->alive())
            fds.push_back({server_->fd(), POLLIN, 0}); // a trial's exit status
        ::poll(fds.data(), fds.size(), timeoutMs);
        for (auto it = running_.begin(); it != running_.end();) {
            read(*it);
            if (it->process->poll()) {
                read(*it); // what it wrote before it ended
                ended(*it);
                it = running_.erase(it);
            } else {
                ++it;
            }
        }
    }

    void read(Running& r)
    {
        SweepTrial& t = *r.trial;
        SweepFold* fold = r.fold >= 0 ? &t.folds[size_t(r.fold)] : nullptr;
        for (const json& e : r.process->readEvents()) {
            const std::string kind = e.value("event", "");
            if (kind == "start") {
                (fold ? fold->runId : t.runId) = e.value("run_id", int64_t(0));
                if (!t.announced && r.fold <= 0) { // a cross-validated trial is announced with fold 0's run
                    t.announced = true;
                    ctx_.observer.onTrialStart(t.index, fold ? fold->runId : t.runId, t.params);
                }
            } else if (kind == "epoch") {
                const int epoch = e.value("epoch", 0);
                const json& v = e[ctx_.plan.settings.metric];
                auto& metrics = fold ? fold->metrics : t.metrics;
                if (epoch >= 1 && v.is_number()) {
                    metrics.resize(size_t(epoch), v.get<double>());
                    metrics[size_t(epoch - 1)] = v.get<double>();
                }
            } else if (kind == "end") {
                (fold ? fold->status : t.status) = runStatusFromString(e.value("status", "failed"));
                r.ended = true;
            }
        }
        const std::string before = r.process->lastError();
        r.process->readErrors();
        if (r.process->lastError() != before)
            ctx_.observer.onTrialError(t.index, r.process->lastError());
    }

    void ended(Running& r)
    {
        SweepTrial& t = *r.trial;
        SweepFold* fold = r.fold >= 0 ? &t.folds[size_t(r.fold)] : nullptr;
        const int64_t runId = fold ? fold->runId : t.runId;
        if (!r.ended) {
            // It died without an `end`: a crash, a kill, or a bad start. Its run (if it made one)
            // must not stay `running`.
            (fold ? fold->status : t.status) = RunStatus::Failed;
            const int code = r.process->exitCode();
            const std::string why =
                code > 128 ? "was killed by signal " + std::to_string(code - 128) : "exited with status " + std::to_string(code);
            const std::string last = r.process->lastError();
            const std::string error =
                "the trial's process " + why + " before the run ended" + (last.empty() ? std::string() : ": " + last);
            if (runId > 0)
                ctx_.store.failRun(runId, error);
            else
                ctx_.store.failRunOwnedBy(r.process->pid(), error); // died before it said which run
        }
        if (fold) {
            fold->running = false;
            // The trial's stage ends with its last fold's.
            for (const SweepFold& f : t.folds)
                if (f.running || f.queued)
                    return;
        }
        stageEnded(t);
    }

    void stageEnded(SweepTrial& t)
    {
        t.sumUpFolds();
        method_.stageEnded(ctx_, t);
        if (t.phase == SweepTrial::Phase::Done)
            ctx_.observer.onTrialEnd(t.index, t.runId, t.status, ctx_.best(t), t.epochs());
    }

    SweepContext& ctx_;
    SweepMethod& method_;
    const SweepLaunch& launch_;
    const StopToken& stop_;
    int threadsPerTrial_ = 1;
    fs::path folder_;
    std::shared_ptr<TrialServer> server_; // declared before the trials: they go first
    std::vector<Running> running_;
};

SweepResult summarise(SweepContext& ctx, bool stopped)
{
    SweepResult r;
    r.experiment = ctx.experiment;
    r.trials = int(ctx.trials.size());
    double bestScore = -1e300;
    for (const auto& t : ctx.trials) {
        r.pruned += t->status == RunStatus::Pruned;
        r.failed += t->status == RunStatus::Failed || t->status == RunStatus::Diverged;
        if (const auto m = ctx.best(*t); m && ctx.score(*m) > bestScore) {
            bestScore = ctx.score(*m);
            r.bestRun = t->runId;
            r.bestParams = t->params;
            r.bestMetric = m;
        }
    }
    r.status = stopped ? "stopped" : r.trials > 0 && r.failed == r.trials ? "failed" : "finished";
    ctx.store.setExperimentStatus(ctx.experiment, r.status);
    return r;
}

SweepResult drive(SweepContext& ctx, const StopToken& stop, const SweepLaunch& launch)
{
    const auto method = makeSweepMethod(ctx.plan);
    Driver driver(ctx, *method, launch, stop);
    ctx.store.setExperimentStatus(ctx.experiment, "running");
    const bool stopped = driver.run();
    return summarise(ctx, stopped);
}

/// A run of the experiment as the driver tracks it: where it stands, and its metric per epoch.
struct StoredRun {
    int64_t runId = 0; ///< 0: killed before its first checkpoint, deleted; it starts again
    std::vector<double> metrics;
    RunStatus status = RunStatus::Running;
    int target = 0;
    bool resumable = false;
};

StoredRun storedRun(SweepContext& ctx, const RunRecord& run, const RunConfig& config)
{
    StoredRun s;
    s.runId = run.id;
    s.status = run.status;
    s.target = config.train.epochs;
    for (const MetricPoint& p : ctx.store.metrics(run.id, ctx.plan.settings.metric)) {
        s.metrics.resize(size_t(std::max<int>(p.epoch, int(s.metrics.size()))), p.value);
        if (p.epoch >= 1)
            s.metrics[size_t(p.epoch - 1)] = p.value;
    }
    s.resumable =
        run.status == RunStatus::Stopped || run.status == RunStatus::Interrupted || run.status == RunStatus::Running;
    if (s.resumable && ctx.store.checkpoints(run.id).empty()) {
        ctx.store.deleteRun(run.id);
        s = StoredRun{};
        s.target = config.train.epochs;
    }
    return s;
}

/// The trials an experiment has in the store, as the driver tracks them: where each one stands.
void rebuildTrials(SweepContext& ctx)
{
    std::map<int, std::unique_ptr<SweepTrial>> byIndex;
    for (const RunRecord& run : ctx.store.trialsOf(ctx.experiment)) {
        const RunConfig config = RunConfig::fromJson(run.configJson);
        auto& t = byIndex[int(run.trial)];
        if (!t) {
            t = std::make_unique<SweepTrial>();
            t->index = int(run.trial);
            t->params = ctx.plan.space.paramsOf(run.configJson);
            t->folds.resize(size_t(std::max(0, ctx.plan.settings.cv)));
        }
        const StoredRun s = storedRun(ctx, run, config);
        t->target = std::max(t->target, s.target);
        if (!t->folds.empty()) {
            const int k = config.data.fold;
            if (k < 0 || k >= int(t->folds.size()))
                continue;
            SweepFold& f = t->folds[size_t(k)];
            f.runId = s.runId;
            f.metrics = s.metrics;
            f.status = s.status;
            f.queued = s.resumable; // stands for "not at rest": the trial is taken up again
            continue;
        }
        t->runId = s.runId;
        t->metrics = s.metrics;
        t->status = s.status;
        t->phase = s.runId == 0 ? SweepTrial::Phase::Queued
                   : s.resumable ? SweepTrial::Phase::Resumable
                                 : SweepTrial::Phase::Done;
    }
    for (auto& [index, t] : byIndex) {
        t->announced = true;
        if (!t->folds.empty()) {
            // Folds killed before a checkpoint, stopped ones, and ones never started: the trial goes on.
            bool unsettled = false, started = false;
            for (SweepFold& f : t->folds) {
                unsettled = unsettled || f.queued || f.runId == 0;
                started = started || f.runId != 0;
                f.queued = false;
            }
            t->sumUpFolds();
            t->announced = started;
            t->phase = !started ? SweepTrial::Phase::Queued
                       : unsettled ? SweepTrial::Phase::Resumable
                                   : SweepTrial::Phase::Done;
        } else if (t->phase == SweepTrial::Phase::Queued) {
            t->metrics.clear();
            t->announced = false;
        }
        ctx.trials.push_back(std::move(t));
    }
    // A stage that finished is the method's to judge (asha: a rung; pbt: a generation).
    const auto method = makeSweepMethod(ctx.plan);
    for (auto& t : ctx.trials)
        if (t->phase == SweepTrial::Phase::Done && t->status == RunStatus::Finished)
            method->stageEnded(ctx, *t);
}

} // namespace

std::optional<double> SweepContext::best(const SweepTrial& t) const
{
    return bestOf(t.metrics, higherIsBetter());
}

std::vector<int64_t> SweepTrial::runIds() const
{
    std::vector<int64_t> ids;
    if (folds.empty() && runId > 0)
        ids.push_back(runId);
    for (const SweepFold& f : folds)
        if (f.runId > 0)
            ids.push_back(f.runId);
    return ids;
}

void SweepTrial::sumUpFolds()
{
    if (folds.empty())
        return;
    runId = 0;
    std::vector<std::vector<double>> series;
    for (const SweepFold& f : folds) {
        series.push_back(f.metrics);
        if (!runId)
            runId = f.runId;
    }
    metrics = foldMeans(series);
    // The worst of the folds: one failure fails the trial; one stopped fold leaves it to resume.
    auto rank = [](RunStatus s) {
        switch (s) {
        case RunStatus::Failed: return 5;
        case RunStatus::Diverged: return 4;
        case RunStatus::Pruned: return 3;
        case RunStatus::Stopped:
        case RunStatus::Interrupted:
        case RunStatus::Running: return 2;
        default: return 0;
        }
    };
    status = RunStatus::Finished;
    for (const SweepFold& f : folds)
        if (rank(f.status) > rank(status))
            status = f.status == RunStatus::Running ? RunStatus::Stopped : f.status;
}

SweepTrial& SweepContext::addTrial(TrialParams params)
{
    auto t = std::make_unique<SweepTrial>();
    // Its number in the whole sweep: a job array's task K of N runs trials K, K + N, … (as the methods
    // draw them), so the tasks' stores import into one experiment without two trials sharing a number.
    t->index = int(trials.size()) * std::max(1, plan.settings.shards) + plan.settings.shard;
    t->params = std::move(params);
    t->folds.resize(size_t(std::max(0, plan.settings.cv)));
    trials.push_back(std::move(t));
    return *trials.back();
}

int SweepContext::running() const
{
    return int(std::count_if(trials.begin(), trials.end(), [](const auto& t) { return t->phase == SweepTrial::Phase::Running; }));
}

std::shared_ptr<TrialServer> startTrialServer(const SweepLaunch& launch, const RunConfig& base)
{
    if (std::getenv("ENTRENA_TRIAL_EXEC"))
        return nullptr;
    try {
        // Its configuration goes to a file of its own outside the store's folder: a sweep refused after
        // this leaves nothing behind there.
        std::string path = (fs::temp_directory_path() / "entrena-sweep-base-XXXXXX").string();
        const int fd = ::mkstemp(path.data());
        if (fd < 0)
            return nullptr;
        const std::string text = base.toJson(2) + "\n";
        const bool written = ::write(fd, text.data(), text.size()) == ssize_t(text.size());
        ::close(fd);
        if (!written) {
            ::unlink(path.c_str());
            return nullptr;
        }
        auto server = std::make_shared<TrialServer>(launch.program, launch.dbPath, path);
        server->removeWhenDone(path);
        return server;
    } catch (const std::exception&) {
        return nullptr; // the sweep starts its own, or execs its trials
    }
}

SweepResult runSweep(RunStore& store, const SweepPlan& plan, SweepObserver& observer, const StopToken& stop,
                     const SweepLaunch& launch)
{
    ExperimentRecord e;
    e.name = plan.settings.name;
    e.method = plan.settings.method;
    e.spaceJson = plan.space.toJson();
    e.metric = plan.settings.metric;
    e.baseConfigJson = plan.base.toJson();
    e.settingsJson = plan.settings.toJson();
    if (plan.settings.shards > 1)
        e.uuid = jobArrayUuid(e, plan.settings.shards);
    SweepContext ctx(store, plan, observer, store.createExperiment(e));
    observer.onSweepStart(ctx.experiment, plan.settings.method, plan.settings.trials);
    return drive(ctx, stop, launch);
}

SweepResult resumeSweep(RunStore& store, const std::string& experiment, SweepObserver& observer, const StopToken& stop,
                        const SweepLaunch& launch)
{
    const auto e = store.findExperiment(experiment);
    if (!e)
        throw std::runtime_error("no experiment '" + experiment + "' in " + store.path() +
                                 "; `entrena-cli experiments` lists them");
    const RunConfig base = RunConfig::fromJson(e->baseConfigJson);
    const SweepPlan plan{base, SearchSpace::fromJson(e->spaceJson, base), SweepSettings::fromJson(e->settingsJson)};
    SweepContext ctx(store, plan, observer, e->id);
    rebuildTrials(ctx);
    observer.onSweepStart(ctx.experiment, plan.settings.method, plan.settings.trials);
    return drive(ctx, stop, launch);
}

} // namespace entrena
