#pragma once

#include "entrena/config/Config.h"

#include <memory>
#include <torch/torch.h>

namespace entrena {

std::unique_ptr<torch::optim::Optimizer> makeOptimizer(const OptimizerSpec& spec, const std::vector<torch::Tensor>& parameters);

/// Sets every parameter group's options (momentum, betas, weight decay, …) from `spec`: after a
/// checkpoint's optimizer state is loaded, the configuration's values hold (a sweep may have changed
/// them between a trial's stages). The learning rate is the schedule's, set every step.
void applyOptimizerOptions(torch::optim::Optimizer& optimizer, const OptimizerSpec& spec);

/// Drops every parameter's gradient (not zeroed: gone), as PyTorch 2's zero_grad does by default.
void dropGradients(torch::optim::Optimizer& optimizer);

/// Sets every parameter group's learning rate.
void setLearningRate(torch::optim::Optimizer& optimizer, double lr);

/// Sets the momentum (SGD, RMSprop) or beta1 (Adam, AdamW) of every group of an optimizer of
/// `kind`, as PyTorch's OneCycleLR does when it cycles momentum.
void setMomentum(torch::optim::Optimizer& optimizer, OptimizerKind kind, double momentum);

} // namespace entrena
