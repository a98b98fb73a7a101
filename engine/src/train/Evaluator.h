#pragma once
// Evaluates a split: in one process, or in a data-parallel run by every rank on its part of the
// split with rank 0's buffers (batch-norm statistics), summed across the ranks.

#include "train/Evaluate.h"

#include <vector>

namespace entrena {

class DistGroup;

class Evaluator {
public:
    /// `buffers`: the model's tensors that are not trained (sent from rank 0 before each evaluation).
    Evaluator(Model& model, const torch::Device& device, bool channelsLast, DistGroup* ranks, std::vector<torch::Tensor> buffers);

    Evaluation operator()(const torch::Tensor& x, const torch::Tensor& y);

private:
    Model& model_;
    torch::Device device_;
    bool channelsLast_;
    DistGroup* ranks_;
    std::vector<torch::Tensor> buffers_;
};

} // namespace entrena
