#include "train/Evaluator.h"

#include "dist/DistGroup.h"

namespace entrena {

Evaluator::Evaluator(Model& model, const torch::Device& device, bool channelsLast, Task task, DistGroup* ranks,
                     std::vector<torch::Tensor> buffers)
    : model_(model)
    , device_(device)
    , channelsLast_(channelsLast)
    , task_(task)
    , ranks_(ranks)
    , buffers_(std::move(buffers))
{
}

Evaluation Evaluator::operator()(const Samples& x, const torch::Tensor& y)
{
    if (!ranks_)
        return evaluate(model_, x, y, device_, channelsLast_, task_);
    if (!buffers_.empty())
        ranks_->broadcast(buffers_);
    const int64_t n = x.size(0), rank = ranks_->rank(), world = ranks_->worldSize();
    const int64_t from = n * rank / world, to = n * (rank + 1) / world;
    const auto rows = torch::arange(from, to, torch::kInt64);
    const EvaluationSums mine = evaluateSums(model_, x.select(rows), y.slice(0, from, to), device_, channelsLast_, task_);
    auto sums = torch::tensor({mine.loss, mine.correct, mine.count}, torch::kFloat64);
    ranks_->allreduceSum({sums});
    return EvaluationSums{sums[0].item<double>(), sums[1].item<double>(), sums[2].item<double>()}.mean();
}

Confusion Evaluator::confusion(const Samples& x, const torch::Tensor& y, int64_t classes, int keepWrong)
{
    if (!ranks_)
        return confusionOf(model_, x, y, device_, channelsLast_, classes, keepWrong);
    if (!buffers_.empty())
        ranks_->broadcast(buffers_);
    const int64_t n = x.size(0), rank = ranks_->rank(), world = ranks_->worldSize();
    const int64_t from = n * rank / world, to = n * (rank + 1) / world;
    Confusion mine = confusionOf(model_, x.select(torch::arange(from, to, torch::kInt64)), y.slice(0, from, to), device_,
                                 channelsLast_, classes, keepWrong);
    for (auto& w : mine.wrong)
        w.index += from;
    auto counts = mine.counts.to(torch::kFloat64); // Gloo and NCCL both sum doubles
    ranks_->allreduceSum({counts});
    mine.counts = counts.round().to(torch::kInt64);
    return mine;
}

} // namespace entrena
