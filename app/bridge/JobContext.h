#pragma once

#include "JobState.h"

#include <QVariant>

namespace entrena::app {

/// What a job's work sees of its job, on the pool thread that runs it: whether it was asked to
/// stop, and a way to report progress that never waits for the GUI thread.
class JobContext {
public:
    explicit JobContext(detail::JobState& state)
        : state_(state)
    {
    }

    bool isCancelled() const { return state_.stop.stopRequested(); }
    /// For the engine's long calls (findBatchSize, findLearningRate, …), which poll it.
    const StopToken& stopToken() const { return state_.stop; }

    /// Queues `value` for the job's progress() signal, in order, on the runner's thread. Returns
    /// at once: values reported faster than the GUI takes them arrive together in one delivery.
    void progress(QVariant value);
    template <class T>
    void progress(const T& value)
    {
        progress(QVariant::fromValue(value));
    }

private:
    detail::JobState& state_;
};

} // namespace entrena::app
