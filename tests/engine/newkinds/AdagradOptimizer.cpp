// An optimizer Entrena does not ship, added from a file of its own (docs/architecture.md, "How to
// add"): PyTorch's Adagrad, its own keys in the optimizer's parameter block. The registration line is
// at the end.
#include "entrena/config/Registry.h"

#include <torch/optim/adagrad.h>

namespace entrena::newkinds {

static constexpr char kLrDecay[] = "lr_decay";
static constexpr char kInitialAccumulator[] = "initial_accumulator_value";

torch::optim::AdagradOptions& adagradOptions(torch::optim::OptimizerOptions& group)
{
    return static_cast<torch::optim::AdagradOptions&>(group);
}

void applyAdagrad(torch::optim::OptimizerOptions& group, const OptimizerSpec& s)
{
    adagradOptions(group)
        .lr_decay(std::get<double>(s.param(kLrDecay)))
        .initial_accumulator_value(std::get<double>(s.param(kInitialAccumulator)))
        .weight_decay(s.weightDecay);
}

std::unique_ptr<torch::optim::Optimizer> makeAdagrad(const OptimizerSpec& s, const std::vector<at::Tensor>& parameters)
{
    torch::optim::AdagradOptions options(s.lr);
    applyAdagrad(options, s);
    return std::make_unique<torch::optim::Adagrad>(parameters, options);
}

OptimizerEntry adagradEntry()
{
    FormHint decay;
    decay.label = "Rate decay:";
    decay.decimals = 4;
    FormHint initial;
    initial.label = "Initial accumulator:";
    initial.decimals = 3;
    OptimizerEntry e{OptimizerKind{},
                     "adagrad",
                     "Adagrad",
                     "torch.optim.Adagrad",
                     {blockKey<OptimizerSpec, kLrDecay>(ValueKind::Number, 0, 1, "the rate's decay per step (default 0)", decay),
                      blockKey<OptimizerSpec, kInitialAccumulator>(ValueKind::Number, 0, 10,
                                                                   "the squared gradients' starting sum (default 0)", initial)},
                     [](OptimizerSpec& s) { s.weightDecay = 0.0; }, // PyTorch's default
                     nullptr,
                     [](const OptimizerSpec&) { return false; }, // no momentum for a schedule to cycle
                     makeAdagrad,
                     applyAdagrad,
                     [](torch::optim::OptimizerOptions&, double) {}};
    e.blockDefaults = {{kLrDecay, OptionValue(0.0)}, {kInitialAccumulator, OptionValue(0.0)}};
    return e;
}

// The registration line.
const OptimizerKind adagrad = registerOptimizer(adagradEntry());

} // namespace entrena::newkinds
