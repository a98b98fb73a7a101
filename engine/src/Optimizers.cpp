#include "Optimizers.h"

namespace entrena {

std::unique_ptr<torch::optim::Optimizer> makeOptimizer(const OptimizerSpec& spec,
                                                       const std::vector<torch::Tensor>& parameters)
{
    if (spec.name == "sgd") {
        return std::make_unique<torch::optim::SGD>(parameters, torch::optim::SGDOptions(spec.lr)
                                                                   .momentum(spec.momentum)
                                                                   .nesterov(spec.nesterov)
                                                                   .dampening(spec.dampening)
                                                                   .weight_decay(spec.weightDecay));
    }
    if (spec.name == "adam") {
        return std::make_unique<torch::optim::Adam>(parameters, torch::optim::AdamOptions(spec.lr)
                                                                    .betas({spec.beta1, spec.beta2})
                                                                    .eps(spec.eps)
                                                                    .weight_decay(spec.weightDecay));
    }
    throw std::runtime_error("optimizer.name '" + spec.name + "' is not available");
}

void setLearningRate(torch::optim::Optimizer& optimizer, double lr)
{
    for (auto& group : optimizer.param_groups())
        group.options().set_lr(lr);
}

} // namespace entrena
