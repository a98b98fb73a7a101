#include "JobState.h"

#include "Job.h"

#include <QMetaObject>

namespace entrena::app::detail {

void JobState::postLocked()
{
    // The owner cannot be destroyed meanwhile: ~Job detaches under the same mutex. If it is
    // destroyed before the queued call runs, Qt discards the call with it.
    if (posted || !owner)
        return;
    posted = true;
    Job* job = owner;
    QMetaObject::invokeMethod(
        job, [job] { job->deliver(); }, Qt::QueuedConnection);
}

void JobState::detach()
{
    const std::lock_guard<std::mutex> lock(mutex);
    owner = nullptr;
}

} // namespace entrena::app::detail
