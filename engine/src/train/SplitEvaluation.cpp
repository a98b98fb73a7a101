#include "train/SplitEvaluation.h"

#include "entrena/config/Registry.h"

namespace entrena {

Evaluation EvaluationSums::mean() const
{
    Evaluation e;
    if (count > 0) {
        e.loss = loss / count;
        e.accuracy = correct / count;
    }
    return e;
}

Evaluation evaluate(Model& model, const Samples& x, const torch::Tensor& y, torch::Device device, bool channelsLast, Task task)
{
    return evaluateSums(model, x, y, device, channelsLast, task).mean();
}

EvaluationSums evaluateSums(Model& model, const Samples& x, const torch::Tensor& y, torch::Device device, bool channelsLast,
                            Task task)
{
    const TaskEntry& entry = registryEntry(task);
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
        auto xb = x.input(x.range(i, std::min(n, i + kChunk))).to(device);
        if (channelsLast)
            xb = xb.contiguous(torch::MemoryFormat::ChannelsLast);
        auto yb = y.slice(0, i, std::min(n, i + kChunk)).to(device);
        auto logits = model.forward(xb);
        lossSum += entry.summedLoss(logits, yb).to(torch::kFloat64);
        correct += logits.argmax(1).eq(yb).sum();
    }
    model.train(true);
    e.loss = lossSum.item<double>();
    e.correct = double(correct.item<int64_t>());
    e.count = double(n);
    return e;
}

} // namespace entrena

namespace entrena {

Confusion confusionOf(Model& model, const Samples& x, const torch::Tensor& y, torch::Device device, bool channelsLast,
                      int64_t classes, int keepWrong)
{
    Confusion c;
    c.counts = torch::zeros({classes, classes}, torch::kInt64);
    const int64_t n = x.size(0);
    if (n == 0)
        return c;
    torch::NoGradGuard noGrad;
    model.train(false);
    std::vector<WrongExample> wrong;
    constexpr int64_t kChunk = 1000;
    for (int64_t i = 0; i < n; i += kChunk) {
        const int64_t end = std::min(n, i + kChunk);
        auto xb = x.input(x.range(i, end)).to(device);
        if (channelsLast)
            xb = xb.contiguous(torch::MemoryFormat::ChannelsLast);
        const auto probs = torch::softmax(model.forward(xb).to(torch::kFloat32), 1).cpu();
        const auto [confidence, predicted] = probs.max(1);
        const auto truth = y.slice(0, i, end).to(torch::kInt64).contiguous();
        // One bin per (true, predicted) pair: index_add of ones over true × K + predicted.
        c.counts.view({-1}).index_add_(0, truth * classes + predicted, torch::ones_like(truth));
        const auto miss = (predicted != truth).nonzero().flatten().contiguous();
        const auto* m = miss.data_ptr<int64_t>();
        const auto* p = predicted.data_ptr<int64_t>();
        const auto* t = truth.data_ptr<int64_t>();
        const auto* conf = confidence.data_ptr<float>();
        for (int64_t k = 0; k < miss.numel(); ++k) {
            const int64_t j = m[k];
            wrong.push_back({i + j, t[j], p[j], double(conf[j]), {}, {}});
        }
    }
    model.train(true);
    const size_t keep = std::min(wrong.size(), size_t(std::max(0, keepWrong)));
    std::partial_sort(wrong.begin(), wrong.begin() + long(keep), wrong.end(),
                      [](const WrongExample& a, const WrongExample& b) { return a.confidence > b.confidence; });
    wrong.resize(keep);
    c.wrong = std::move(wrong);
    return c;
}

EvaluationReport reportOf(const torch::Tensor& counts, const std::vector<std::string>& classes, const std::string& split)
{
    EvaluationReport r;
    r.split = split;
    r.classes = classes;
    const int64_t k = counts.size(0);
    const auto c = counts.to(torch::kInt64).contiguous();
    const auto* v = c.data_ptr<int64_t>();
    for (int64_t i = 0; i < k; ++i)
        r.confusion.emplace_back(v + i * k, v + (i + 1) * k);
    for (int64_t i = 0; i < k; ++i) {
        int64_t predictedAs = 0, actual = 0;
        for (int64_t j = 0; j < k; ++j) {
            predictedAs += v[j * k + i];
            actual += v[i * k + j];
        }
        const int64_t hit = v[i * k + i];
        ClassScore s;
        s.name = size_t(i) < classes.size() ? classes[size_t(i)] : std::to_string(i);
        s.precision = predictedAs > 0 ? double(hit) / double(predictedAs) : 0.0;
        s.recall = actual > 0 ? double(hit) / double(actual) : 0.0;
        s.support = actual;
        r.perClass.push_back(s);
    }
    return r;
}

} // namespace entrena
