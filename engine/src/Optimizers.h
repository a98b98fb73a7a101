#pragma once

#include "entrena/Config.h"

#include <torch/torch.h>

#include <memory>

namespace entrena {

std::unique_ptr<torch::optim::Optimizer> makeOptimizer(const OptimizerSpec& spec,
                                                       const std::vector<torch::Tensor>& parameters);

/// Sets every parameter group's learning rate.
void setLearningRate(torch::optim::Optimizer& optimizer, double lr);

} // namespace entrena
