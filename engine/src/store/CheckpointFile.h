#pragma once
// A checkpoint file: its format, writing and reading it, and TrainingState, what it restores. When to
// write one is train/Checkpointer's; where, the store's (RunStore::runFolder).

#include "entrena/optim/LrScheduler.h"
#include "entrena/store/Checkpoints.h"
#include "model/Model.h"

#include <string>
#include <torch/torch.h>

namespace entrena {

/// Where a run stands, exactly enough to continue it as if it had never stopped.
struct TrainingState {
    int64_t step = 0;         ///< optimizer steps done
    int epoch = 1;            ///< the epoch in progress (or about to start)
    int64_t batchInEpoch = 0; ///< micro-batches of `epoch` already trained
    double epochLossSum = 0;  ///< over the samples of `epoch` so far
    int64_t epochSamples = 0;
    int64_t samplesSeen = 0;
    double trainSeconds = 0;
    double bestVal = -1;
    double earlyBest = 0;       ///< early stopping: best metric so far
    int64_t earlyBadEpochs = 0; ///< early stopping: epochs without improvement
    bool earlyStarted = false;
    double lossScale = 65536.0; ///< fp16 dynamic loss scale
    int64_t lossScaleGoodSteps = 0;
    double lrScale = 1.0; ///< the divergence guard's cuts to the scheduled rate, multiplied
    int microSplit = 1;   ///< OOM recovery: each loaded batch is trained in this many pieces
    LrScheduler::State scheduler;
};

struct WrittenCheckpoint {
    int64_t bytes = 0;
    std::string checksum;
};

/// Writes model, optimizer, state and the global RNG to `path` atomically (temporary file, then rename).
WrittenCheckpoint writeCheckpoint(const std::string& path, const Model& model, torch::optim::Optimizer& optimizer,
                                  const TrainingState& state);

/// Loads a checkpoint into `model` and `optimizer` and returns its state. When `expectedChecksum` is
/// not empty the file must match it. Throws CheckpointError naming the problem.
TrainingState readCheckpoint(const std::string& path, const std::string& expectedChecksum, Model& model,
                             torch::optim::Optimizer& optimizer);

/// Loads only the model's tensors from a checkpoint into `model`, with the same checks as
/// readCheckpoint. Throws CheckpointError naming the problem.
void loadModelWeights(const std::string& path, const std::string& expectedChecksum, Model& model);

/// The model's named tensors as stored in a checkpoint (names as in PyTorch's state_dict).
/// When `expectedChecksum` is not empty the file must match it. Throws CheckpointError naming the problem.
std::vector<std::pair<std::string, torch::Tensor>> checkpointTensors(const std::string& path,
                                                                     const std::string& expectedChecksum = {});

} // namespace entrena
