#include "JobContext.h"

namespace entrena::app {

void JobContext::progress(QVariant value)
{
    const std::lock_guard<std::mutex> lock(state_.mutex);
    if (!state_.owner)
        return; // nobody will read it
    state_.progress.push_back(std::move(value));
    state_.postLocked();
}

} // namespace entrena::app
