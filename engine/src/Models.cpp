#include "Models.h"

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

// Two conv blocks (3×3 conv, ReLU, 2×2 max-pool), then a 128-wide hidden layer.
nn::Sequential cnn(const ModelSpec& spec, int64_t channels, int64_t height, int64_t width, int64_t classes)
{
    const int64_t c1 = spec.channels.at(0), c2 = spec.channels.at(1);
    nn::Sequential s;
    s->push_back("conv1", nn::Conv2d(nn::Conv2dOptions(channels, c1, 3).padding(1)));
    s->push_back("relu1", nn::ReLU());
    s->push_back("pool1", nn::MaxPool2d(2));
    s->push_back("conv2", nn::Conv2d(nn::Conv2dOptions(c1, c2, 3).padding(1)));
    s->push_back("relu2", nn::ReLU());
    s->push_back("pool2", nn::MaxPool2d(2));
    s->push_back("flatten", nn::Flatten());
    s->push_back("fc", nn::Linear(c2 * (height / 4) * (width / 4), 128));
    s->push_back("relu3", nn::ReLU());
    if (spec.dropout > 0)
        s->push_back("dropout", nn::Dropout(spec.dropout));
    s->push_back("out", nn::Linear(128, classes));
    return s;
}

} // namespace

nn::Sequential makeModel(const ModelSpec& spec, int64_t channels, int64_t height, int64_t width, int64_t classes)
{
    if (spec.arch == "mlp")
        return mlp(spec, channels * height * width, classes);
    if (spec.arch == "cnn")
        return cnn(spec, channels, height, width, classes);
    throw std::runtime_error("model.arch '" + spec.arch + "' is not available");
}

int64_t parameterCount(const torch::nn::Module& model)
{
    int64_t n = 0;
    for (const auto& p : model.parameters())
        n += p.numel();
    return n;
}

} // namespace entrena
