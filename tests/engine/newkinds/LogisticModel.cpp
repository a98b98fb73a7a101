// An architecture Entrena does not ship, added from a file of its own (docs/architecture.md, "How to
// add"): multinomial logistic regression, one linear layer on the flattened input, with or without
// its bias (a key in the model's parameter block). The registration line is at the end.
#include "entrena/config/Registry.h"

#include <torch/nn/modules/container/sequential.h>
#include <torch/nn/modules/linear.h>

namespace entrena::newkinds {

static constexpr char kBias[] = "bias";

torch::nn::Sequential makeLogistic(const ModelSpec& spec, int64_t channels, int64_t height, int64_t width, int64_t classes)
{
    return torch::nn::Sequential(
        torch::nn::Flatten(),
        torch::nn::Linear(torch::nn::LinearOptions(channels * height * width, classes).bias(std::get<bool>(spec.param(kBias)))));
}

ModelEntry logisticEntry()
{
    FormHint bias;
    bias.label = "Bias:";
    ModelEntry e{ModelArch{},
                 "logistic",
                 "Logistic",
                 "Logistic regression (one linear layer)",
                 "one linear layer on the flattened input: multinomial logistic regression",
                 false,
                 {blockKey<ModelSpec, kBias>(ValueKind::Boolean, 0, 0, "a bias per class (default true)", bias)},
                 nullptr,
                 nullptr,
                 false,
                 makeLogistic};
    e.blockDefaults = {{kBias, OptionValue(true)}};
    return e;
}

// The registration line.
const ModelArch logistic = registerModel(logisticEntry());

} // namespace entrena::newkinds
