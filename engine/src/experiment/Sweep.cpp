// The sweep's driver: plans and checks a sweep, records it as an experiment, and runs its trials as
// `entrena-cli train` processes, `parallel` at a time, feeding their events to the method. The
// trials are forked by a trial server that has LibTorch loaded already (TrialServer.h).
#include "entrena/experiment/Sweep.h"

#include "entrena/config/Registry.h"
#include "entrena/experiment/SweepMethodRegistry.h"
#include "entrena/store/RunStore.h"
#include "experiment/SweepDriver.h"
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
#include <variant>

namespace entrena {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

/// A trial's run name: the experiment's name, the trial's number and what it tries ("fmnist-mlp-asha
/// trial 3: lr=0.0123, batch_size=64"): in the runs list every trial was "fmnist-mlp".
std::string trialName(const std::string& experiment, int index, const TrialParams& params)
{
    std::string name = experiment + " trial " + std::to_string(index);
    for (size_t i = 0; i < params.size(); ++i) {
        const auto& [key, value] = params[i];
        std::string shortKey = key.substr(key.rfind('.') + 1);
        if (shortKey == "name" && key.find('.') != std::string::npos) // optimizer.name=adam reads optimizer=adam
            shortKey = key.substr(0, key.find('.'));
        std::string shown = value;
        char* end = nullptr;
        const double number = std::strtod(value.c_str(), &end);
        if (end && *end == '\0' && !value.empty() && value.find_first_not_of("0123456789") != std::string::npos) {
            char buf[32];
            std::snprintf(buf, sizeof buf, "%.3g", number); // 0.012345678 reads 0.0123
            shown = buf;
        }
        if (shown.size() >= 2 && shown.front() == '"' && shown.back() == '"')
            shown = shown.substr(1, shown.size() - 2);
        name += (i ? ", " : ": ") + shortKey + "=" + shown;
    }
    return name;
}

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
        if (!std::getenv("ENTRENA_TRIAL_EXEC")) {
            try {
                const fs::path base = folder_ / "base.json";
                std::ofstream(base) << ctx.plan.base.toJson(2) << "\n";
                server_ = std::make_unique<TrialServer>(launch.program, launch.dbPath, base.string());
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
            if (t->status == RunStatus::Pruned && t->runId > 0)
                ctx_.store.freeCheckpoints(t->runId);
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
        std::vector<std::string> args;
        if (w.fresh) {
            RunConfig c = configForTrial(ctx_.plan.base, t.params, stage(w.target));
            c.name = trialName(ctx_.plan.settings.name, t.index, t.params);
            const fs::path file = folder_ / ("trial-" + std::to_string(t.index) + ".json");
            std::ofstream(file) << c.toJson(2) << "\n";
            args = {"train", "--config", file.string()};
            t.metrics.clear();
        } else {
            // The same run goes on: more epochs, perhaps new values (pbt), from its latest checkpoint.
            const auto run = ctx_.store.findRun(std::to_string(t.runId));
            std::vector<std::string> o = overridesOf(t.params);
            const auto more = stage(w.target);
            o.insert(o.end(), more.begin(), more.end());
            const RunConfig c = RunConfig::fromJson(run->configJson, o);
            ctx_.store.setRunConfig(t.runId, c.toJson());
            ctx_.store.setRunStatus(t.runId, RunStatus::Stopped);
            args = {"train", "--resume", std::to_string(t.runId)};
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
        running_.push_back({&t, std::move(process)});
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
        for (const json& e : r.process->readEvents()) {
            const std::string kind = e.value("event", "");
            if (kind == "start") {
                t.runId = e.value("run_id", int64_t(0));
                if (!t.announced) {
                    t.announced = true;
                    ctx_.observer.onTrialStart(t.index, t.runId, t.params);
                }
            } else if (kind == "epoch") {
                const int epoch = e.value("epoch", 0);
                const json& v = e[ctx_.plan.settings.metric];
                if (epoch >= 1 && v.is_number()) {
                    t.metrics.resize(size_t(epoch), v.get<double>());
                    t.metrics[size_t(epoch - 1)] = v.get<double>();
                }
            } else if (kind == "end") {
                t.status = runStatusFromString(e.value("status", "failed"));
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
        if (!r.ended) {
            // It died without an `end`: a crash, a kill, or a bad start. Its run (if it made one)
            // must not stay `running`.
            t.status = RunStatus::Failed;
            const int code = r.process->exitCode();
            const std::string why =
                code > 128 ? "was killed by signal " + std::to_string(code - 128) : "exited with status " + std::to_string(code);
            const std::string last = r.process->lastError();
            const std::string error =
                "the trial's process " + why + " before the run ended" + (last.empty() ? std::string() : ": " + last);
            if (t.runId > 0)
                ctx_.store.failRun(t.runId, error);
            else
                ctx_.store.failRunOwnedBy(r.process->pid(), error); // died before it said which run
        }
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
    std::unique_ptr<TrialServer> server_; // declared before the trials: they go first
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

/// The trials an experiment has in the store, as the driver tracks them: where each one stands.
void rebuildTrials(SweepContext& ctx)
{
    const std::string metricKey = ctx.plan.settings.metric;
    for (const RunRecord& run : ctx.store.trialsOf(ctx.experiment)) {
        auto t = std::make_unique<SweepTrial>();
        t->index = int(run.trial);
        t->runId = run.id;
        t->params = ctx.plan.space.paramsOf(run.configJson);
        t->status = run.status;
        t->announced = true;
        t->target = RunConfig::fromJson(run.configJson).train.epochs;
        for (const MetricPoint& p : ctx.store.metrics(run.id, metricKey)) {
            t->metrics.resize(size_t(std::max<int>(p.epoch, int(t->metrics.size()))), p.value);
            if (p.epoch >= 1)
                t->metrics[size_t(p.epoch - 1)] = p.value;
        }
        const bool resumable =
            run.status == RunStatus::Stopped || run.status == RunStatus::Interrupted || run.status == RunStatus::Running;
        if (resumable && ctx.store.checkpoints(run.id).empty()) {
            // Killed before its first checkpoint: nothing to continue from; it starts again.
            ctx.store.deleteRun(run.id);
            t->runId = 0;
            t->metrics.clear();
            t->announced = false;
            t->phase = SweepTrial::Phase::Queued;
        } else if (resumable) {
            t->phase = SweepTrial::Phase::Resumable;
        } else {
            t->phase = SweepTrial::Phase::Done;
        }
        ctx.trials.push_back(std::move(t));
    }
    std::sort(ctx.trials.begin(), ctx.trials.end(), [](const auto& a, const auto& b) { return a->index < b->index; });
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

SweepTrial& SweepContext::addTrial(TrialParams params)
{
    auto t = std::make_unique<SweepTrial>();
    t->index = int(trials.size());
    t->params = std::move(params);
    trials.push_back(std::move(t));
    return *trials.back();
}

int SweepContext::running() const
{
    return int(std::count_if(trials.begin(), trials.end(), [](const auto& t) { return t->phase == SweepTrial::Phase::Running; }));
}

std::string SweepSettings::toJson() const
{
    json j{{"method", method}, {"trials", trials}, {"parallel", parallel}, {"metric", metric},         {"name", name},
           {"seed", seed},     {"shard", shard},   {"shards", shards},     {"keep_pruned", keepPruned}};
    // Every method's own settings, from its registry entry (min_epochs, reduction, interval, quantile, …).
    for (const SweepMethodEntry& e : sweepMethodRegistry())
        for (const auto& k : e.keys)
            j[k.key] = std::visit([](const auto& v) { return json(v); }, k.get(*this));
    return j.dump();
}

SweepSettings SweepSettings::fromJson(const std::string& text)
{
    const json j = json::parse(text);
    SweepSettings s;
    s.method = j.value("method", s.method);
    s.trials = j.value("trials", s.trials);
    s.parallel = j.value("parallel", s.parallel);
    s.metric = j.value("metric", s.metric);
    s.name = j.value("name", s.name);
    s.seed = j.value("seed", s.seed);
    for (const SweepMethodEntry& e : sweepMethodRegistry())
        for (const auto& k : e.keys)
            if (j.contains(k.key) && j[k.key].is_number())
                k.set(s,
                      k.kind == ValueKind::Integer ? OptionValue(j[k.key].get<int64_t>()) : OptionValue(j[k.key].get<double>()));
    s.shard = j.value("shard", s.shard);
    s.shards = j.value("shards", s.shards);
    s.keepPruned = j.value("keep_pruned", s.keepPruned);
    return s;
}

SweepPlan planSweep(const RunConfig& base, const std::string& spaceJson, SweepSettings s, int cores)
{
    const SweepMethodEntry* method = findSweepMethod(s.method);
    if (!method)
        throw SpaceError("--method must be " + sweepMethodNames() + "; got '" + s.method + "'");
    if (s.metric != "val_accuracy" && s.metric != "val_loss")
        throw SpaceError("--metric must be val_accuracy or val_loss; got '" + s.metric + "'");
    if (base.data.valFraction <= 0 && base.data.folds < 2 && !registryEntry(base.data.dataset).ownValidation)
        throw SpaceError("a sweep compares trials on the validation split: data.val_fraction must be above 0");
    SweepPlan plan{base, SearchSpace::fromJson(spaceJson, base), s};
    SweepSettings& p = plan.settings;
    if (method->everyCombination) {
        if (!plan.space.onlyChoices())
            throw SpaceError(std::string(method->title) +
                             " tries every combination: its space takes only choice distributions (give the values to "
                             "try as {\"choice\": […]}), or use --method random or tpe");
        p.trials = int(plan.space.grid().size());
    }
    if (p.trials <= 0)
        p.trials = method->defaultTrials;
    for (const auto& k : method->keys) { // its own settings, within their ranges
        const OptionValue v = k.get(p);
        const double x = k.kind == ValueKind::Integer ? double(std::get<int64_t>(v)) : std::get<double>(v);
        if (x < k.lo || x > k.hi) {
            std::ostringstream range;
            range << k.lo << " to " << k.hi;
            throw SpaceError(p.method + " needs " + settingFlag(k.key) + " from " + range.str() + ", got " +
                             formatOptionValue(v));
        }
    }
    if (p.shards > 1) {
        if (!method->shardable)
            throw SpaceError("--shard splits a sweep among independent tasks (grid, random); " + p.method +
                             " needs every trial's results in one place");
        if (p.shard < 0 || p.shard >= p.shards)
            throw SpaceError("--shard K/N needs 0 <= K < N");
        p.trials = (p.trials - p.shard + p.shards - 1) / p.shards; // this task's share of the trials
    }
    const int devices = base.devices.type == DeviceType::Cuda ? std::max<int>(1, int(base.devices.ids.size())) : cores;
    if (p.parallel <= 0)
        p.parallel = base.devices.type == DeviceType::Cuda ? devices : 1;
    if (p.parallel > devices)
        throw SpaceError("--parallel " + std::to_string(p.parallel) + " runs more trials at once than there are " +
                         (base.devices.type == DeviceType::Cuda ? "GPUs listed in devices.ids (" : "CPU cores (") +
                         std::to_string(devices) + "); lower --parallel");
    if (method->setsEpochs)
        for (const auto& [key, d] : plan.space.params())
            if (key == "train.epochs")
                throw SpaceError(p.method + " gives each trial its epochs itself (up to the base's train.epochs): remove "
                                            "train.epochs from its space");
    if (method->copiesState)
        for (const auto& [key, d] : plan.space.params())
            if (key.rfind("model.", 0) == 0 || key == "data.dataset" || key == "optimizer.name" || key == "scheduler.name")
                throw SpaceError(p.method +
                                 " copies weights and optimizer state between trials, so they must have the "
                                 "same model, data and optimizer: remove " +
                                 key + " from its space");
    if (method->check)
        method->check(p, base);
    if (p.name.empty())
        p.name = base.name + "-" + p.method;
    return plan;
}

namespace {

/// The shards of one job array share an experiment: its uuid comes from what they share (name,
/// space, base configuration, number of shards), so `import` merges their trials into one
/// experiment, however many stores they arrive in and in whatever order.
std::string jobArrayUuid(const ExperimentRecord& e, int shards)
{
    const std::string key = e.name + '\n' + e.spaceJson + '\n' + e.baseConfigJson + '\n' + std::to_string(shards);
    auto fnv = [&key](uint64_t h) {
        for (const unsigned char c : key)
            h = (h ^ c) * 1099511628211ULL;
        return h;
    };
    const uint64_t hi = fnv(14695981039346656037ULL), lo = fnv(0x9e3779b97f4a7c15ULL);
    char text[40];
    std::snprintf(text, sizeof text, "%08llx-%04llx-8%03llx-a%03llx-%012llx", (unsigned long long)(hi >> 32),
                  (unsigned long long)((hi >> 16) & 0xffff), (unsigned long long)(hi & 0xfff),
                  (unsigned long long)(lo >> 52), (unsigned long long)(lo & 0xffffffffffffULL));
    return text;
}

} // namespace

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
