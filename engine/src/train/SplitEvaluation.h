#pragma once
// Loss and accuracy (and confusion counts) over one split in this process, in large batches without
// gradients. train/Evaluator spreads it over the ranks of a data-parallel run.

#include "data/Samples.h"
#include "entrena/config/Choices.h"
#include "entrena/train/Events.h"
#include "model/Model.h"

#include <torch/torch.h>

namespace entrena {

struct Evaluation {
    double loss = 0;
    double accuracy = 0;
};

/// Sums over a split, which add up across the ranks of a data-parallel run.
struct EvaluationSums {
    double loss = 0;
    double correct = 0;
    double count = 0;
    Evaluation mean() const;
};

EvaluationSums evaluateSums(Model& model, const Samples& x, const torch::Tensor& y, torch::Device device, bool channelsLast,
                            Task task);

/// Loss (the task's, summed then averaged) and accuracy over a whole split, in large batches,
/// without gradients; leaves the model in training mode.
Evaluation evaluate(Model& model, const Samples& x, const torch::Tensor& y, torch::Device device, bool channelsLast, Task task);

} // namespace entrena

namespace entrena {

/// The confusion counts of a split and its most confidently wrong samples.
struct Confusion {
    torch::Tensor counts;            ///< int64 [K, K]: rows the true class, columns the predicted
    std::vector<WrongExample> wrong; ///< up to the number asked for, most confident first (no images yet)
};

/// Counts predictions against labels over a split (rows [0, n) of `x`), without gradients.
Confusion confusionOf(Model& model, const Samples& x, const torch::Tensor& y, torch::Device device, bool channelsLast,
                      int64_t classes, int keepWrong);

/// Precision, recall and support per class from confusion counts, as the `end` event reports them.
EvaluationReport reportOf(const torch::Tensor& counts, const std::vector<std::string>& classes, const std::string& split);

} // namespace entrena
