#pragma once
// The divergence guard (train.divergence_guard, see TrainSpec): on a NaN, infinite or spiking
// training loss, go back to the last good state with the learning rate cut; after
// train.max_rollbacks, end the run `diverged`. On a GPU, and in data-parallel runs, the loss is
// read at the log interval only, so that guarding costs no synchronisation per step.

#include "store/CheckpointFile.h"
#include "train/Snapshot.h"

#include <deque>
#include <optional>
#include <string>

namespace entrena {

struct TrainSpec;

class DivergenceGuard {
public:
    DivergenceGuard(const TrainSpec& spec, bool checkEveryStep, Model& model, torch::optim::Optimizer& optimizer,
                    const torch::Device& device, TrainingState& state);

    /// Whether the step about to end has its loss checked (`logStep`: it is reported).
    bool checks(bool logStep) const { return checkEveryStep_ || (enabled_ && logStep); }

    struct Rollback {
        std::string message; ///< why, and where the run went back to
    };
    /// Checks the loss of step `step` (not yet counted). Fine: nothing. Bad: the model and optimizer
    /// are back at the last good state and the rate's multiplier is cut; returns what happened.
    /// Bad once too often: diverged() is set and nothing is restored.
    std::optional<Rollback> check(double loss, int64_t step);
    /// After a step is taken: a new good state when its loss was checked and enough steps passed.
    void stepTaken(int64_t step, int64_t logEvery);

    bool diverged() const { return !divergedWhy_.empty(); }
    /// What the run's error says when it diverged.
    const std::string& divergedWhy() const { return divergedWhy_; }

private:
    const TrainSpec& spec_;
    bool enabled_;
    bool checkEveryStep_;
    Model& model_;
    torch::optim::Optimizer& optimizer_;
    torch::Device device_;
    TrainingState& state_;
    Snapshot good_;
    std::deque<double> recent_;
    double first_ = 0; ///< the first finite loss checked
    int rollbacks_ = 0;
    std::string divergedWhy_;
};

/// A loss this many times the run's first (or 1, whichever is larger) has exploded, whatever
/// train.divergence_spike says: a cross-entropy of 10⁴ or more means logits in the thousands.
constexpr double kExplodedFactor = 1e4;

/// Why a step's loss means the run is diverging ("" if it does not): not finite; exploded, above
/// kExplodedFactor × max(`first`, 1) (`first` ≤ 0: not known yet); or above `spike` times the median
/// of `recent` (when there are at least 20). A short run (a sweep's trial) has too few losses for the
/// median, and climbed to 5·10¹⁵ unseen before the explosion rule.
std::string divergenceReason(double loss, const std::deque<double>& recent, double spike, double first = 0);

} // namespace entrena
