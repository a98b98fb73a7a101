#include "CliCommands.h"

#include "ErrorReport.h"
#include "JsonEvents.h"
#include "ProgressPrinter.h"
#include "SearchCommands.h"
#include "StopOnSignals.h"
#include "StoreCommands.h"
#include "SweepCommands.h"
#include "entrena/config/Config.h"
#include "entrena/config/Registry.h"
#include "entrena/data/Preload.h"
#include "entrena/dist/Distributed.h"
#include "entrena/dist/Launcher.h"
#include "entrena/experiment/SearchSpace.h"
#include "entrena/experiment/Sweep.h"
#include "entrena/export/Export.h"
#include "entrena/store/AtomicFile.h"
#include "entrena/store/Baseline.h"
#include "entrena/store/RunStore.h"
#include "entrena/system/Devices.h"
#include "entrena/system/Runtime.h"
#include "entrena/system/Version.h"
#include "entrena/train/Trainer.h"

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

namespace entrena::cli {
namespace {

namespace fs = std::filesystem;

std::string dbPath(const CliOptions& o)
{
    return o.db.empty() ? RunStore::defaultPath() : o.db;
}

/// Exit status of a finished run, with its error on stderr.
int exitStatus(const RunResult& result, const std::string& who = {})
{
    switch (result.end.status) {
    case RunStatus::Finished:
    case RunStatus::Stopped: return 0;
    default: {
        // A rank other than 0 records no run (id 0); an error from a rank names it already.
        const std::string run = result.runId > 0 ? "run " + std::to_string(result.runId) : std::string("the run");
        const std::string& error = result.end.error;
        reportError((error.rfind(who, 0) == 0 && !who.empty() ? "" : who) + run + " " + toString(result.end.status) + ": " +
                    error);
    }
        return 1;
    }
}

/// `--nproc N` (or several devices.ids) without a launcher: starts the ranks here, supervises
/// them and relays rank 0's output.
int launchRanks(const CliOptions& o, const RunConfig& config, int nproc)
{
    checkDevicesForRanks(config, nproc);
    LaunchSpec spec;
    spec.program = fs::read_symlink("/proc/self/exe").string();
    for (size_t i = 0; i < o.args.size(); ++i) {
        if (o.args[i] == "--nproc") {
            ++i;
            continue;
        }
        if (o.args[i].rfind("--nproc=", 0) != 0)
            spec.args.push_back(o.args[i]);
    }
    spec.worldSize = nproc;
    spec.port = freeLocalPort();
    spec.grace = std::chrono::milliseconds(5000);

    StopToken stop;
    std::vector<RankExit> exits;
    std::vector<pid_t> pids;
    {
        StopOnSignals signals(stop);
        RankSupervisor ranks(spec);
        ranks.start();
        pids = ranks.pids();
        exits = ranks.wait([&] { return stop.stopRequested(); });
    }
    if (exits.empty() || !exits.front().failed())
        return 0;
    const RankExit& first = exits.front();
    const auto rank0 = std::find_if(exits.begin(), exits.end(), [](const RankExit& e) { return e.rank == 0; });
    if (rank0 != exits.end() && rank0->signal != 0) {
        // Rank 0 could not end its run itself: end it here, so that it is not left `running`.
        const std::string error = "the data-parallel run failed: " + first.describe();
        try {
            RunStore(dbPath(o)).failRunOwnedBy(pids.front(), error);
        } catch (const std::exception&) {
        }
        if (o.json)
            std::cout << nlohmann::json{{"event", "end"}, {"status", "failed"}, {"error", error}}.dump() << std::endl;
    }
    reportError("the data-parallel run failed: " + first.describe());
    return first.exitCode == 2 ? 2 : 1;
}

/// Trains in this process: the whole run, or one rank of a data-parallel run started by torchrun,
/// srun or `--nproc` (rank 0 records the run and reports its events; the others train silently).
/// With `--nproc N` (or several CUDA devices.ids) and no launcher around it, starts the ranks.
int train(const CliOptions& o)
{
    if (!o.resume.empty() && (!o.config.empty() || !o.sets.empty()))
        throw UsageError("--resume continues a run with its stored configuration; leave out --config and --set", "train");
    std::optional<RankEnv> rank;
    try {
        rank = rankEnvFromEnvironment();
    } catch (const DistributedError& e) {
        reportError(e.what());
        return 2;
    }
    if (rank && !rank->distributed())
        rank.reset();
    if (rank && o.nproc > 1)
        throw UsageError("--nproc starts the ranks itself; under torchrun or srun (WORLD_SIZE or SLURM_NTASKS set) "
                         "leave it out",
                         "train");
    if (rank && !o.resume.empty())
        throw UsageError("--resume continues a run in one process; start it without torchrun or srun", "train");
    std::optional<RunConfig> config;
    if (o.resume.empty())
        config = RunConfig::fromFile(o.config, o.sets);
    if (config && !rank) {
        int nproc = o.nproc;
        const int listed = int(config->devices.ids.size());
        if (config->devices.type == DeviceType::Cuda && listed > 1 && nproc == 0)
            nproc = listed; // one rank per listed GPU
        if (nproc > 1) {
            try {
                return launchRanks(o, *config, nproc);
            } catch (const DistributedError& e) {
                reportError(e.what());
                return 2;
            }
        }
    }
    const bool leader = !rank || rank->rank == 0; // only rank 0 opens the store
    const std::string who = leader ? "" : "rank " + std::to_string(rank->rank) + ": ";
    std::optional<RunStore> store;
    if (leader)
        store.emplace(dbPath(o));

    StopToken stop;
    StopOnSignals signals(stop);
    JsonEvents json;
    ProgressPrinter human;
    TrainingObserver silent;
    TrainingObserver& observer = !leader ? silent : o.json ? static_cast<TrainingObserver&>(json) : human;
    RunResult result;
    try {
        if (config) {
            Trainer trainer(*config);
            if (rank)
                trainer.setRank(*rank);
            // A sweep's trial ("EXPERIMENT:TRIAL"): the run is its from the moment it exists.
            if (const char* trial = std::getenv("ENTRENA_TRIAL"); trial && std::strchr(trial, ':'))
                trainer.setTrial(std::atoll(trial), std::atoll(std::strchr(trial, ':') + 1));
            result = trainer.run(observer, stop, store ? &*store : nullptr, /*checkpoints=*/true);
        } else {
            result = Trainer::resume(o.resume, observer, stop, *store);
        }
    } catch (const ResumeError& e) {
        reportError(std::string("cannot resume: ") + e.what());
        return 2;
    } catch (const DistributedError& e) {
        const std::string what = e.what();
        reportError((what.rfind("rank ", 0) == 0 ? "" : who) + what);
        return 2;
    }
    return exitStatus(result, who);
}

/// The torchrun line and sbatch script for a configuration, to copy to a cluster.
int clusterScript(const CliOptions& o)
{
    if (!o.space.empty())
        return clusterSweepScript(o);
    const RunConfig config = RunConfig::fromFile(o.config, o.sets); // refuses a bad one here, not on the cluster
    const bool gpus = config.devices.type == DeviceType::Cuda;
    const int perNode = o.nproc > 0 ? o.nproc : gpus ? std::max<int>(1, int(config.devices.ids.size())) : 1;
    const ClusterLaunch l =
        clusterLaunch(fs::absolute(o.config).string(), o.nodes, perNode, gpus, config.name.empty() ? "entrena" : config.name);
    if (o.out.empty()) {
        std::cout << "# on every node (torchrun):\n" << l.torchrun << "\n\n# or submit this with sbatch:\n" << l.sbatch;
        return 0;
    }
    AtomicFile file(o.out);
    file.write(l.sbatch);
    file.commit();
    fs::permissions(o.out, fs::perms::owner_exec | fs::perms::group_exec, fs::perm_options::add);
    std::cout << "wrote " << o.out << " (submit with: sbatch " << o.out << ")\n" << l.torchrun << "\n";
    return 0;
}

nlohmann::json optional(const std::optional<double>& v)
{
    return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

constexpr double kBaselineTolerance = 0.005; // the GUI's default: half a percentage point

/// A run's comparison with its data set's baseline, or null when that has none.
nlohmann::json baselineJson(const std::map<int64_t, BaselineComparison>& versus, int64_t runId)
{
    const auto it = versus.find(runId);
    if (it == versus.end())
        return nullptr;
    const BaselineComparison& c = it->second;
    return {{"run", c.baselineRun},           {"is_baseline", c.isBaseline},
            {"speedup", optional(c.speedup)}, {"delta_accuracy", optional(c.deltaAccuracy)},
            {"accuracy", c.accuracyKind},     {"warning", c.warn()}};
}

int baseline(const CliOptions& o)
{
    RunStore store(dbPath(o));
    const auto run = store.findRun(o.run);
    if (!run)
        throw UsageError("no run '" + o.run + "' in " + store.path(), "baseline");
    if (o.clear) {
        store.clearBaseline(run->id);
        std::cout << "run " << run->id << " is no longer a baseline\n";
    } else {
        store.setBaseline(run->id);
        std::cout << "run " << run->id << " is the baseline of " << datasetKey(run->configJson) << "\n";
    }
    return 0;
}

int runs(const CliOptions& o)
{
    RunStore store(dbPath(o));
    RunFilter filter;
    if (!o.status.empty())
        filter.status = runStatusFromString(o.status);
    filter.tag = o.tag;
    filter.includeArchived = o.all;
    const auto all = store.listRuns(filter);
    const std::map<int64_t, int64_t> disk = o.disk ? store.diskUse() : std::map<int64_t, int64_t>();
    if (o.json) {
        const auto versus = compareWithBaselines(store, all, kBaselineTolerance);
        nlohmann::json array = nlohmann::json::array();
        for (const auto& r : all) {
            array.push_back({{"id", r.id},
                             {"uuid", r.uuid},
                             {"name", r.name},
                             {"status", toString(r.status)},
                             {"created", r.created},
                             {"ended", r.ended.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.ended)},
                             {"experiment", r.experiment ? nlohmann::json(r.experiment) : nlohmann::json(nullptr)},
                             {"trial", r.trial >= 0 ? nlohmann::json(r.trial) : nlohmann::json(nullptr)},
                             {"parent_run", r.parentRun ? nlohmann::json(r.parentRun) : nlohmann::json(nullptr)},
                             {"best_val_accuracy", optional(r.bestValAccuracy)},
                             {"test_accuracy", optional(r.testAccuracy)},
                             {"final_train_loss", optional(r.finalTrainLoss)},
                             {"samples_per_s", optional(r.samplesPerSec)},
                             {"seconds", optional(r.seconds)},
                             {"tags", store.tags(r.id)},
                             {"notes", r.notes},
                             {"error", r.error},
                             {"baseline", baselineJson(versus, r.id)}});
            if (o.disk)
                array.back()["disk_bytes"] = disk.count(r.id) ? disk.at(r.id) : 0;
        }
        std::cout << array.dump() << "\n";
        return 0;
    }
    if (all.empty()) {
        std::cout << "no runs in " << store.path() << "\n";
        return 0;
    }
    std::printf("%5s  %-24s  %-11s  %-24s  %9s  %9s%s\n", "id", "name", "status", "created", "best val", "test",
                o.disk ? "       disk" : "");
    for (const auto& r : all) {
        auto pct = [](const std::optional<double>& v) {
            char b[16];
            std::snprintf(b, sizeof b, v ? "%.2f%%" : "-", v ? *v * 100.0 : 0.0);
            return std::string(b);
        };
        std::printf("%5lld  %-24.24s  %-11s  %-24s  %9s  %9s", (long long)r.id, r.name.c_str(), toString(r.status),
                    r.created.c_str(), pct(r.bestValAccuracy).c_str(), pct(r.testAccuracy).c_str());
        if (o.disk)
            std::printf("  %9s", readableBytes(disk.count(r.id) ? disk.at(r.id) : 0).c_str());
        std::printf("\n");
    }
    if (o.disk) {
        int64_t files = 0;
        for (const auto& [id, bytes] : store.diskUse()) // every run's, the archived too
            files += bytes;
        std::printf("checkpoints and images: %s; the store file: %s (free space: entrena-cli clean)\n",
                    readableBytes(files).c_str(), readableBytes(store.storeFileBytes()).c_str());
    }
    return 0;
}

// Writes `text` to `path` through a temporary file and a rename: never a partial file.
void writeAtomically(const std::string& path, const std::string& text)
{
    AtomicFile file(path);
    file.write(text);
    file.commit();
}

int exportRun(const CliOptions& o)
{
    RunStore store(dbPath(o));
    const auto run = store.findRun(o.run);
    if (!run)
        throw UsageError("no run '" + o.run + "' in " + store.path() + "; `entrena-cli runs` lists them", "export");
    if (!o.checkpoint.empty()) {
        const ExportResult r = exportCheckpoint(store, run->id, o.checkpoint, o.out);
        std::printf("wrote %s (%s, %d tensors, from %s)\n", r.file.c_str(), r.format.c_str(), r.tensors, r.checkpoint.c_str());
        if (r.testAccuracy >= 0)
            std::printf("test accuracy of the exported weights: %.2f%%\n", r.testAccuracy * 100.0);
        std::printf("wrote %s (configuration, metrics, normalisation)\n", r.sidecar.c_str());
        return 0;
    }
    std::ostringstream text;
    text.precision(17);
    if (o.metrics == "csv") {
        // Long form, one row per stored value: exactly what the store holds.
        text << "key,step,epoch,wall_time,value\n";
        for (const auto& key : store.metricKeys(run->id)) {
            for (const auto& m : store.metrics(run->id, key))
                text << key << ',' << m.step << ',' << m.epoch << ',' << m.wallTime << ',' << m.value << '\n';
        }
    } else {
        nlohmann::json metrics = nlohmann::json::object();
        for (const auto& key : store.metricKeys(run->id)) {
            nlohmann::json series = nlohmann::json::array();
            for (const auto& m : store.metrics(run->id, key))
                series.push_back({{"step", m.step}, {"epoch", m.epoch}, {"wall_time", m.wallTime}, {"value", m.value}});
            metrics[key] = series;
        }
        nlohmann::json events = nlohmann::json::array();
        for (const auto& e : store.events(run->id))
            events.push_back({{"step", e.step}, {"time", e.time}, {"kind", e.kind}, {"message", e.message}});
        nlohmann::json config = nlohmann::json::parse(run->configJson, nullptr, false);
        // The data's classes and shape, and what the model got wrong at the end (null before schema 6).
        const auto parsed = [](const std::string& text) {
            const auto j = nlohmann::json::parse(text, nullptr, false);
            return j.is_discarded() ? nlohmann::json(nullptr) : j;
        };
        const nlohmann::json data = parsed(run->dataJson);
        const nlohmann::json doc = {
            {"run",
             {{"id", run->id},
              {"uuid", run->uuid},
              {"name", run->name},
              {"status", toString(run->status)},
              {"created", run->created},
              {"config", config.is_discarded() ? nlohmann::json(nullptr) : config},
              {"best_val_accuracy", optional(run->bestValAccuracy)},
              {"test_accuracy", optional(run->testAccuracy)},
              {"classes", data.is_object() ? data.value("classes", nlohmann::json(nullptr)) : nlohmann::json(nullptr)},
              {"input_shape", data.is_object() ? data.value("input_shape", nlohmann::json(nullptr)) : nlohmann::json(nullptr)}}},
            {"metrics", metrics},
            {"events", events},
            {"evaluation", parsed(run->evaluationJson)}};
        text << doc.dump(1) << "\n";
    }
    writeAtomically(o.out, text.str());
    return 0;
}

int devices(const CliOptions& o)
{
    applyThreadCount(0);
    const DeviceReport r = probeDevices(true);
    if (o.json) {
        std::cout << toJson(r) << "\n";
        return 0;
    }
    std::printf("CPU          %s (%d logical CPUs, %d physical cores, %s)\n", r.cpuModel.c_str(), r.logicalCpus, r.physicalCores,
                r.cpuIsa.c_str());
    std::printf("LibTorch     %s, %d intra-op threads\n", r.torchVersion.c_str(), r.torchThreads);
    std::printf("BLAS         %s%s%s", r.blasLibrary.empty() ? "(none found)" : r.blasLibrary.c_str(),
                r.blasCore.empty() ? "" : ", core ", r.blasCore.c_str());
    if (r.blasThreads > 0)
        std::printf(", %d threads", r.blasThreads);
    std::printf("\n");
    std::printf("Environment  %s\n", r.tuning.c_str());
    std::printf("GEMM         %.1f GFLOP/s (fp32, 1024x1024)\n", r.gemmGflops);
    std::printf("NVML         %s\n", r.nvml.c_str());
    for (const auto& d : r.devices) {
        if (d.type == "cuda")
            std::printf("cuda:%d       %s, %.1f GiB, compute capability %s\n", d.index, d.name.c_str(),
                        double(d.memoryBytes) / (1024.0 * 1024 * 1024), d.capability.c_str());
    }
    for (const auto& w : r.warnings)
        std::printf("warning: %s\n", w.c_str());
    return 0;
}

/// Every key a configuration takes, with its default: the union of what the default configuration
/// writes under each choice that adds keys of its own, so the list follows RunConfig::toJson.
/// One registry as a table of configuration.md: a row per entry, with its own keys and defaults.
template <class Entries, class What>
void registryTable(const char* title, const std::string& section, const char* selector, const Entries& entries, What what)
{
    std::printf("#### %s (`%s`)\n\n| `%s` | what it is | its keys (default) |\n|---|---|---|\n", title, selector, selector);
    const auto catalog = configKeyCatalog();
    for (const auto& e : entries) {
        std::string keys;
        for (const ConfigKeyInfo& k : catalog) {
            if (k.section != section || k.entry != e.name)
                continue;
            keys += (keys.empty() ? "`" : ", `") + k.key.substr(section.size() + 1) + "` (" +
                    (k.defaultDoc.empty() ? "`" + k.defaultValue + "`" : k.defaultDoc) + ")";
        }
        std::printf("| `%s` | %s | %s |\n", e.name, what(e).c_str(), keys.empty() ? "—" : keys.c_str());
    }
    std::printf("\n");
}

/// The registries as configuration.md's tables (a test checks that the file holds this output).
int configKeysMarkdown()
{
    const auto doc = [](const auto& e) { return std::string(e.doc); };
    registryTable("Data sets", "data", "data.dataset", datasetRegistry(), doc);
    registryTable("Models", "model", "model.arch", modelRegistry(), doc);
    registryTable("Optimizers", "optimizer", "optimizer.name", optimizerRegistry(),
                  [](const OptimizerEntry& e) { return "PyTorch's `" + std::string(e.pytorch) + "`"; });
    registryTable("Learning-rate schedules", "scheduler", "scheduler.name", schedulerRegistry(), [](const SchedulerEntry& e) {
        return std::string(e.doc) + (*e.pytorch ? std::string(" (`") + e.pytorch + "`)" : std::string());
    });
    return 0;
}

int configKeys()
{
    // As --set takes it: a string bare (an empty one as ""), anything else as JSON. A key several
    // entries share shows its first default (the order of the registries).
    std::map<std::string, std::string> keys;
    for (const ConfigKeyInfo& k : configKeyCatalog()) {
        const auto value = nlohmann::json::parse(k.defaultValue);
        const bool bare = value.is_string() && !value.get<std::string>().empty();
        keys.emplace(k.key, bare ? value.get<std::string>() : k.defaultValue);
    }
    size_t width = 0;
    for (const auto& [key, value] : keys)
        width = std::max(width, key.size());
    for (const auto& [key, value] : keys)
        std::printf("%-*s  %s\n", int(width), key.c_str(), value.c_str());
    return 0;
}

} // namespace

int runCommandLine(int argc, char** argv)
{
    try {
        return runCommand(parseCommandLine(argc, argv));
    } catch (const UsageError& e) {
        reportError(e.what());
        std::cerr << usageAfterError(e.command());
        return 2;
    }
}

int trialServer(int argc, char** argv)
{
    // Ctrl+C reaches the whole process group; the trials stop themselves, and need the server alive
    // for that (they die with it). serveTrials says so again; this covers the preload before it.
    std::signal(SIGINT, SIG_IGN);
    std::signal(SIGTERM, SIG_IGN);
    int fd = -1;
    std::string base;
    for (int i = 2; i + 1 < argc; i += 2) {
        if (std::strcmp(argv[i], "--fd") == 0)
            fd = std::atoi(argv[i + 1]);
        else if (std::strcmp(argv[i], "--config") == 0)
            base = argv[i + 1];
    }
    if (fd < 0) {
        reportError("trial-server is started by `entrena-cli sweep`, with the socket it serves (--fd N)");
        return 2;
    }
    // The trials' data, read once here instead of once in every trial. Reading only: the first
    // computation would start LibTorch's thread pool, which a forked trial cannot use.
    try {
        if (!base.empty())
            preloadDataFiles(RunConfig::fromFile(base).data);
    } catch (const std::exception&) {
        // The trials report a bad configuration themselves.
    }
    const std::string program = argv[0];
    return serveTrials(fd, [&](const std::vector<std::string>& args) {
        std::vector<char*> line{const_cast<char*>(program.c_str())};
        for (const auto& a : args)
            line.push_back(const_cast<char*>(a.c_str()));
        line.push_back(nullptr);
        const int code = runCommandLine(int(args.size() + 1), line.data());
        std::cout.flush();
        return code;
    });
}

int runCommand(const CliOptions& o)
{
    try {
        if (o.command == "help") {
            const CommandInfo* command = findCommand(o.helpFor);
            std::cout << (command ? commandHelp(*command) : overview());
            return 0;
        }
        if (o.command == "version") {
            std::cout << "entrena-cli " << kVersion << "\n";
            return 0;
        }
        if (o.command == "train")
            return train(o);
        if (o.command == "runs")
            return runs(o);
        if (o.command == "baseline")
            return baseline(o);
        if (o.command == "devices")
            return devices(o);
        if (o.command == "lr-find")
            return lrFind(o);
        if (o.command == "batch-find")
            return batchFind(o);
        if (o.command == "export")
            return exportRun(o);
        if (o.command == "cluster-script")
            return clusterScript(o);
        if (o.command == "sweep")
            return sweep(o);
        if (o.command == "experiments")
            return experiments(o);
        if (o.command == "import")
            return importStore(o);
        if (o.command == "clean")
            return clean(o);
        if (o.command == "config-keys")
            return o.markdown ? configKeysMarkdown() : configKeys();
        throw UsageError("unknown command '" + o.command + "'");
    } catch (const SpaceError& e) {
        reportError(std::string("bad search space: ") + e.what());
        return 2;
    } catch (const ConfigError& e) {
        reportError(std::string("bad configuration: ") + e.what());
        return 2;
    } catch (const StoreError& e) {
        reportError(e.what());
        return 2;
    } catch (const UsageError& e) {
        reportError(e.what());
        std::cerr << usageAfterError(e.command().empty() ? o.command : e.command());
        return 2;
    } catch (const std::exception& e) {
        reportError(e.what());
        return 1;
    }
}

} // namespace entrena::cli
