#pragma once

#include "Model.h"

#include <torch/torch.h>

namespace entrena {

struct Evaluation {
    double loss = 0;
    double accuracy = 0;
};

/// Loss and accuracy over a whole split, in large batches, without gradients; leaves the model
/// in training mode.
Evaluation evaluate(Model& model, const torch::Tensor& x, const torch::Tensor& y, torch::Device device,
                    bool channelsLast);

} // namespace entrena
