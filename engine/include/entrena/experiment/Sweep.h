#pragma once
// A sweep: many trials of one base configuration, each a normal run in the store, chosen by a
// method (grid, random, TPE), stopped early when they fall behind (ASHA), or trained side by side
// and copied from the best (population-based training). Trials run as `entrena-cli train`
// processes, `parallel` at a time. docs/experiments.md explains the methods.

#include "entrena/config/ParamBlock.h"
#include "entrena/experiment/SearchSpace.h"
#include "entrena/train/Events.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace entrena {

class RunStore;
class TrialServer;

struct SweepSettings {
    std::string method = "random";       ///< a sweep method's name (SweepMethodRegistry.h); registry-default
    int trials = 0;                      ///< 0: grid every combination, pbt 4, otherwise 10
    int parallel = 0;                    ///< trials at once (0: one per listed GPU, else 1)
    std::string metric = "val_accuracy"; ///< val_accuracy (higher is better) | val_loss (lower is better)
    std::string name;                    ///< "" : the base configuration's name and the method
    uint64_t seed = 1;                   ///< the sampler's
    int minEpochs = 1;                   ///< asha: the first rung's epochs
    int reduction = 3;                   ///< asha: each rung keeps the top 1/reduction
    int interval = 1;                    ///< pbt: epochs between exploits
    double quantile = 0.25;              ///< pbt: the bottom share copies from the top share
    int shard = 0, shards = 1;           ///< grid, random: run only trials shard, shard + shards, … (a job array task)
    bool keepPruned = false;             ///< keep pruned trials' checkpoints when the sweep ends (else deleted)
    int cv = 0;                          ///< sweep --cv K: each trial is K fold runs, valued by their mean (0: one run)
    bool cvStratify = true;              ///< sweep --cv: folds keep each class's share
    /// The own settings of methods registered from outside the engine (registerSweepMethod), by key:
    /// each such method's parameter block, read and written through its entry's keys like the
    /// fields above, and stored with the experiment under the same keys.
    ParamBlock params;

    /// A setting of the block: the value given, else its method's default (the entry's `blockDefaults`).
    /// Throws std::logic_error for a key no method declares.
    OptionValue param(const std::string& key) const;

    std::string toJson() const;
    static SweepSettings fromJson(const std::string& text);
};

/// A sweep ready to run: checked, with its defaults filled in.
struct SweepPlan {
    RunConfig base;
    SearchSpace space;
    SweepSettings settings;
    int maxEpochs() const { return base.train.epochs; }
};

/// Checks everything before anything runs or is stored: the space against the configuration, the
/// method's needs (grid takes only choices; pbt cannot copy weights between different models), the
/// parallelism against the devices. Throws SpaceError (or ConfigError) naming the problem.
SweepPlan planSweep(const RunConfig& base, const std::string& spaceJson, SweepSettings settings, int cores);

/// What a sweep tells the outside world (on its own thread).
class SweepObserver {
public:
    virtual ~SweepObserver() = default;
    virtual void onSweepStart(int64_t /*experiment*/, const std::string& /*method*/, int /*trials*/) {}
    virtual void onTrialStart(int /*trial*/, int64_t /*runId*/, const TrialParams& /*params*/) {}
    /// `metric`: the trial's best value of the sweep's metric; `epochs`: the epochs it trained.
    virtual void onTrialEnd(int /*trial*/, int64_t /*runId*/, RunStatus /*status*/, std::optional<double> /*metric*/,
                            int /*epochs*/)
    {
    }
    /// pbt: `trial` took the weights and optimizer state of `sourceRun` at `step`, and `params`.
    virtual void onExploit(int /*trial*/, int64_t /*runId*/, int64_t /*sourceRun*/, int64_t /*step*/,
                           const TrialParams& /*params*/)
    {
    }
    /// A line of the trials' own error output (their stderr), to show or log.
    virtual void onTrialError(int /*trial*/, const std::string& /*line*/) {}
};

struct SweepResult {
    int64_t experiment = 0;
    std::string status; ///< finished | stopped | failed
    int64_t bestRun = 0;
    TrialParams bestParams;
    std::optional<double> bestMetric;
    int trials = 0;
    int pruned = 0;
    int failed = 0;
};

/// How trials are started: the program (entrena-cli) and the store they write to.
struct SweepLaunch {
    std::string program;
    std::string dbPath;
    int cores = 1; ///< CPU cores to divide among parallel trials
    /// A trial server started ahead of the sweep (startTrialServer); none: the sweep starts its own.
    std::shared_ptr<TrialServer> server;
};

/// Starts the trial server for a sweep of `base` now, so that it loads LibTorch (over half a second)
/// while this process checks the data and opens the store: give it to the sweep as
/// SweepLaunch::server. Null where it cannot start or ENTRENA_TRIAL_EXEC is set; the sweep then
/// starts trials its own way.
std::shared_ptr<TrialServer> startTrialServer(const SweepLaunch& launch, const RunConfig& base);

/// Runs a planned sweep as a new experiment in `store`. A stop request stops the running trials
/// (each saves a checkpoint) and leaves the experiment `stopped`, to resume.
SweepResult runSweep(RunStore& store, const SweepPlan& plan, SweepObserver& observer, const StopToken& stop,
                     const SweepLaunch& launch);

/// Continues an experiment (id or name) with its stored plan: trials that were running go on from
/// their checkpoints, finished ones are kept, and it ends with the trials it would have had.
/// Throws std::runtime_error when there is no such experiment.
SweepResult resumeSweep(RunStore& store, const std::string& experiment, SweepObserver& observer, const StopToken& stop,
                        const SweepLaunch& launch);

/// The trial server's loop (`entrena-cli trial-server`, started by a sweep; docs/experiments.md,
/// "How trials run"): forks a trial for each request arriving on `socket` until it closes; each
/// trial runs `run(args)` (the command line after the program's name) and exits with its result.
/// Returns the server's exit status.
int serveTrials(int socket, const std::function<int(const std::vector<std::string>&)>& run);

} // namespace entrena
