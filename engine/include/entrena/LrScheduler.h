#pragma once
// Learning-rate schedules with PyTorch's semantics (torch.optim.lr_scheduler), in plain C++
// so that the GUI can preview a schedule without LibTorch.

#include "entrena/Config.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace entrena {

/// Produces the learning rate for each optimizer step.
///
/// Epoch schedulers (step, multistep, exponential, cosine) change the rate when an epoch ends,
/// as PyTorch's do when `scheduler.step()` is called once per epoch; reduce_on_plateau changes it
/// when an epoch's metric stops improving. A linear warm-up, when configured, scales the rate
/// by (s + 1) / warmup_steps for optimizer steps s = 0 … warmup_steps − 1.
class LrScheduler {
public:
    LrScheduler(const SchedulerSpec& spec, double baseLr, int epochs);

    /// The rate the next optimizer step applies.
    double lr() const;
    /// Call after each optimizer step.
    void stepBatch() { ++steps_; }
    /// Call when an epoch ends, with the value of spec.metric for that epoch.
    /// Returns true when reduce_on_plateau lowered the rate.
    bool stepEpoch(double metric);

    int64_t optimizerSteps() const { return steps_; }
    int64_t epochsDone() const { return epochs_; }

    /// The planned curve for a run (one value per optimizer step), assuming the metric never
    /// stops improving: what a preview chart shows.
    static std::vector<double> plannedCurve(const SchedulerSpec& spec, double baseLr, int epochs,
                                            int64_t stepsPerEpoch);

private:
    double epochRate() const;

    SchedulerSpec spec_;
    double baseLr_;
    int totalEpochs_;
    int64_t steps_ = 0;
    int64_t epochs_ = 0;
    // reduce_on_plateau state, named as in PyTorch.
    double plateauLr_;
    double best_;
    int64_t numBadEpochs_ = 0;
    int64_t cooldownCounter_ = 0;
};

} // namespace entrena
