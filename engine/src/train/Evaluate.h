#pragma once

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

EvaluationSums evaluateSums(Model& model, const torch::Tensor& x, const torch::Tensor& y, torch::Device device,
                            bool channelsLast);

/// Loss and accuracy over a whole split, in large batches, without gradients; leaves the model
/// in training mode.
Evaluation evaluate(Model& model, const torch::Tensor& x, const torch::Tensor& y, torch::Device device, bool channelsLast);

} // namespace entrena
