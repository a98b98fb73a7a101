#pragma once
// One optimizer step's forward and backward passes over its samples, timed by phase, and retried
// with smaller micro-batches when the step runs out of memory (OOM recovery, see TrainSpec).

#include "data/BatchLoader.h"
#include "entrena/config/Choices.h"
#include "entrena/train/Events.h"
#include "system/MemoryMeter.h"
#include "train/PhaseClock.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <torch/torch.h>
#include <utility>
#include <vector>

namespace entrena {

/// Raised inside a step that ran out of memory, either truly (LibTorch's allocator failed) or
/// because its measured peak went over train.memory_budget_mb.
struct OutOfMemory {
    std::string cause;
};

/// One retry after running out of memory, as the `oom_retry` event describes it.
struct OomRetry {
    int64_t fromMicroBatch = 0, toMicroBatch = 0;
    int fromAccumulate = 0, toAccumulate = 0;
    std::string cause;
    std::string describe() const;
};

class GradReducer;
class MlpStep;
class Model;
struct TrainSpec;

/// The training loss of a batch: the model's forward pass under the run's autocast precision,
/// then the task's loss in fp32 (classification: cross-entropy with the run's label smoothing),
/// weighted per class by `classWeights` when given (data.balance weights: a batch's loss is then the
/// weighted mean, as PyTorch's).
std::function<torch::Tensor(const torch::Tensor&, const torch::Tensor&)>
makeLossFn(Model& model, const torch::Device& device, const TrainSpec& train, Task task, const torch::Tensor& classWeights = {});

/// True for LibTorch's out-of-memory errors: c10::OutOfMemoryError in LibTorch 2.x, a
/// c10::Error whose message says "out of memory" in 1.13.
bool isOutOfMemory(const c10::Error& error);

class TrainStep {
public:
    using LossFn = std::function<torch::Tensor(const torch::Tensor&, const torch::Tensor&)>;

    /// `batchSize` and `accumulate` as configured; `split` pieces per loaded batch to start with
    /// (a resumed run's); `meter` and `budget` are set when train.memory_budget_mb is.
    TrainStep(LossFn loss, torch::optim::Optimizer& optimizer, const torch::Device& device, int64_t batchSize, int accumulate,
              int split, MemoryMeter* meter, std::optional<int64_t> budget, GradReducer* reducer = nullptr);
    ~TrainStep();

    /// Zeroes the gradients, then forward and backward over every sample of `group`, each loaded
    /// batch in split() pieces, the loss of each piece weighted by its share of the step's samples
    /// and multiplied by `lossScale`. Out of memory: frees what the step held, doubles the split
    /// (halving the micro-batch, doubling accumulation: the same samples make the same step) and
    /// tries again, calling `onRetry`; throws std::runtime_error when a single sample does not fit.
    /// In a data-parallel run (`reducer` given) the last backward's gradients are averaged over
    /// the ranks as it runs; the wait for what remains of that counts as `comm`.
    /// Returns the step's mean loss, on the device, not synchronised.
    torch::Tensor run(const std::vector<Batch>& group, double lossScale, PhaseClock& clock,
                      const std::function<void(const OomRetry&)>& onRetry);

    /// From now on a step of one micro-batch goes through `fast` (the hand-written MLP step) when the
    /// batch suits it, instead of the loss and backward(). TrainingRun gives none to a run with a memory
    /// budget: its meter sees LibTorch's allocations, and that step keeps its activations outside them.
    void useMlpStep(std::unique_ptr<MlpStep> fast);
    /// Whether it was given one.
    bool hasMlpStep() const { return fast_ != nullptr; }
    /// Whether to take it (on by default), or autograd instead: the run measures which is faster
    /// (train/PathChoice.h).
    void preferMlpStep(bool on) { fastOn_ = on; }

    int split() const { return split_; }
    int64_t microBatch() const { return (batchSize_ + split_ - 1) / split_; }
    int accumulate() const { return accumulate_ * split_; }
    /// The largest memory of the steps taken since the last call (0 without a meter).
    int64_t takePeakBytes() { return std::exchange(peakBytes_, 0); }

private:
    torch::Tensor attempt(const std::vector<Batch>& group, int64_t samples, double lossScale, PhaseClock& clock);
    void release();

    LossFn loss_;
    torch::optim::Optimizer& optimizer_;
    torch::Device device_;
    int64_t batchSize_;
    int accumulate_;
    int split_;
    MemoryMeter* meter_;
    std::optional<int64_t> budget_;
    GradReducer* reducer_;
    int64_t peakBytes_ = 0;
    std::unique_ptr<MlpStep> fast_;
    bool fastOn_ = true;
};

} // namespace entrena
