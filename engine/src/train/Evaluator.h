#pragma once
// Evaluates a split: in one process, or in a data-parallel run by every rank on its part of the
// split with rank 0's buffers (batch-norm statistics), summed across the ranks.

#include "train/SplitEvaluation.h"

#include <vector>

namespace entrena {

class DistGroup;

class Evaluator {
public:
    /// `buffers`: the model's tensors that are not trained (sent from rank 0 before each evaluation).
    Evaluator(Model& model, const torch::Device& device, bool channelsLast, Task task, DistGroup* ranks,
              std::vector<torch::Tensor> buffers);

    Evaluation operator()(const Samples& x, const torch::Tensor& y);
    /// The split's confusion counts (summed over the ranks) and this rank's most confidently wrong
    /// samples, with their indices in the whole split.
    Confusion confusion(const Samples& x, const torch::Tensor& y, int64_t classes, int keepWrong);

private:
    Model& model_;
    torch::Device device_;
    bool channelsLast_;
    Task task_;
    DistGroup* ranks_;
    std::vector<torch::Tensor> buffers_;
};

} // namespace entrena
