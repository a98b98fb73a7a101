#include "train/TrainStep.h"

#include "dist/DistGroup.h"
#include "entrena/config/Config.h"
#include "entrena/config/Registry.h"
#include "model/Model.h"
#include "optim/Optimizers.h"
#include "train/MlpStep.h"
#include "train/Precision.h"

namespace entrena {

std::function<torch::Tensor(const torch::Tensor&, const torch::Tensor&)>
makeLossFn(Model& model, const torch::Device& device, const TrainSpec& train, Task task, const torch::Tensor& classWeights)
{
    const TaskEntry& entry = registryEntry(task);
    const torch::Tensor weights = classWeights.defined() ? classWeights.to(device, torch::kFloat32) : classWeights;
    return [&model, &entry, device, train, weights](const torch::Tensor& x, const torch::Tensor& y) {
        torch::Tensor output;
        {
            AutocastScope autocast(device, train.precision);
            output = model.forward(x);
        }
        return entry.trainLoss(output.to(torch::kFloat32), y, train, weights);
    };
}

std::string OomRetry::describe() const
{
    return cause + "; micro-batch " + std::to_string(fromMicroBatch) + " -> " + std::to_string(toMicroBatch) + ", accumulation " +
           std::to_string(fromAccumulate) + " -> " + std::to_string(toAccumulate) +
           " (the same samples per step), retrying the step";
}

bool isOutOfMemory(const c10::Error& error)
{
    if (dynamic_cast<const c10::OutOfMemoryError*>(&error))
        return true;
    const std::string text = error.what_without_backtrace();
    return text.find("out of memory") != std::string::npos || text.find("Out of memory") != std::string::npos;
}

TrainStep::TrainStep(LossFn loss, torch::optim::Optimizer& optimizer, const torch::Device& device, int64_t batchSize,
                     int accumulate, int split, MemoryMeter* meter, std::optional<int64_t> budget, GradReducer* reducer)
    : loss_(std::move(loss))
    , optimizer_(optimizer)
    , device_(device)
    , batchSize_(batchSize)
    , accumulate_(accumulate)
    , split_(std::max(1, split))
    , meter_(meter)
    , budget_(budget)
    , reducer_(reducer)
{
}

TrainStep::~TrainStep() = default;

void TrainStep::useMlpStep(std::unique_ptr<MlpStep> fast)
{
    fast_ = std::move(fast);
}

torch::Tensor TrainStep::run(const std::vector<Batch>& group, double lossScale, PhaseClock& clock,
                             const std::function<void(const OomRetry&)>& onRetry)
{
    int64_t samples = 0;
    for (const auto& b : group)
        samples += b.x.size(0);
    while (true) {
        std::string cause;
        try {
            return attempt(group, samples, lossScale, clock);
        } catch (const OutOfMemory& oom) {
            cause = oom.cause;
        } catch (const c10::Error& e) {
            if (!isOutOfMemory(e))
                throw;
            cause = "the step ran out of device memory";
        }
        release();
        OomRetry retry;
        retry.cause = cause;
        retry.fromMicroBatch = microBatch();
        retry.fromAccumulate = accumulate();
        if (microBatch() <= 1)
            throw std::runtime_error(cause + " with a micro-batch of one sample; the model does not fit: use a "
                                             "smaller model, train.precision bf16, or raise train.memory_budget_mb");
        split_ *= 2;
        retry.toMicroBatch = microBatch();
        retry.toAccumulate = accumulate();
        onRetry(retry);
    }
}

torch::Tensor TrainStep::attempt(const std::vector<Batch>& group, int64_t samples, double lossScale, PhaseClock& clock)
{
    if (meter_)
        meter_->resetPeak();
    // Counted with backward, which fills the gradients. Without a reducer they go instead of being
    // zeroed (PyTorch 2's zero_grad default): backward then hands each parameter its new gradient, where
    // a zeroed one costs a pass to zero it and one to add to it; a parameter backward does not reach
    // gets no update. The reducer writes the ranks' averages into the gradients in place, which keeps
    // their layout (channels-last) only when they exist; it sends zeros for unreached parameters.
    if (reducer_)
        optimizer_.zero_grad();
    else
        dropGradients(optimizer_);
    torch::Tensor stepLoss;
    clock.mark(&PhaseTimes::backward);
    const bool fast = fast_ && fastOn_ && !reducer_ && lossScale == 1.0 && split_ == 1 && group.size() == 1 &&
                      fast_->accepts(group[0].x, group[0].y);
    if (fast) {
        auto r = fast_->run(group[0].x, group[0].y);
        clock.markAt(&PhaseTimes::forward, r.forwardEnd);
        clock.mark(&PhaseTimes::backward);
        stepLoss = std::move(r.loss);
    }
    for (size_t g = 0; !fast && g < group.size(); ++g) {
        const auto& b = group[g];
        const auto xs = split_ > 1 ? b.x.chunk(split_) : std::vector<torch::Tensor>{b.x};
        const auto ys = split_ > 1 ? b.y.chunk(split_) : std::vector<torch::Tensor>{b.y};
        for (size_t i = 0; i < xs.size(); ++i) {
            const double weight = double(xs[i].size(0)) / double(samples);
            auto l = loss_(xs[i], ys[i]);
            clock.mark(&PhaseTimes::forward);
            if (reducer_ && g + 1 == group.size() && i + 1 == xs.size())
                reducer_->arm(); // the step's last backward: average its gradients as they come
            const double scale = weight * lossScale;
            (scale == 1.0 ? l : l * scale).backward();
            // The usual step is one micro-batch of weight 1: its loss, with no scalar arithmetic.
            const torch::Tensor part = weight == 1.0 ? l.detach() : l.detach() * weight;
            stepLoss = stepLoss.defined() ? stepLoss + part : part;
            clock.mark(&PhaseTimes::backward);
        }
    }
    if (reducer_) {
        reducer_->finish();
        clock.mark(&PhaseTimes::comm);
    }
    if (meter_) {
        if (budget_ && meter_->peak() > *budget_)
            throw OutOfMemory{"the step's peak memory " + mebibytes(meter_->peak()) + " went over train.memory_budget_mb (" +
                              mebibytes(*budget_) + ")"};
        peakBytes_ = std::max(peakBytes_, meter_->peak());
    }
    return stepLoss;
}

void TrainStep::release()
{
    // Gradients go (not only zeroed): the retry allocates them again, at the smaller size's peak.
    dropGradients(optimizer_);
    releaseCachedMemory(device_);
}

} // namespace entrena
