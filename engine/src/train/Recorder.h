#pragma once

#include "entrena/train/Events.h"

namespace entrena {

class RunStore;

/// Fans the run's events out to the observer and, when the run is stored, to the run store.
class Recorder {
public:
    Recorder(TrainingObserver& observer, RunStore* store)
        : observer_(observer)
        , store_(store)
    {
    }

    int64_t runId = 0;

    void step(const StepEvent& e);
    void epoch(const EpochEvent& e, int64_t step);
    void notice(const NoticeEvent& e);

private:
    TrainingObserver& observer_;
    RunStore* store_;
};

} // namespace entrena
