#include "optim/Optimizers.h"

#include "entrena/config/Registry.h"

namespace entrena {

std::unique_ptr<torch::optim::Optimizer> makeOptimizer(const OptimizerSpec& spec, const std::vector<torch::Tensor>& parameters)
{
    return registryEntry(spec.kind).make(spec, parameters);
}

void applyOptimizerOptions(torch::optim::Optimizer& optimizer, const OptimizerSpec& spec)
{
    const OptimizerEntry& entry = registryEntry(spec.kind);
    for (auto& group : optimizer.param_groups())
        entry.apply(group.options(), spec);
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

void setMomentum(torch::optim::Optimizer& optimizer, OptimizerKind kind, double momentum)
{
    const OptimizerEntry& entry = registryEntry(kind);
    for (auto& group : optimizer.param_groups())
        entry.setMomentum(group.options(), momentum);
}

} // namespace entrena
