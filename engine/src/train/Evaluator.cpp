#include "train/Evaluator.h"

#include "dist/DistGroup.h"

namespace entrena {

Evaluator::Evaluator(Model& model, const torch::Device& device, bool channelsLast, DistGroup* ranks,
                     std::vector<torch::Tensor> buffers)
    : model_(model)
    , device_(device)
    , channelsLast_(channelsLast)
    , ranks_(ranks)
    , buffers_(std::move(buffers))
{
}

Evaluation Evaluator::operator()(const torch::Tensor& x, const torch::Tensor& y)
{
    if (!ranks_)
        return evaluate(model_, x, y, device_, channelsLast_);
    if (!buffers_.empty())
        ranks_->broadcast(buffers_);
    const int64_t n = x.size(0), rank = ranks_->rank(), world = ranks_->worldSize();
    const int64_t from = n * rank / world, to = n * (rank + 1) / world;
    const EvaluationSums mine = evaluateSums(model_, x.slice(0, from, to), y.slice(0, from, to), device_, channelsLast_);
    auto sums = torch::tensor({mine.loss, mine.correct, mine.count}, torch::kFloat64);
    ranks_->allreduceSum({sums});
    return EvaluationSums{sums[0].item<double>(), sums[1].item<double>(), sums[2].item<double>()}.mean();
}

} // namespace entrena
