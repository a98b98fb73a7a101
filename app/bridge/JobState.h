#pragma once
// What a job's work (on a pool thread) hands to its Job (on the runner's thread): progress in
// order, then one outcome, under one mutex. A single queued delivery drains it all, so progress
// costs the work a lock and an append, and a burst of progress costs the GUI one call.

#include "entrena/train/Events.h"

#include <QString>
#include <QVariant>
#include <mutex>
#include <vector>

namespace entrena::app {

class Job;

namespace detail {

struct JobState {
    enum class Outcome { None, Finished, Failed, Cancelled };

    StopToken stop;
    std::mutex mutex;
    Job* owner = nullptr; ///< where deliveries go; null once the job or its runner is gone
    bool posted = false;  ///< a delivery is queued and has not run yet
    bool started = false; ///< the work has begun on a pool thread
    std::vector<QVariant> progress;
    Outcome outcome = Outcome::None;
    QVariant result;
    QString error;

    /// With `mutex` held: queues one delivery to the owner unless one is already queued.
    void postLocked();
    /// No more deliveries: what the work still hands over is dropped.
    void detach();
};

} // namespace detail
} // namespace entrena::app
