#pragma once

#include "entrena/config/Config.h"

#include <torch/torch.h>

#include <memory>

namespace entrena {

std::unique_ptr<torch::optim::Optimizer> makeOptimizer(const OptimizerSpec& spec,
                                                       const std::vector<torch::Tensor>& parameters);

/// Sets every parameter group's learning rate.
void setLearningRate(torch::optim::Optimizer& optimizer, double lr);

/// Sets the momentum (SGD, RMSprop) or beta1 (Adam, AdamW) of every group, as PyTorch's
/// OneCycleLR does when it cycles momentum.
void setMomentum(torch::optim::Optimizer& optimizer, double momentum);

} // namespace entrena
