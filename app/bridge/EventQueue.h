#pragma once

#include "entrena/train/Events.h"

#include <functional>
#include <mutex>
#include <variant>
#include <vector>

namespace entrena::app {

using TrainingEvent = std::variant<StartEvent, StepEvent, EpochEvent, NoticeEvent, EndEvent>;

/// The hand-over point between the training thread and the GUI thread.
///
/// The trainer's observer calls only push(), which appends under a mutex and returns: training
/// never waits for the GUI. When the queue turns non-empty, `wake` is called once (it posts a
/// queued call); the GUI thread then takes every waiting event in one batch with takeAll().
class EventQueue : public TrainingObserver {
public:
    explicit EventQueue(std::function<void()> wake) : wake_(std::move(wake)) {}

    std::vector<TrainingEvent> takeAll();

    void onStart(const StartEvent& e) override { push(e); }
    void onStep(const StepEvent& e) override { push(e); }
    void onEpoch(const EpochEvent& e) override { push(e); }
    void onNotice(const NoticeEvent& e) override { push(e); }
    void onEnd(const EndEvent& e) override { push(e); }

private:
    void push(TrainingEvent e);

    std::function<void()> wake_;
    std::mutex mutex_;
    std::vector<TrainingEvent> events_;
};

} // namespace entrena::app
