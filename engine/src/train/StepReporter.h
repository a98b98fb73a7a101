#pragma once
// The `step` event every train.log_every steps: the loss and rate, throughput over the interval,
// where the interval's time went (PhaseClock), model-FLOP utilisation against the measured
// matrix-multiply ceiling, and memory. Its own cost counts as the interval's logging time.

#include "entrena/config/Choices.h"
#include "entrena/train/Events.h"
#include "train/PhaseClock.h"

#include <chrono>
#include <cstdint>
#include <vector>

namespace entrena {

class GradReducer;
class Recorder;
class TrainStep;

class StepReporter {
public:
    /// `flopsPerSample` 0: no utilisation (TorchScript, tables). `metered`: report each step's peak
    /// tensor memory (train.memory_budget_mb is set).
    StepReporter(Recorder& recorder, PhaseClock& clock, const torch::Device& device, Precision precision, int world,
                 double flopsPerSample, TrainStep& step, GradReducer* reducer, bool metered);

    /// A new interval starts here (an epoch's start).
    void beginInterval();
    /// One optimizer step of `samples` (this rank's) is done.
    void countStep(int64_t samples)
    {
        samples_ += samples;
        ++steps_;
    }
    /// Reports the interval that ends with `step`; `rankMemory` from the ranks' exchange (or empty).
    /// Throws std::runtime_error when the loss reported is not finite (the guard is off).
    void report(int64_t step, int epoch, double loss, double lr, std::vector<int64_t> rankMemory);

    /// Seconds spent reporting, over the run.
    double loggingSeconds() const { return logging_; }

private:
    void measureUtilisation(StepEvent& e);

    Recorder& recorder_;
    PhaseClock& clock_;
    torch::Device device_;
    Precision precision_;
    int world_;
    double flopsPerSample_;
    TrainStep& step_;
    GradReducer* reducer_;
    bool metered_;
    double ceiling_ = 0;
    bool ceilingChecked_ = false; ///< re-measured once if the run outdoes it
    std::chrono::steady_clock::time_point start_;
    int64_t samples_ = 0;
    int64_t steps_ = 0;
    double logging_ = 0;
};

} // namespace entrena
