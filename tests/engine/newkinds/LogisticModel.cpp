// An architecture Entrena does not ship, added from a file of its own (docs/architecture.md, "How to
// add"): multinomial logistic regression, one linear layer on the flattened input, with or without
// its bias (a key in the model's parameter block), and its starting weights as an object-valued key
// (`"init": {"weight_std": 0.01, "bias": 0}`, which `--set model.init.weight_std=0` reaches). The
// registration line is at the end.
#include "entrena/config/Config.h"
#include "entrena/config/Registry.h"

#include <nlohmann/json.hpp>
#include <torch/nn/init.h>
#include <torch/nn/modules/container/sequential.h>
#include <torch/nn/modules/linear.h>

namespace entrena::newkinds {

static constexpr char kBias[] = "bias";
static constexpr char kInit[] = "init";

/// model.init, read: each of its members is a number, and only these two.
std::pair<double, double> initOf(const ModelSpec& spec)
{
    const auto init = nlohmann::json::parse(std::get<JsonText>(spec.param(kInit)).text, nullptr, false);
    if (!init.is_object())
        throw ConfigError("model.init must be an object such as {\"weight_std\": 0.01, \"bias\": 0}");
    for (const auto& [key, value] : init.items())
        if ((key != "weight_std" && key != "bias") || !value.is_number())
            throw ConfigError("model.init." + key + " is not a number this model reads (weight_std, bias)");
    const double spread = init.value("weight_std", 0.01);
    if (spread < 0)
        throw ConfigError("model.init.weight_std must not be negative");
    return {spread, init.value("bias", 0.0)};
}

torch::nn::Sequential makeLogistic(const ModelSpec& spec, int64_t channels, int64_t height, int64_t width, int64_t classes)
{
    torch::nn::Linear linear(
        torch::nn::LinearOptions(channels * height * width, classes).bias(std::get<bool>(spec.param(kBias))));
    const auto [spread, bias] = initOf(spec);
    torch::NoGradGuard noGrad;
    torch::nn::init::normal_(linear->weight, 0.0, spread);
    if (linear->bias.defined())
        torch::nn::init::constant_(linear->bias, bias);
    return torch::nn::Sequential(torch::nn::Flatten(), linear);
}

ModelEntry logisticEntry()
{
    FormHint bias;
    bias.label = "Bias:";
    FormHint init;
    init.label = "Starting weights:";
    ModelEntry e{ModelArch{},
                 "logistic",
                 "Logistic",
                 "Logistic regression (one linear layer)",
                 "one linear layer on the flattened input: multinomial logistic regression",
                 false,
                 {blockKey<ModelSpec, kBias>(ValueKind::Boolean, 0, 0, "a bias per class (default true)", bias),
                  blockKey<ModelSpec, kInit>(ValueKind::Json, 0, 0, "the starting weights' spread and the bias's value", init)},
                 nullptr,
                 [](const ModelSpec& spec) { initOf(spec); },
                 false,
                 makeLogistic};
    e.blockDefaults = {{kBias, OptionValue(true)}, {kInit, OptionValue(JsonText{R"({"bias":0.0,"weight_std":0.01})"})}};
    return e;
}

// The registration line.
const ModelArch logistic = registerModel(logisticEntry());

} // namespace entrena::newkinds
