#include "train/DivergenceGuard.h"

#include "entrena/config/Config.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

namespace entrena {

std::string divergenceReason(double loss, const std::deque<double>& recent, double spike, double first)
{
    if (!std::isfinite(loss))
        return "the training loss became " + std::string(std::isnan(loss) ? "NaN" : "infinite");
    if (first > 0 && loss > kExplodedFactor * std::max(first, 1.0)) {
        char msg[160];
        std::snprintf(msg, sizeof msg, "the training loss exploded to %.4g, over %.0f x its first value (%.4g)", loss,
                      kExplodedFactor, first);
        return msg;
    }
    if (spike > 0 && recent.size() >= 20) {
        std::vector<double> v(recent.begin(), recent.end());
        std::nth_element(v.begin(), v.begin() + long(v.size() / 2), v.end());
        const double median = v[v.size() / 2];
        if (loss > spike * median) {
            char msg[160];
            std::snprintf(msg, sizeof msg,
                          "the training loss jumped to %.4g, above %.3g x the median of the last %zu steps (%.4g)", loss, spike,
                          recent.size(), median);
            return msg;
        }
    }
    return {};
}

DivergenceGuard::DivergenceGuard(const TrainSpec& spec, bool checkEveryStep, Model& model, torch::optim::Optimizer& optimizer,
                                 const torch::Device& device, TrainingState& state)
    : spec_(spec)
    , enabled_(spec.divergenceGuard)
    , checkEveryStep_(spec.divergenceGuard && checkEveryStep)
    , model_(model)
    , optimizer_(optimizer)
    , device_(device)
    , state_(state)
{
    if (enabled_) {
        good_.take(model_, optimizer_);
        good_.step = state_.step;
    }
}

std::optional<DivergenceGuard::Rollback> DivergenceGuard::check(double loss, int64_t step)
{
    const std::string why = divergenceReason(loss, recent_, spec_.divergenceSpike, first_);
    if (why.empty()) {
        if (first_ <= 0 && loss > 0)
            first_ = loss;
        recent_.push_back(loss);
        if (recent_.size() > 50)
            recent_.pop_front();
        return std::nullopt;
    }
    if (++rollbacks_ > spec_.maxRollbacks) {
        divergedWhy_ = why + " at step " + std::to_string(step) + ", after " + std::to_string(rollbacks_ - 1) +
                       " rollback(s) with the learning rate cut each time; lower optimizer.lr, add a warm-up "
                       "(scheduler.warmup_steps) or set train.grad_clip";
        return std::nullopt;
    }
    good_.restore(model_, optimizer_, device_);
    state_.lrScale *= spec_.rollbackLrFactor;
    recent_.clear();
    char where[200];
    std::snprintf(where, sizeof where, "; back to step %lld, learning rate x%.4g", (long long)good_.step, state_.lrScale);
    return Rollback{why + where};
}

void DivergenceGuard::stepTaken(int64_t step, int64_t logEvery)
{
    const bool checked = checkEveryStep_ || step % logEvery == 0;
    if (enabled_ && checked && step - good_.step >= spec_.snapshotEvery) {
        good_.take(model_, optimizer_);
        good_.step = step;
    }
}

} // namespace entrena
