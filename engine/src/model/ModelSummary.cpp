#include "entrena/model/ModelSummary.h"

#include "entrena/config/Registry.h"
#include "model/ComposedLayer.h"
#include "model/Model.h"
#include "model/Models.h"
#include "system/StateGuards.h"

#include <ATen/CPUGeneratorImpl.h>
#include <mutex>
#include <torch/torch.h>

namespace entrena {
namespace {

double linearFlops(const torch::nn::LinearImpl& linear)
{
    return 2.0 * double(linear.options.in_features() * linear.options.out_features());
}

// A TorchScript module: its top-level children and parameters; FLOPs are not estimated (0).
ModelSummary summarizeScript(const ModelSpec& spec, int64_t channels, int64_t height, int64_t width, int64_t classes)
{
    ModelSummary s;
    try {
        Model model = Model::build(spec, channels, height, width, classes);
        for (const auto& child : model.script().named_children()) {
            LayerSummary layer;
            layer.name = child.name;
            layer.kind = child.value.type()->name() ? child.value.type()->name()->name() : std::string("Module");
            for (const auto& p : child.value.parameters())
                layer.parameters += p.numel();
            s.layers.push_back(layer);
        }
        for (const auto& p : model.parameters())
            s.parameters += p.numel();
    } catch (const std::exception& e) {
        throw ConfigError(e.what());
    }
    return s;
}

} // namespace

// Building a model draws its initial weights from the global generator. A summary must not
// change what a run draws next (exact resume depends on it): GeneratorStateGuard puts it back.

ModelSummary summarizeModel(const ModelSpec& spec, int64_t channels, int64_t height, int64_t width, int64_t classes)
{
    GeneratorStateGuard keepRandomState;
    if (registryEntry(spec.arch).fromFile)
        return summarizeScript(spec, channels, height, width, classes);
    torch::NoGradGuard noGrad;
    ModelSummary s;
    try {
        // Building may already run the layers on the input's shape (a CNN sizes its classifier so).
        auto model = makeModel(spec, channels, height, width, classes);
        model->eval();
        torch::Tensor x = torch::zeros({1, channels, height, width});
        const auto names = model->named_children();
        size_t index = 0;
        for (auto& any : *model) {
            LayerSummary layer;
            layer.name = names[index++].key();
            torch::nn::Module& m = *any.ptr();
            layer.kind = m.name();
            const auto colon = layer.kind.rfind("::");
            if (colon != std::string::npos)
                layer.kind = layer.kind.substr(colon + 2);
            if (layer.kind.size() > 4 && layer.kind.compare(layer.kind.size() - 4, 4, "Impl") == 0)
                layer.kind.resize(layer.kind.size() - 4);
            for (const auto& p : m.parameters())
                layer.parameters += p.numel();
            const torch::Tensor input = x;
            x = any.forward(x);
            if (auto* conv = m.as<torch::nn::Conv2d>())
                layer.flops = convFlops(*conv, x);
            else if (auto* linear = m.as<torch::nn::Linear>())
                layer.flops = linearFlops(*linear);
            else if (auto* composed = dynamic_cast<ComposedLayer*>(&m))
                layer.flops = composed->flops(input);
            layer.outputShape.assign(x.sizes().begin() + 1, x.sizes().end());
            s.parameters += layer.parameters;
            s.flopsPerSample += layer.flops;
            s.layers.push_back(std::move(layer));
        }
    } catch (const c10::Error& e) {
        // LibTorch's own words without its backtrace: the first line names the shapes.
        std::string why = e.what_without_backtrace();
        if (const auto end = why.find('\n'); end != std::string::npos)
            why.resize(end);
        throw ConfigError("model.arch '" + std::string(toString(spec.arch)) + "' cannot take inputs of " +
                          std::to_string(channels) + "x" + std::to_string(height) + "x" + std::to_string(width) + " (" + why +
                          ")");
    }
    return s;
}

} // namespace entrena
