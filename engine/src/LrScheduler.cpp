#include "entrena/LrScheduler.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace entrena {

LrScheduler::LrScheduler(const SchedulerSpec& spec, double baseLr, int epochs)
    : spec_(spec)
    , baseLr_(baseLr)
    , totalEpochs_(epochs)
    , plateauLr_(baseLr)
    , best_(spec.mode == "min" ? std::numeric_limits<double>::infinity() : -std::numeric_limits<double>::infinity())
{
}

double LrScheduler::epochRate() const
{
    const double e = double(epochs_);
    const std::string& n = spec_.name;
    if (n == "step")
        return baseLr_ * std::pow(spec_.gamma, std::floor(e / double(spec_.stepSize)));
    if (n == "multistep") {
        const auto passed = std::upper_bound(spec_.milestones.begin(), spec_.milestones.end(), epochs_) -
                            spec_.milestones.begin();
        return baseLr_ * std::pow(spec_.gamma, double(passed));
    }
    if (n == "exponential")
        return baseLr_ * std::pow(spec_.gamma, e);
    if (n == "cosine") {
        const double tMax = double(spec_.tMax > 0 ? spec_.tMax : totalEpochs_);
        return spec_.etaMin + (baseLr_ - spec_.etaMin) * (1.0 + std::cos(M_PI * e / tMax)) / 2.0;
    }
    if (n == "reduce_on_plateau")
        return plateauLr_;
    return baseLr_;
}

double LrScheduler::lr() const
{
    double rate = epochRate();
    if (spec_.warmupSteps > 0 && steps_ < spec_.warmupSteps)
        rate *= double(steps_ + 1) / double(spec_.warmupSteps);
    return rate;
}

bool LrScheduler::stepEpoch(double metric)
{
    ++epochs_;
    if (spec_.name != "reduce_on_plateau" || !std::isfinite(metric))
        return false;

    // torch.optim.lr_scheduler.ReduceLROnPlateau.step, 1.13.
    const bool rel = spec_.thresholdMode == "rel";
    bool better;
    if (spec_.mode == "min")
        better = rel ? metric < best_ * (1.0 - spec_.threshold) : metric < best_ - spec_.threshold;
    else
        better = rel ? metric > best_ * (spec_.threshold + 1.0) : metric > best_ + spec_.threshold;
    if (better) {
        best_ = metric;
        numBadEpochs_ = 0;
    } else {
        ++numBadEpochs_;
    }
    if (cooldownCounter_ > 0) {
        --cooldownCounter_;
        numBadEpochs_ = 0;
    }
    if (numBadEpochs_ > spec_.patience) {
        const double newLr = std::max(plateauLr_ * spec_.factor, spec_.minLr);
        cooldownCounter_ = spec_.cooldown;
        numBadEpochs_ = 0;
        if (plateauLr_ - newLr > spec_.eps) {
            plateauLr_ = newLr;
            return true;
        }
    }
    return false;
}

std::vector<double> LrScheduler::plannedCurve(const SchedulerSpec& spec, double baseLr, int epochs,
                                              int64_t stepsPerEpoch)
{
    LrScheduler s(spec, baseLr, epochs);
    std::vector<double> curve;
    curve.reserve(size_t(std::max<int64_t>(0, epochs * stepsPerEpoch)));
    for (int e = 0; e < epochs; ++e) {
        for (int64_t i = 0; i < stepsPerEpoch; ++i) {
            curve.push_back(s.lr());
            s.stepBatch();
        }
        s.stepEpoch(spec.mode == "min" ? -double(e) : double(e)); // always improving
    }
    return curve;
}

} // namespace entrena
