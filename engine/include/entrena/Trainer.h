#pragma once

#include "entrena/Config.h"
#include "entrena/Events.h"

#include <string>

namespace entrena {

class RunStore;

/// What a finished call of Trainer::run returns: the same as its `end` event, plus the run id.
struct RunResult {
    int64_t runId = 0;
    EndEvent end;
};

/// Trains one configuration on this process's device.
///
/// run() never throws for problems of the run itself (a missing data file, a failing step):
/// they end the run as `failed` with a message, which is stored and sent in the `end` event.
class Trainer {
public:
    explicit Trainer(RunConfig config);

    /// Trains until the configured epochs or steps are done or `stop` is requested.
    /// When `store` is given, the run is recorded there (created, metrics, checkpoints, status).
    /// Checkpoints go to `checkpointDir`/run-ID/ ("": no checkpoints).
    RunResult run(TrainingObserver& observer, const StopToken& stop, RunStore* store = nullptr,
                  const std::string& checkpointDir = {});

private:
    RunConfig config_;
};

} // namespace entrena
