// `entrena-cli train` (docs/cli.md): a run in this process, one rank of a data-parallel run, or the
// ranks started and supervised here (--nproc).
#include "Commands.h"
#include "ErrorReport.h"
#include "JsonEvents.h"
#include "ProgressPrinter.h"
#include "StopOnSignals.h"
#include "entrena/dist/Distributed.h"
#include "entrena/dist/Launcher.h"
#include "entrena/store/RunStore.h"
#include "entrena/train/Trainer.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>

namespace entrena::cli {
namespace {

namespace fs = std::filesystem;

struct TrainOptions : ConfigOptions {
    std::string db;
    bool json = false;
    std::string resume; ///< a run to continue
    int nproc = 0;      ///< ranks to start here
};

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
int launchRanks(const TrainOptions& o, const Invocation& call, const RunConfig& config, int nproc)
{
    checkDevicesForRanks(config, nproc);
    LaunchSpec spec;
    spec.program = fs::read_symlink("/proc/self/exe").string();
    for (size_t i = 0; i < call.args.size(); ++i) {
        if (call.args[i] == "--nproc") {
            ++i;
            continue;
        }
        if (call.args[i].rfind("--nproc=", 0) != 0)
            spec.args.push_back(call.args[i]);
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
            RunStore(dbPath(o.db)).failRunOwnedBy(pids.front(), error);
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
int train(const TrainOptions& o, const Invocation& call)
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
                return launchRanks(o, call, *config, nproc);
            } catch (const DistributedError& e) {
                reportError(e.what());
                return 2;
            }
        }
    }
    const bool leader = !rank || rank->rank == 0; // only rank 0 opens the store
    const std::string who = leader ? "" : "rank " + std::to_string(rank->rank) + ": ";
    std::optional<RunStore> store;
    if (leader) {
        store.emplace(dbPath(o.db));
        store->requireWritable(o.resume.empty() ? "train" : "resume a run");
    }

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

Runner declare(CLI::App& app)
{
    auto o = std::make_shared<TrainOptions>();
    declareConfig(app, *o);
    declareDb(app, o->db);
    declareJson(app, o->json);
    text(app, "--resume", "RUN", o->resume,
         "continue a stopped or interrupted run (id or name) from its latest checkpoint, with its stored configuration");
    whole(app, "--nproc", "N", o->nproc, 1,
          "train with N data-parallel ranks on this machine (CPU processes, or one per listed GPU)");
    afterParse(app, [o] {
        if (!o->resume.empty() && o->nproc > 1)
            throw UsageError("--resume continues a run in one process; leave out --nproc", "train");
        if (o->config.empty() && o->resume.empty())
            throw UsageError("train needs --config FILE (or --resume RUN)", "train");
    });
    return [o](const Invocation& call) { return train(*o, call); };
}

} // namespace

CommandInfo trainCommand()
{
    return {"train", "--config FILE [--set k=v]... [--db FILE] [--json] [--resume RUN] [--nproc N]",
            "train a model and record the run in the run store",
            "On a terminal a progress bar on stderr shows throughput and the time left; stdout gets a line per "
            "epoch and one at the end, so 'entrena-cli train --config C > log' keeps the log clean. Under torchrun "
            "or srun each process is one rank. SIGINT or SIGTERM stops after the current step with a checkpoint "
            "(exit 0). Exit status: 0 finished or stopped, 1 failed or diverged, 2 bad command line or "
            "configuration.",
            &declare};
}

} // namespace entrena::cli
