#pragma once
// Learning-rate schedules with PyTorch's semantics (torch.optim.lr_scheduler), in plain C++
// so that the GUI can preview a schedule without LibTorch.

#include "entrena/config/Config.h"
#include "entrena/config/Registry.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace entrena {

/// Produces the learning rate for each optimizer step, through the schedule's registry entry
/// (its rate function; config/Registry.h).
///
/// Epoch schedulers (step, multistep, exponential, cosine) change the rate when an epoch ends,
/// as PyTorch's do when `scheduler.step()` is called once per epoch; reduce_on_plateau changes it
/// when an epoch's metric stops improving. A linear warm-up, when configured, scales the rate
/// by (s + 1) / warmup_steps for optimizer steps s = 0 … warmup_steps − 1.
class LrScheduler {
public:
    /// `runSteps`: the run's optimizer steps (one_cycle's default total_steps).
    /// Throws ConfigError when one_cycle's total_steps is shorter than the run.
    LrScheduler(const SchedulerSpec& spec, double baseLr, int epochs, int64_t runSteps = 0);

    /// The rate the next optimizer step applies.
    double lr() const;
    /// one_cycle with cycle_momentum: the momentum (SGD) or beta1 (Adam) the next step applies;
    /// otherwise a negative number (leave the optimizer's own).
    double momentum() const;
    /// Call after each optimizer step.
    void stepBatch() { ++steps_; }
    /// Call when an epoch ends, with the value of spec.metric for that epoch.
    /// Returns true when reduce_on_plateau lowered the rate.
    bool stepEpoch(double metric);

    /// Everything that determines the schedule's future, for checkpoints.
    struct State {
        int64_t steps = 0;
        int64_t epochs = 0;
        double plateauLr = 0;
        double best = 0;
        int64_t numBadEpochs = 0;
        int64_t cooldownCounter = 0;
    };
    State state() const { return {steps_, epochs_, plateauLr_, best_, numBadEpochs_, cooldownCounter_}; }
    void restore(const State& s)
    {
        steps_ = s.steps;
        epochs_ = s.epochs;
        plateauLr_ = s.plateauLr;
        best_ = s.best;
        numBadEpochs_ = s.numBadEpochs;
        cooldownCounter_ = s.cooldownCounter;
    }

    int64_t optimizerSteps() const { return steps_; }
    int64_t epochsDone() const { return epochs_; }

    /// The planned curve for a run (one value per optimizer step), assuming the metric never
    /// stops improving: what a preview chart shows.
    static std::vector<double> plannedCurve(const SchedulerSpec& spec, double baseLr, int epochs,
                                            int64_t stepsPerEpoch);

private:
    ScheduleClock clock() const;

    SchedulerSpec spec_;
    const SchedulerEntry* entry_;
    double baseLr_;
    int totalEpochs_;
    int64_t cycleSteps_ = 0;
    int64_t steps_ = 0;
    int64_t epochs_ = 0;
    // reduce_on_plateau state, named as in PyTorch.
    double plateauLr_;
    double best_;
    int64_t numBadEpochs_ = 0;
    int64_t cooldownCounter_ = 0;
};

} // namespace entrena
