#include "EventQueue.h"

namespace entrena::app {

void EventQueue::push(TrainingEvent e)
{
    bool wasEmpty;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        wasEmpty = events_.empty();
        events_.push_back(std::move(e));
    }
    if (wasEmpty && wake_)
        wake_();
}

std::vector<TrainingEvent> EventQueue::takeAll()
{
    std::vector<TrainingEvent> out;
    std::lock_guard<std::mutex> lock(mutex_);
    out.swap(events_);
    return out;
}

} // namespace entrena::app
