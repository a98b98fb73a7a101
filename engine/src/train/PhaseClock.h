#pragma once
// Times the parts of training steps. On the CPU a part is the wall time between two marks: the
// work is synchronous. On CUDA kernels run asynchronously and host time would measure their
// launches, so each mark records a CUDA event on the device's stream instead, and the times
// between consecutive events are read once per log interval, after the last event completed:
// measuring adds no synchronisation to a step.

#include "entrena/train/Events.h"

#include <chrono>
#include <memory>
#include <torch/torch.h>
#include <vector>

namespace entrena {

class PhaseClock {
public:
    using Part = double PhaseTimes::*;

    explicit PhaseClock(const torch::Device& device);
    ~PhaseClock();
    PhaseClock(const PhaseClock&) = delete;
    PhaseClock& operator=(const PhaseClock&) = delete;

    /// Starts a new interval here; what was marked and not collected is dropped.
    void begin();
    /// The time since the previous mark (or begin) belongs to `part`.
    void mark(Part part);
    /// As mark(), at `when` (a time taken on the CPU inside the part's work, which the CPU did
    /// synchronously); on CUDA the same as mark().
    void markAt(Part part, std::chrono::steady_clock::time_point when);
    /// The parts' seconds since begin(), summed; then a new interval starts at the last mark.
    /// On CUDA this waits for the last mark's event (the log step synchronises anyway).
    PhaseTimes collect();

private:
    bool cuda_ = false;
    std::chrono::steady_clock::time_point last_;
    PhaseTimes host_;
    struct Events; ///< CUDA: the interval's events and the part each one ends
    std::unique_ptr<Events> events_;
};

} // namespace entrena
