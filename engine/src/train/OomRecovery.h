#pragma once
// What happens when a step runs out of memory (train.oom_recovery): TrainStep retries it with half
// the micro-batch; this decides whether that is allowed, remembers the split for checkpoints and
// records the `oom_retry` event.

#include "train/TrainStep.h"

namespace entrena {

class Recorder;
struct TrainSpec;
struct TrainingState;

class OomRecovery {
public:
    OomRecovery(const TrainSpec& spec, bool distributed, TrainingState& state, Recorder& recorder)
        : spec_(spec)
        , distributed_(distributed)
        , state_(state)
        , recorder_(recorder)
    {
    }

    /// TrainStep's retry handler. Throws std::runtime_error when recovery is off or impossible.
    void operator()(const OomRetry& retry, const TrainStep& step);

private:
    const TrainSpec& spec_;
    bool distributed_;
    TrainingState& state_;
    Recorder& recorder_;
};

} // namespace entrena
