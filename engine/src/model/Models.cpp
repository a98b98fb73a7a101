#include "model/Models.h"

#include "entrena/config/Registry.h"
#include "model/BatchNormRelu.h"
#include "model/ResidualBlock.h"

#include <nlohmann/json.hpp>

namespace entrena {
namespace nn = torch::nn;

namespace {

nn::Sequential mlp(const ModelSpec& spec, int64_t inputs, int64_t classes)
{
    nn::Sequential s;
    s->push_back("flatten", nn::Flatten());
    int64_t width = inputs;
    for (size_t i = 0; i < spec.hidden.size(); ++i) {
        const std::string n = std::to_string(i);
        s->push_back("fc" + n, nn::Linear(width, spec.hidden[i]));
        s->push_back("relu" + n, nn::ReLU());
        if (spec.dropout > 0)
            s->push_back("dropout" + n, nn::Dropout(spec.dropout));
        width = spec.hidden[i];
    }
    s->push_back("out", nn::Linear(width, classes));
    return s;
}

// Two conv blocks (3×3 conv, ReLU, 2×2 max-pool), then a 128-wide hidden layer. Each block pools
// before its ReLU: max-pooling and ReLU commute exactly (forward and gradient, ties included), and
// the ReLU then touches a quarter of the values.
nn::Sequential cnn(const ModelSpec& spec, int64_t channels, int64_t height, int64_t width, int64_t classes)
{
    const int64_t c1 = spec.channels.at(0), c2 = spec.channels.at(1);
    nn::Sequential s;
    s->push_back("conv1", nn::Conv2d(nn::Conv2dOptions(channels, c1, 3).padding(1)));
    s->push_back("pool1", nn::MaxPool2d(2));
    s->push_back("relu1", nn::ReLU());
    s->push_back("conv2", nn::Conv2d(nn::Conv2dOptions(c1, c2, 3).padding(1)));
    s->push_back("pool2", nn::MaxPool2d(2));
    s->push_back("relu2", nn::ReLU());
    s->push_back("flatten", nn::Flatten());
    s->push_back("fc", nn::Linear(c2 * (height / 4) * (width / 4), 128));
    s->push_back("relu3", nn::ReLU());
    if (spec.dropout > 0)
        s->push_back("dropout", nn::Dropout(spec.dropout));
    s->push_back("out", nn::Linear(128, classes));
    return s;
}

// A small ResNet for 28×28 and 32×32 inputs: a 3×3 stem, one stage per entry of `channels` (each
// after the first halves the resolution), global average pooling, one linear layer.
nn::Sequential resnet(const ModelSpec& spec, int64_t channels, int64_t classes)
{
    nn::Sequential s;
    const int64_t stem = spec.channels.front();
    s->push_back("stem", nn::Conv2d(nn::Conv2dOptions(channels, stem, 3).padding(1).bias(false)));
    s->push_back("stem_bn", nn::BatchNorm2d(stem));
    s->push_back("stem_relu", nn::ReLU());
    int64_t width = stem;
    for (size_t stage = 0; stage < spec.channels.size(); ++stage) {
        for (int64_t b = 0; b < spec.blocks; ++b) {
            const int64_t stride = (stage > 0 && b == 0) ? 2 : 1;
            s->push_back("stage" + std::to_string(stage + 1) + "_block" + std::to_string(b + 1),
                         ResidualBlock(width, spec.channels[stage], stride));
            width = spec.channels[stage];
        }
    }
    s->push_back("pool", nn::AdaptiveAvgPool2d(nn::AdaptiveAvgPool2dOptions(1)));
    s->push_back("flatten", nn::Flatten());
    if (spec.dropout > 0)
        s->push_back("dropout", nn::Dropout(spec.dropout));
    s->push_back("out", nn::Linear(width, classes));
    return s;
}

} // namespace

ResidualBlockImpl::ResidualBlockImpl(int64_t in, int64_t out, int64_t stride)
    // In the members' order, which is the order they were always registered in (and so the order of the
    // parameters an optimizer's saved state follows).
    : conv1(register_module("conv1", nn::Conv2d(nn::Conv2dOptions(in, out, 3).stride(stride).padding(1).bias(false))))
    , conv2(register_module("conv2", nn::Conv2d(nn::Conv2dOptions(out, out, 3).padding(1).bias(false))))
    , bn1(register_module("bn1", nn::BatchNorm2d(out)))
    , bn2(register_module("bn2", nn::BatchNorm2d(out)))
{
    if (stride != 1 || in != out) {
        projection = register_module("projection", nn::Conv2d(nn::Conv2dOptions(in, out, 1).stride(stride).bias(false)));
        projectionBn = register_module("projection_bn", nn::BatchNorm2d(out));
    }
}

torch::Tensor ResidualBlockImpl::forward(const torch::Tensor& x)
{
    auto y = torch::relu(bn1(conv1(x)));
    y = bn2(conv2(y));
    const auto shortcut = projection ? projectionBn(projection(x)) : x;
    return torch::relu(y + shortcut);
}

torch::Tensor ResidualBlockImpl::forwardFused(const torch::Tensor& x)
{
    const auto y = batchNormRelu(conv1(x), *bn1);
    const auto shortcut = projection ? projectionBn(projection(x)) : x;
    return batchNormRelu(conv2(y), *bn2, shortcut);
}

double ResidualBlockImpl::flops(const torch::Tensor& input)
{
    torch::NoGradGuard noGrad;
    const torch::Tensor y1 = conv1(input), y2 = conv2(y1);
    double total = convFlops(*conv1, y1) + convFlops(*conv2, y2);
    if (projection)
        total += convFlops(*projection, projection(input));
    return total;
}

std::string ResidualBlockImpl::writeGraph(LayerGraph& g, const std::string& name, const std::string& x)
{
    std::string y = g.relu(name + ".relu1", g.batchNorm(name + ".bn1", *bn1, g.conv(name + ".conv1", *conv1, x)));
    y = g.batchNorm(name + ".bn2", *bn2, g.conv(name + ".conv2", *conv2, y));
    const std::string shortcut =
        projection ? g.batchNorm(name + ".projection_bn", *projectionBn, g.conv(name + ".projection", *projection, x)) : x;
    return g.relu(name + ".relu", g.add(name + ".add", y, shortcut));
}

nn::Sequential makeMlp(const ModelSpec& spec, int64_t channels, int64_t height, int64_t width, int64_t classes)
{
    return mlp(spec, channels * height * width, classes);
}

nn::Sequential makeCnn(const ModelSpec& spec, int64_t channels, int64_t height, int64_t width, int64_t classes)
{
    return cnn(spec, channels, height, width, classes);
}

nn::Sequential makeResnet(const ModelSpec& spec, int64_t channels, int64_t, int64_t, int64_t classes)
{
    return resnet(spec, channels, classes);
}

nn::Sequential makeModel(const ModelSpec& spec, int64_t channels, int64_t height, int64_t width, int64_t classes)
{
    const ModelEntry& entry = registryEntry(spec.arch);
    if (!entry.make)
        throw std::runtime_error("model.arch '" + std::string(entry.name) + "' is read from a file, not built");
    return entry.make(spec, channels, height, width, classes);
}

bool prefersChannelsLast(const ModelSpec& spec)
{
    return registryEntry(spec.arch).channelsLast;
}

bool trainedChannelsLast(const ModelSpec& spec, const std::string& environmentJson)
{
    if (prefersChannelsLast(spec))
        return true;
    const auto environment = nlohmann::json::parse(environmentJson.empty() ? "null" : environmentJson, nullptr, false);
    if (!environment.is_object() || !environment.contains("paths") || !environment["paths"].is_object())
        return false;
    const auto& paths = environment["paths"];
    return paths.contains("channels_last") && paths["channels_last"].is_object() &&
           paths["channels_last"].value("path", "") == "entrena";
}

void toChannelsLast(torch::nn::Module& model)
{
    restride(model.parameters(), true);
}

bool storedChannelsLast(const torch::Tensor& t)
{
    return t.dim() == 4 && t.is_contiguous(torch::MemoryFormat::ChannelsLast) && !t.is_contiguous();
}

void restride(const std::vector<torch::Tensor>& params, bool channelsLast)
{
    torch::NoGradGuard noGrad;
    // Restrided explicitly: contiguous(ChannelsLast) leaves a weight with one input channel (the
    // first convolution on grey images) as it is, its strides being both layouts at once; ATen then
    // ran that convolution, its pooling and their gradients in NCHW, at half the speed.
    const auto layout = channelsLast ? torch::MemoryFormat::ChannelsLast : torch::MemoryFormat::Contiguous;
    for (auto p : params) {
        if (p.dim() == 4)
            p.set_data(torch::empty_like(p.data(), layout).copy_(p.data()));
    }
}

int64_t parameterCount(const torch::nn::Module& model)
{
    int64_t n = 0;
    for (const auto& p : model.parameters())
        n += p.numel();
    return n;
}

} // namespace entrena
