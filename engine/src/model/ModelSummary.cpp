#include "entrena/model/ModelSummary.h"

#include "entrena/config/Registry.h"
#include "model/Model.h"
#include "model/Models.h"
#include "system/StateGuards.h"

#include <ATen/CPUGeneratorImpl.h>
#include <mutex>
#include <torch/torch.h>

namespace entrena {
namespace {

double convFlops(const torch::nn::Conv2dImpl& conv, const torch::Tensor& out)
{
    const auto& o = conv.options;
    const int64_t k = (*o.kernel_size())[0] * (*o.kernel_size())[1];
    return 2.0 * double(o.in_channels() / o.groups()) * double(k) * double(out.numel());
}

double linearFlops(const torch::nn::LinearImpl& linear)
{
    return 2.0 * double(linear.options.in_features() * linear.options.out_features());
}

// Convolutions inside a composite module (a residual block), each with the output size it produces:
// run the module's own convolutions on the module's input to learn them.
double compositeFlops(torch::nn::Module& m, const torch::Tensor& input)
{
    double flops = 0;
    for (const auto& child : m.named_children()) {
        if (auto* conv = child.value()->as<torch::nn::Conv2d>()) {
            // Convolutions of a block see either the block input (first conv, projection) or an
            // output of the same shape as the first conv's.
            torch::Tensor x = input;
            if (conv->options.in_channels() != input.size(1))
                x = torch::zeros({1, conv->options.in_channels(), input.size(2), input.size(3)});
            torch::Tensor out = conv->forward(x);
            if (child.key() == "conv2") // follows conv1: spatial size of conv1's output
                out = torch::zeros({1, conv->options.out_channels(), out.size(2), out.size(3)});
            flops += convFlops(*conv, out);
        }
    }
    return flops;
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
            else if (layer.kind == "ResidualBlock")
                layer.flops = compositeFlops(m, input);
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
