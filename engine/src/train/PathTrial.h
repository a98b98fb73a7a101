#pragma once
// Measuring Entrena's own paths against ATen's before a run's first step, and this machine's cache of
// the answers (train/PathChoice.h has the rule).
//
// The trial runs forward and backward of the run's first batch through the run's own model and step,
// switching each path's side as PathChoice says, and the optimizer's update on copies of the
// parameters; then the model's buffers (batch norm's statistics) and the random generator are put back
// and the gradients dropped, so that training starts exactly where it would have without the trial.
// The answer is cached per CPU, thread count, BLAS kernel and model ($XDG_CACHE_HOME/entrena/paths.json):
// later runs on this machine take it without measuring, so that two runs with the same seed make the
// same steps (a path and ATen's agree to rounding, not to the bit).

#include "data/BatchLoader.h"
#include "train/PathChoice.h"
#include "train/TrainStep.h"

#include <functional>
#include <string>
#include <torch/torch.h>
#include <vector>

namespace entrena {

class Model;
struct RunConfig;

struct PathTrialParts {
    TrainStep& step;
    Model& model;
    torch::optim::Optimizer& optimizer;
    torch::Device device;
    std::function<Batch()> firstBatch; ///< the run's first batch, drawn only when a path is measured
    bool useCache;                     ///< false for a data-parallel rank: the ranks measure together
    bool measure;                      ///< false under train.memory_budget_mb: the trial's copies would count
    std::string signature;             ///< the model and batch the answer holds for (pathSignature)
};

/// What an answer depends on besides the machine: the parameters' shapes, the batch size, precision.
std::string pathSignature(Model& model, const RunConfig& config);

/// Adds each of `candidates` to `choice`: forced, cached, or measured here (those that do not run on
/// this batch after all are left out). Measured answers are cached when parts.useCache.
/// Data-parallel (choice has an agreement): a path is measured only where it runs on every rank, so
/// that the ranks time the same steps and meet at the same collectives.
void measurePaths(PathChoice& choice, const std::vector<PathChoice::Path>& candidates, PathTrialParts parts,
                  const std::function<void(const OomRetry&)>& onRetry);

/// Which of `here` (one flag per path, this rank's) hold on every rank: `sumAcrossRanks` adds a vector
/// up over the ranks (PathChoice::agreement(); null outside data-parallel runs, where `here` is the answer).
std::vector<bool> onEveryRank(const std::vector<bool>& here, const std::function<void(std::vector<double>&)>& sumAcrossRanks);

} // namespace entrena
