#include "Commands.h"
#include "ErrorReport.h"
#include "StopOnSignals.h"
#include "entrena/dist/Launcher.h"
#include "entrena/experiment/CrossValidation.h"
#include "entrena/experiment/MetricRegistry.h"
#include "entrena/experiment/Sweep.h"
#include "entrena/experiment/SweepMethodRegistry.h"
#include "entrena/store/AtomicFile.h"
#include "entrena/store/Import.h"
#include "entrena/store/RunStore.h"
#include "entrena/system/Runtime.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <unistd.h>

namespace entrena::cli {
namespace {

/// sweep's usage line: the methods and their own settings from the sweep-method registry.
std::string sweepSynopsis()
{
    std::string s = "--config BASE.json --space SPACE.json [--method ";
    const auto& methods = sweepMethodRegistry();
    for (std::size_t i = 0; i < methods.size(); ++i)
        s += (i ? "|" : "") + std::string(methods[i].name);
    s += "] [--trials N] [--parallel K] [--metric ";
    for (std::size_t i = 0; i < metricRegistry().size(); ++i)
        s += (i ? "|" : "") + std::string(metricRegistry()[i].name);
    s += "] [--name NAME] [--db FILE] [--json] "
         "[--resume EXPERIMENT]";
    for (const auto& m : methods)
        for (const auto& k : m.keys)
            s += " [" + settingFlag(k.key) + (k.kind == ValueKind::Integer ? " N]" : " X]");
    return s + " [--keep-pruned] [--cv K [--no-stratify]]";
}

/// --metric's help: the figures from their registry, the default first.
std::string metricHelp()
{
    std::string s = "what is compared:";
    for (const MetricEntry& m : metricRegistry())
        s += std::string(&m == &metricRegistry().front() ? " " : ", ") + m.name + " (" +
             (&m == &metricRegistry().front() ? "default, " : "") + m.doc + ")";
    return s;
}

std::string methodHelp()
{
    std::string s;
    for (const auto& m : sweepMethodRegistry())
        s += (s.empty() ? "" : "; ") + std::string(m.name) + ": " + m.doc;
    return s + ". Default random";
}

struct SweepOptions : ConfigOptions {
    std::string space;
    std::string method = SweepSettings{}.method;
    int trials = 0;
    int parallel = 0;
    std::string metric = "val_accuracy";
    std::string name;
    int folds = 0;           ///< --cv K: folds per trial
    bool noStratify = false; ///< with --cv
    std::string db;
    bool json = false;
    std::string resume;        ///< an experiment to continue
    int shard = 0, shards = 1; ///< --shard K/N
    bool keepPruned = false;   ///< keep pruned trials' checkpoints
    SweepSettings sweep;       ///< each method's own settings (--min-epochs, …; the registry's keys)
};

struct CrossValidationOptions : ConfigOptions {
    int folds = 0;
    bool stratified = false; ///< the default, said out loud
    bool noStratify = false;
    int repeat = 1;
    int parallel = 0;
    std::string name;
    int shard = 0, shards = 1;
    std::string db;
    bool json = false;
    std::string resume;
};

struct ExperimentsOptions {
    std::string db;
    bool json = false;
};

namespace fs = std::filesystem;
using nlohmann::json;

json paramsJson(const TrialParams& params)
{
    json j = json::object();
    for (const auto& [key, value] : params)
        j[key] = json::parse(value, nullptr, false);
    return j;
}

json metricJson(std::optional<double> m)
{
    return m && std::isfinite(*m) ? json(*m) : json(nullptr);
}

/// The sweep's events: JSON lines on stdout (--json), or a line per trial for a person.
class SweepPrinter : public SweepObserver {
public:
    /// `folds`: a cross-validation's, which the lines for a person speak of (0: a sweep).
    /// `cv`: a sweep's folds per trial (sweep --cv), whose trials' values are the folds' means.
    explicit SweepPrinter(bool json, int folds = 0, int cv = 0)
        : json_(json)
        , folds_(folds)
        , cv_(cv)
    {
    }

    void onSweepStart(int64_t experiment, const std::string& method, int trials) override
    {
        if (json_ && cv_ > 0)
            write({{"event", "sweep_start"}, {"experiment", experiment}, {"method", method}, {"trials", trials}, {"cv", cv_}});
        else if (json_)
            write({{"event", "sweep_start"}, {"experiment", experiment}, {"method", method}, {"trials", trials}});
        else if (cv_ > 0)
            std::printf("experiment %lld: %s, %d trials, each cross-validated on %d folds (a trial's value is their mean)\n",
                        (long long)experiment, method.c_str(), trials, cv_);
        else if (folds_ > 0)
            std::printf("experiment %lld: %d-fold cross-validation, %d fold run(s)\n", (long long)experiment, folds_, trials);
        else
            std::printf("experiment %lld: %s, %d trials\n", (long long)experiment, method.c_str(), trials);
        std::fflush(stdout);
    }
    void onTrialStart(int trial, int64_t runId, const TrialParams& params) override
    {
        if (json_)
            write({{"event", "trial_start"}, {"trial", trial}, {"run_id", runId}, {"params", paramsJson(params)}});
        else
            std::printf("%s %d (run %lld): %s\n", folds_ ? "fold run" : "trial", trial, (long long)runId,
                        paramsJson(params).dump().c_str());
        std::fflush(stdout);
    }
    void onTrialEnd(int trial, int64_t runId, RunStatus status, std::optional<double> metric, int epochs) override
    {
        if (json_) {
            write({{"event", "trial_end"},
                   {"trial", trial},
                   {"run_id", runId},
                   {"status", toString(status)},
                   {"metric", metricJson(metric)},
                   {"epochs", epochs}});
        } else {
            std::printf("%s %d (run %lld): %s after %d epoch(s)", folds_ ? "fold run" : "trial", trial, (long long)runId,
                        toString(status), epochs);
            if (metric)
                std::printf(cv_ > 0 ? ", best fold mean %.4f" : ", best %.4f", *metric);
            std::printf("\n");
        }
        std::fflush(stdout);
    }
    void onExploit(int trial, int64_t runId, int64_t sourceRun, int64_t step, const TrialParams& params) override
    {
        if (json_)
            write({{"event", "exploit"},
                   {"trial", trial},
                   {"run_id", runId},
                   {"source_run", sourceRun},
                   {"step", step},
                   {"params", paramsJson(params)}});
        else
            std::printf("trial %d (run %lld) copies run %lld at step %lld: %s\n", trial, (long long)runId, (long long)sourceRun,
                        (long long)step, paramsJson(params).dump().c_str());
        std::fflush(stdout);
    }
    void onTrialError(int trial, const std::string& line) override
    {
        std::fprintf(stderr, "[trial %d] %s\n", trial, line.c_str());
    }
    void end(const SweepResult& r)
    {
        if (json_) {
            write({{"event", "sweep_end"},
                   {"experiment", r.experiment},
                   {"status", r.status},
                   {"best_run", r.bestRun},
                   {"best_params", paramsJson(r.bestParams)},
                   {"best_metric", metricJson(r.bestMetric)},
                   {"trials", r.trials},
                   {"pruned", r.pruned}});
        } else {
            std::printf("experiment %lld %s: %d trials (%d pruned, %d failed)", (long long)r.experiment, r.status.c_str(),
                        r.trials, r.pruned, r.failed);
            if (r.bestMetric)
                std::printf("; best run %lld, %.4f, %s", (long long)r.bestRun, *r.bestMetric,
                            paramsJson(r.bestParams).dump().c_str());
            std::printf("\n");
        }
        std::fflush(stdout);
    }

private:
    void write(const json& j) { std::printf("%s\n", j.dump().c_str()); }
    bool json_;
    int folds_;
    int cv_;
};

std::string readFile(const std::string& path, const char* what)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw ConfigError(std::string("cannot read ") + what + " '" + path + "'; check the path");
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::string selfProgram()
{
    return fs::read_symlink("/proc/self/exe").string();
}

int sweep(const SweepOptions& o)
{
    const std::string db = dbPath(o.db);
    SweepPlan plan;
    if (o.resume.empty()) {
        // Checked before the store is even opened: a bad space stores nothing.
        const RunConfig base = RunConfig::fromFile(o.config, o.sets);
        SweepSettings s = o.sweep; // the method's own settings, as given
        s.method = o.method;
        s.trials = o.trials;
        s.parallel = o.parallel;
        s.metric = o.metric;
        s.name = o.name;
        s.shard = o.shard;
        s.shards = o.shards;
        s.keepPruned = o.keepPruned;
        s.cv = o.folds;
        s.cvStratify = !o.noStratify;
        plan = planSweep(base, readFile(o.space, "the search space"), s, physicalCoreCount());
    }
    SweepLaunch launch{selfProgram(), fs::absolute(db).string(), physicalCoreCount(), {}};
    if (o.resume.empty()) {
        launch.server = startTrialServer(launch, plan.base); // it loads LibTorch while this process goes on
        if (plan.settings.cv > 0)
            checkCrossValidationData(plan.base); // too many folds for a class is said now, with nothing stored
    }
    RunStore store(db);
    int cv = plan.settings.cv;
    if (!o.resume.empty())
        if (const auto e = store.findExperiment(o.resume))
            cv = SweepSettings::fromJson(e->settingsJson).cv;
    StopToken stop;
    StopOnSignals signals(stop);
    SweepPrinter printer(o.json, 0, cv);
    const SweepResult r =
        o.resume.empty() ? runSweep(store, plan, printer, stop, launch) : resumeSweep(store, o.resume, printer, stop, launch);
    printer.end(r);
    return r.status == "failed" ? 1 : 0;
}

json crossValidationJson(const CrossValidationSummary& s)
{
    json figures = json::object();
    for (const FoldFigure& f : s.figures)
        figures[f.key] = {{"mean", f.mean}, {"sd", f.sd}, {"values", f.values}};
    return {{"folds", s.folds},       {"repeats", s.repeats},     {"runs", s.runs},
            {"finished", s.finished}, {"expected", s.expected()}, {"figures", figures}};
}

int crossValidate(const CrossValidationOptions& o)
{
    const std::string db = dbPath(o.db);
    SweepPlan plan;
    if (o.resume.empty()) {
        // Checked before the store is opened: a bad configuration or fold count stores nothing.
        CrossValidationSettings s;
        s.folds = o.folds;
        s.stratify = !o.noStratify;
        s.repeat = o.repeat;
        s.parallel = o.parallel;
        s.name = o.name;
        s.shard = o.shard;
        s.shards = o.shards;
        const RunConfig base = RunConfig::fromFile(o.config, o.sets);
        plan = planCrossValidation(base, s, physicalCoreCount());
    }
    SweepLaunch launch{selfProgram(), fs::absolute(db).string(), physicalCoreCount(), {}};
    if (o.resume.empty()) {
        // The trial server loads LibTorch (over half a second) while the folds are checked and the store
        // opens: with second-long folds that was a sixth of a cross-validation.
        launch.server = startTrialServer(launch, plan.base);
        // Every fold is dealt here first, so too many folds for a class is said now, not by each trial.
        checkCrossValidationData(plan.base);
    }
    RunStore store(db);
    int folds = plan.base.data.folds;
    if (!o.resume.empty()) {
        const auto e = store.findExperiment(o.resume);
        if (!e)
            throw ConfigError("no experiment '" + o.resume + "' in " + db + "; `entrena-cli experiments` lists them");
        if (!isCrossValidation(*e))
            throw ConfigError("experiment '" + o.resume +
                              "' is a sweep, not a cross-validation; resume it with "
                              "`entrena-cli sweep --resume " +
                              o.resume + "`");
        folds = summarizeCrossValidation(store, *e).folds;
    }
    StopToken stop;
    StopOnSignals signals(stop);
    SweepPrinter printer(o.json, folds);
    const SweepResult r =
        o.resume.empty() ? runSweep(store, plan, printer, stop, launch) : resumeSweep(store, o.resume, printer, stop, launch);
    const auto experiment = store.findExperiment(std::to_string(r.experiment));
    if (!experiment)
        throw std::runtime_error("the cross-validation's experiment " + std::to_string(r.experiment) + " is gone from " + db);
    const CrossValidationSummary summary = summarizeCrossValidation(store, *experiment);
    if (o.json) {
        std::printf(
            "%s\n",
            json{{"event", "cv_end"}, {"experiment", r.experiment}, {"status", r.status}, {"cv", crossValidationJson(summary)}}
                .dump()
                .c_str());
    } else {
        std::printf("experiment %lld %s: ", (long long)r.experiment, r.status.c_str());
        std::printf("%d of %d fold run(s) finished\n", summary.finished, summary.expected());
        for (const FoldFigure& f : summary.figures) {
            std::printf("  %-18s %s   folds:", f.key.c_str(), meanPlusMinus(f).c_str());
            for (double v : f.values)
                std::printf(" %.4f", v);
            std::printf("\n");
        }
    }
    std::fflush(stdout);
    return r.status == "failed" ? 1 : 0;
}

/// A job array's script: printed, or written to --out (executable) with how to bring its stores home.
int writeJobArray(const ClusterScriptOptions& o, const ClusterLaunch& l)
{
    if (o.out.empty()) {
        std::printf("%s", l.sbatch.c_str());
        return 0;
    }
    AtomicFile file(o.out);
    file.write(l.sbatch);
    file.commit();
    fs::permissions(o.out, fs::perms::owner_exec | fs::perms::group_exec, fs::perm_options::add);
    std::printf("wrote %s (submit with: sbatch %s); afterwards:\n%s\n", o.out.c_str(), o.out.c_str(), l.torchrun.c_str());
    return 0;
}

} // namespace

int clusterSweepScript(const ClusterScriptOptions& o)
{
    // Checked here, not on the cluster: the configuration, the space, and every task's share.
    const RunConfig base = RunConfig::fromFile(o.config, o.sets);
    const std::string space = fs::absolute(o.space).string();
    SweepSettings s;
    s.method = o.method;
    s.trials = o.trials;
    s.shards = o.nodes;
    const SweepPlan plan = planSweep(base, readFile(o.space, "the search space"), s, physicalCoreCount());
    std::vector<std::string> args;
    for (const auto& set : o.sets)
        args.insert(args.end(), {"--set", set});
    args.insert(args.end(),
                {"--space", space, "--method", o.method, "--trials",
                 std::to_string(o.trials > 0 ? o.trials : plan.settings.trials * o.nodes), "--name", plan.settings.name});
    return writeJobArray(o, clusterSweep(fs::absolute(o.config).string(), args, o.nodes, base.devices.type == DeviceType::Cuda,
                                         plan.settings.name));
}

int clusterCrossValidationScript(const ClusterScriptOptions& o)
{
    // Checked here, not on the cluster: the configuration and the folds of every class.
    const RunConfig base = RunConfig::fromFile(o.config, o.sets);
    CrossValidationSettings s;
    s.folds = o.folds;
    const SweepPlan plan = planCrossValidation(base, s, physicalCoreCount());
    checkCrossValidationData(plan.base);
    std::vector<std::string> args;
    for (const auto& set : o.sets)
        args.insert(args.end(), {"--set", set});
    args.insert(args.end(), {"--folds", std::to_string(o.folds), "--name", plan.settings.name});
    return writeJobArray(o, clusterSweep(fs::absolute(o.config).string(), args, o.folds, base.devices.type == DeviceType::Cuda,
                                         plan.settings.name, "cv"));
}

namespace {

int experiments(const ExperimentsOptions& o)
{
    RunStore store(dbPath(o.db));
    json array = json::array();
    for (const ExperimentRecord& e : store.listExperiments()) {
        const TrialsSummary trials = summarizeTrials(store, e);
        json cv = nullptr;
        if (isCrossValidation(e))
            cv = crossValidationJson(summarizeCrossValidation(store, e));
        array.push_back({{"id", e.id},
                         {"uuid", e.uuid},
                         {"name", e.name},
                         {"method", e.method},
                         {"metric", e.metric},
                         {"status", e.status},
                         {"created", e.created},
                         {"space", json::parse(e.spaceJson, nullptr, false)},
                         {"trials", trials.trials},
                         {"pruned", trials.pruned},
                         {"best_run", trials.bestRun},
                         {"best_metric", metricJson(trials.best)},
                         {"cv", cv},
                         {"trial_folds", trials.trialFolds}});
    }
    if (o.json) {
        std::printf("%s\n", array.dump().c_str());
        return 0;
    }
    if (array.empty())
        std::printf("no experiments in %s\n", store.path().c_str());
    for (const auto& e : array) {
        const bool cv = !e["cv"].is_null(); // a cross-validation's trials are its folds, and said so
        std::printf("%4lld  %-24s %-6s %-9s %3d %s", (long long)e["id"].get<int64_t>(), e["name"].get<std::string>().c_str(),
                    cv ? "cv" : e["method"].get<std::string>().c_str(), e["status"].get<std::string>().c_str(),
                    int(e["trials"].get<size_t>()), cv ? "folds" : "trials");
        if (!e["cv"].is_null() && e["cv"]["figures"].contains("best_val_accuracy")) {
            const json& f = e["cv"]["figures"]["best_val_accuracy"];
            std::printf("  val_accuracy %.4f ± %.4f over %d of %d fold run(s)\n", f["mean"].get<double>(), f["sd"].get<double>(),
                        int(f["values"].size()), e["cv"]["expected"].get<int>());
            continue;
        }
        if (!e["best_metric"].is_null() && e["trial_folds"].get<int>() > 0)
            std::printf("  best %s %.4f, the mean of %d folds (first run %lld)", e["metric"].get<std::string>().c_str(),
                        e["best_metric"].get<double>(), e["trial_folds"].get<int>(), (long long)e["best_run"].get<int64_t>());
        else if (!e["best_metric"].is_null())
            std::printf("  best %s %.4f (run %lld)", e["metric"].get<std::string>().c_str(), e["best_metric"].get<double>(),
                        (long long)e["best_run"].get<int64_t>());
        std::printf("\n");
    }
    return 0;
}

/// --shard K/N: task K of a job array of N.
void assignShard(int& shard, int& shards, const std::string& value, const std::string& command)
{
    const auto slash = value.find('/');
    const auto whole = [&](const std::string& part, int least) {
        try {
            size_t used = 0;
            const int v = std::stoi(part, &used);
            if (used == part.size() && v >= least)
                return v;
        } catch (const std::exception&) {
        }
        throw UsageError("--shard needs K/N, e.g. 0/4; got '" + value + "'", command);
    };
    if (slash == std::string::npos)
        throw UsageError("--shard needs K/N, e.g. 0/4; got '" + value + "'", command);
    shard = whole(value.substr(0, slash), 0);
    shards = whole(value.substr(slash + 1), 1);
    if (shard >= shards)
        throw UsageError("--shard K/N needs K < N; got '" + value + "'", command);
}

/// Each sweep method's own settings (--min-epochs, --quantile, …), as its registry entry describes them.
void declareMethodSettings(CLI::App& app, SweepSettings& into)
{
    for (const SweepMethodEntry& e : sweepMethodRegistry())
        for (const auto& k : e.keys) {
            const auto assign = [&into, &k](const std::string& value) {
                try {
                    setMethodSetting(into, k, value);
                } catch (const SpaceError& error) {
                    throw UsageError(error.what(), "sweep");
                }
            };
            custom(app, settingFlag(k.key), k.kind == ValueKind::Integer ? "N" : "X", assign, k.doc);
        }
}

Runner declareSweep(CLI::App& app)
{
    auto o = std::make_shared<SweepOptions>();
    text(app, "--config", "BASE.json", o->config, "the base configuration every trial starts from");
    text(app, "--space", "SPACE.json", o->space,
         "keys (as --set names them) and their distributions: uniform, log_uniform, int_uniform, choice");
    text(app, "--method", "METHOD", o->method, methodHelp());
    whole(app, "--trials", "N", o->trials, 1, "trials to run (default 10; pbt: the population, 4; grid: every combination)");
    whole(app, "--parallel", "K", o->parallel, 1,
          "trials at once (default: one per listed GPU, else 1); a CPU's cores are divided");
    text(app, "--metric", "METRIC", o->metric, metricHelp());
    text(app, "--name", "NAME", o->name, "the experiment's name (default: the configuration's name and the method)");
    whole(app, "--cv", "K", o->folds, 2,
          "cross-validate every trial: K fold runs each, the trial's value (and what asha prunes on) is their mean");
    flag(app, "--no-stratify", o->noStratify, "with --cv: deal the folds regardless of the classes");
    declareDb(app, o->db);
    declareJson(app, o->json);
    text(app, "--resume", "EXPERIMENT", o->resume,
         "continue an experiment (id or name) after a stop or a crash, with its stored settings");
    declareMethodSettings(app, o->sweep);
    custom(
        app, "--shard", "K/N", [o](const std::string& v) { assignShard(o->shard, o->shards, v, "sweep"); },
        "grid, random: run only trials K, K+N, K+2N, … (task K of a job array of N)");
    flag(app, "--keep-pruned", o->keepPruned,
         "keep the checkpoints of trials asha prunes (by default deleted when the sweep ends; kept, such a trial can be "
         "resumed)");
    afterParse(app, [o] {
        if (o->resume.empty() && (o->config.empty() || o->space.empty()))
            throw UsageError("sweep needs --config BASE.json and --space SPACE.json (or --resume EXPERIMENT)", "sweep");
    });
    return [o](const Invocation&) { return sweep(*o); };
}

Runner declareCrossValidation(CLI::App& app)
{
    auto o = std::make_shared<CrossValidationOptions>();
    declareConfig(app, *o);
    whole(app, "--folds", "K", o->folds, 2, "folds, at least 2; each class must have K samples or more (stratified)");
    flag(app, "--stratified", o->stratified, "every fold keeps each class's share of the samples (the default)");
    flag(app, "--no-stratify", o->noStratify, "deal the samples into folds regardless of their class");
    whole(app, "--repeat", "R", o->repeat, 1, "repeat with seeds seed … seed + R − 1, each dealing its own folds (default 1)");
    whole(app, "--parallel", "P", o->parallel, 1, "folds at once (default 1); a CPU's cores are divided");
    text(app, "--name", "NAME", o->name, "the experiment's name (default: the configuration's name and \"K-fold\")");
    custom(
        app, "--shard", "K/N", [o](const std::string& v) { assignShard(o->shard, o->shards, v, "cv"); },
        "run only folds K, K+N, … (task K of a job array of N; see cluster-script --cv)");
    declareDb(app, o->db);
    declareJson(app, o->json);
    text(app, "--resume", "EXPERIMENT", o->resume, "continue a stopped cross-validation: the same folds, finished ones kept");
    afterParse(app, [o] {
        if (o->resume.empty() && (o->config.empty() || o->folds == 0))
            throw UsageError("cv needs --config FILE and --folds K (or --resume EXPERIMENT)", "cv");
        if (o->noStratify && o->stratified)
            throw UsageError("--stratified and --no-stratify contradict each other: give one", "cv");
    });
    return [o](const Invocation&) { return crossValidate(*o); };
}

Runner declareExperiments(CLI::App& app)
{
    auto o = std::make_shared<ExperimentsOptions>();
    declareDb(app, o->db);
    declareJson(app, o->json);
    return [o](const Invocation&) { return experiments(*o); };
}

} // namespace

CommandInfo sweepCommand()
{
    return {"sweep", sweepSynopsis(), "try many configurations: grid, random or TPE search, ASHA or population-based training",
            "Every trial is a normal run in the store, reproducible from its configuration. A bad space exits 2 before "
            "anything runs or is stored. SIGINT or SIGTERM stops every trial with a checkpoint; --resume goes on. Exit "
            "status: 0 finished or stopped, 1 failed, 2 bad command line, configuration or space.",
            &declareSweep};
}

CommandInfo crossValidationCommand()
{
    return {"cv",
            "--config FILE [--set k=v]... --folds K [--stratified|--no-stratify] [--repeat R] [--parallel P] [--name NAME] "
            "[--shard K/N] [--db FILE] [--json] [--resume EXPERIMENT]",
            "k-fold cross-validation: train once per fold, each held out in turn, and report each figure's mean ± sd",
            "Each fold is a normal run in the store, a trial of one experiment. The folds are dealt from the seed, so "
            "they are the same on every machine and after --resume. Exit status: 0 finished or stopped, 1 a fold "
            "failed, 2 bad command line or configuration (nothing is stored).",
            &declareCrossValidation};
}

CommandInfo experimentsCommand()
{
    return {"experiments", "[--db FILE] [--json]", "the experiments (sweeps) in the run store, with their best trial",
            "One line per experiment: id, name, method, status, trials and the best value of its metric.", &declareExperiments};
}

} // namespace entrena::cli
