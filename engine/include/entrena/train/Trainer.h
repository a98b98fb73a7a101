#pragma once

#include "entrena/config/Config.h"
#include "entrena/dist/Distributed.h"
#include "entrena/train/Events.h"

#include <optional>
#include <stdexcept>
#include <string>

namespace entrena {

class DistGroup;
class RunStore;
struct ResumePoint;

/// What a finished call of Trainer::run returns: the same as its `end` event, plus the run id.
struct RunResult {
    int64_t runId = 0;
    EndEvent end;
};

/// A run that cannot be resumed (unknown, still running, finished, no usable checkpoint).
/// Nothing was changed in the store.
class ResumeError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Trains one configuration on this process's device.
///
/// run() never throws for problems of the run itself (a missing data file, a failing step):
/// they end the run as `failed` with a message, which is stored and sent in the `end` event.
class Trainer {
public:
    explicit Trainer(RunConfig config);

    /// Makes this process one rank of a data-parallel run (env.worldSize > 1; see Distributed.h).
    /// run() then first meets the other ranks and throws DistributedError when it cannot (before
    /// anything is stored). Every rank trains on its shard of each epoch and reports to its
    /// observer; only rank 0 records the run in its store and writes checkpoints.
    void setRank(const RankEnv& env) { rank_ = env; }

    /// Records the run as trial `trial` of experiment `experiment` as soon as it is created (a sweep's
    /// trial process), so that a sweep killed at any moment finds all its trials.
    void setTrial(int64_t experiment, int64_t trial) { trial_ = std::make_pair(experiment, trial); }

    /// Trains until the configured epochs or steps are done or `stop` is requested.
    /// When `store` is given, the run is recorded there (created, metrics, checkpoints, status).
    /// With `checkpoints`, the run's checkpoints and evaluation images go to its own folder of the
    /// store (RunStore::runFolder).
    RunResult run(TrainingObserver& observer, const StopToken& stop, RunStore* store = nullptr, bool checkpoints = false);

    /// Continues a stored run (by id or name) from its latest checkpoint, with its stored
    /// configuration, in the same run record. The result equals that of a run never interrupted.
    /// Throws ResumeError before anything is changed when the run cannot be resumed.
    static RunResult resume(const std::string& idOrName, TrainingObserver& observer, const StopToken& stop, RunStore& store);

private:
    RunResult execute(TrainingObserver& observer, const StopToken& stop, RunStore* store, bool checkpoints,
                      const ResumePoint* resume, DistGroup* group);

    RunConfig config_;
    std::optional<RankEnv> rank_;
    std::optional<std::pair<int64_t, int64_t>> trial_;
};

} // namespace entrena
