#include "optim/Optimizers.h"

#include "entrena/config/Registry.h"

namespace entrena {

std::unique_ptr<torch::optim::Optimizer> makeOptimizer(const OptimizerSpec& spec,
                                                       const std::vector<torch::Tensor>& parameters)
{
    return registryEntry(spec.kind).make(spec, parameters);
}

void applyOptimizerOptions(torch::optim::Optimizer& optimizer, const OptimizerSpec& spec)
{
    for (auto& group : optimizer.param_groups()) {
        auto& o = group.options();
        if (auto* sgd = dynamic_cast<torch::optim::SGDOptions*>(&o)) {
            sgd->momentum(spec.momentum).nesterov(spec.nesterov).dampening(spec.dampening).weight_decay(spec.weightDecay);
        } else if (auto* adam = dynamic_cast<torch::optim::AdamOptions*>(&o)) {
            adam->betas({spec.beta1, spec.beta2}).eps(spec.eps).weight_decay(spec.weightDecay);
        } else if (auto* adamw = dynamic_cast<torch::optim::AdamWOptions*>(&o)) {
            adamw->betas({spec.beta1, spec.beta2}).eps(spec.eps).weight_decay(spec.weightDecay);
        } else if (auto* rms = dynamic_cast<torch::optim::RMSpropOptions*>(&o)) {
            rms->alpha(spec.alpha).eps(spec.eps).momentum(spec.momentum).centered(spec.centered).weight_decay(spec.weightDecay);
        }
    }
}

void dropGradients(torch::optim::Optimizer& optimizer)
{
    for (auto& group : optimizer.param_groups())
        for (auto& p : group.params())
            p.mutable_grad() = torch::Tensor();
}

void setLearningRate(torch::optim::Optimizer& optimizer, double lr)
{
    for (auto& group : optimizer.param_groups())
        group.options().set_lr(lr);
}

} // namespace entrena

namespace entrena {

void setMomentum(torch::optim::Optimizer& optimizer, double momentum)
{
    for (auto& group : optimizer.param_groups()) {
        auto& o = group.options();
        if (auto* sgd = dynamic_cast<torch::optim::SGDOptions*>(&o)) {
            sgd->momentum(momentum);
        } else if (auto* adam = dynamic_cast<torch::optim::AdamOptions*>(&o)) {
            adam->betas({momentum, std::get<1>(adam->betas())});
        } else if (auto* adamw = dynamic_cast<torch::optim::AdamWOptions*>(&o)) {
            adamw->betas({momentum, std::get<1>(adamw->betas())});
        } else if (auto* rms = dynamic_cast<torch::optim::RMSpropOptions*>(&o)) {
            rms->momentum(momentum);
        }
    }
}

} // namespace entrena
