#include "train/Evaluate.h"

namespace entrena {

namespace F = torch::nn::functional;

Evaluation EvaluationSums::mean() const
{
    Evaluation e;
    if (count > 0) {
        e.loss = loss / count;
        e.accuracy = correct / count;
    }
    return e;
}

Evaluation evaluate(Model& model, const torch::Tensor& x, const torch::Tensor& y, torch::Device device, bool channelsLast)
{
    return evaluateSums(model, x, y, device, channelsLast).mean();
}

EvaluationSums evaluateSums(Model& model, const torch::Tensor& x, const torch::Tensor& y, torch::Device device, bool channelsLast)
{
    EvaluationSums e;
    const int64_t n = x.size(0);
    if (n == 0)
        return e;
    torch::NoGradGuard noGrad;
    model.train(false);
    auto lossSum = torch::zeros({}, torch::TensorOptions(device).dtype(torch::kFloat64));
    auto correct = torch::zeros({}, torch::TensorOptions(device).dtype(torch::kInt64));
    constexpr int64_t kChunk = 1000;
    for (int64_t i = 0; i < n; i += kChunk) {
        auto xb = x.slice(0, i, std::min(n, i + kChunk)).to(device);
        if (channelsLast)
            xb = xb.contiguous(torch::MemoryFormat::ChannelsLast);
        auto yb = y.slice(0, i, std::min(n, i + kChunk)).to(device);
        auto logits = model.forward(xb);
        lossSum += F::cross_entropy(logits, yb, F::CrossEntropyFuncOptions().reduction(torch::kSum)).to(torch::kFloat64);
        correct += logits.argmax(1).eq(yb).sum();
    }
    model.train(true);
    e.loss = lossSum.item<double>();
    e.correct = double(correct.item<int64_t>());
    e.count = double(n);
    return e;
}

} // namespace entrena
