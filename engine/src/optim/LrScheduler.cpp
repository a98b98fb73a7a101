#include "entrena/optim/LrScheduler.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace entrena {

LrScheduler::LrScheduler(const SchedulerSpec& spec, double baseLr, int epochs, int64_t runSteps)
    : spec_(spec)
    , entry_(&registryEntry(spec.kind))
    , baseLr_(baseLr)
    , totalEpochs_(epochs)
    , plateauLr_(baseLr)
    , best_(spec.mode == PlateauMode::Min ? std::numeric_limits<double>::infinity() : -std::numeric_limits<double>::infinity())
{
    if (entry_->perStep) {
        cycleSteps_ = spec_.totalSteps > 0 ? spec_.totalSteps : runSteps;
        const std::string name = entry_->name;
        if (cycleSteps_ < 2)
            throw ConfigError("scheduler '" + name + "' needs at least 2 optimizer steps; set scheduler.total_steps");
        if (runSteps > cycleSteps_)
            throw ConfigError("scheduler.total_steps (" + std::to_string(cycleSteps_) + ") is less than the run's " +
                              std::to_string(runSteps) + " optimizer steps; raise it or set it to 0");
    }
}

ScheduleClock LrScheduler::clock() const
{
    ScheduleClock c;
    c.baseLr = baseLr_;
    c.step = steps_;
    c.epochs = epochs_;
    c.totalEpochs = totalEpochs_;
    c.cycleSteps = cycleSteps_;
    c.plateauLr = plateauLr_;
    return c;
}

double LrScheduler::momentum() const
{
    return entry_->momentum ? entry_->momentum(spec_, clock()) : -1.0;
}

double LrScheduler::lr() const
{
    double rate = entry_->rate(spec_, clock());
    if (spec_.warmupSteps > 0 && steps_ < spec_.warmupSteps)
        rate *= double(steps_ + 1) / double(spec_.warmupSteps);
    return rate;
}

bool LrScheduler::stepEpoch(double metric)
{
    ++epochs_;
    if (!entry_->watchesMetric || !std::isfinite(metric))
        return false;

    // torch.optim.lr_scheduler.ReduceLROnPlateau.step, 1.13.
    const bool rel = spec_.thresholdMode == ThresholdMode::Rel;
    bool better;
    if (spec_.mode == PlateauMode::Min)
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

std::vector<double> LrScheduler::plannedCurve(const SchedulerSpec& spec, double baseLr, int epochs, int64_t stepsPerEpoch)
{
    LrScheduler s(spec, baseLr, epochs, epochs * stepsPerEpoch);
    std::vector<double> curve;
    curve.reserve(size_t(std::max<int64_t>(0, epochs * stepsPerEpoch)));
    for (int e = 0; e < epochs; ++e) {
        for (int64_t i = 0; i < stepsPerEpoch; ++i) {
            curve.push_back(s.lr());
            s.stepBatch();
        }
        s.stepEpoch(spec.mode == PlateauMode::Min ? -double(e) : double(e)); // always improving
    }
    return curve;
}

} // namespace entrena
