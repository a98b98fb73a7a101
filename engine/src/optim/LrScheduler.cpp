#include "entrena/optim/LrScheduler.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace entrena {

LrScheduler::LrScheduler(const SchedulerSpec& spec, double baseLr, int epochs, int64_t runSteps)
    : spec_(spec)
    , baseLr_(baseLr)
    , totalEpochs_(epochs)
    , plateauLr_(baseLr)
    , best_(spec.mode == "min" ? std::numeric_limits<double>::infinity() : -std::numeric_limits<double>::infinity())
{
    if (spec_.name == "one_cycle") {
        if (spec_.maxLr <= 0)
            spec_.maxLr = baseLr;
        cycleSteps_ = spec_.totalSteps > 0 ? spec_.totalSteps : runSteps;
        if (cycleSteps_ < 2)
            throw ConfigError("scheduler 'one_cycle' needs at least 2 optimizer steps; set scheduler.total_steps");
        if (runSteps > cycleSteps_)
            throw ConfigError("scheduler.total_steps (" + std::to_string(cycleSteps_) + ") is less than the run's " +
                              std::to_string(runSteps) + " optimizer steps; raise it or set it to 0");
    }
}

double LrScheduler::oneCycle(int64_t step, bool momentum) const
{
    // torch.optim.lr_scheduler.OneCycleLR (1.13): phases end at float step numbers, each annealed
    // from its start to its end value.
    const double total = double(cycleSteps_);
    const double initial = spec_.maxLr / spec_.divFactor;
    const double minLr = initial / spec_.finalDivFactor;
    const double maxM = spec_.maxMomentum, baseM = spec_.baseMomentum;
    struct Phase {
        double end, startLr, endLr, startM, endM;
    };
    std::vector<Phase> phases;
    if (spec_.threePhase) {
        phases = {{spec_.pctStart * total - 1, initial, spec_.maxLr, maxM, baseM},
                  {2 * spec_.pctStart * total - 2, spec_.maxLr, initial, baseM, maxM},
                  {total - 1, initial, minLr, maxM, maxM}};
    } else {
        phases = {{spec_.pctStart * total - 1, initial, spec_.maxLr, maxM, baseM},
                  {total - 1, spec_.maxLr, minLr, baseM, maxM}};
    }
    const double s = double(step);
    double start = 0;
    for (size_t i = 0; i < phases.size(); ++i) {
        const Phase& p = phases[i];
        if (s <= p.end || i + 1 == phases.size()) {
            const double pct = (s - start) / (p.end - start);
            const double a = momentum ? p.startM : p.startLr;
            const double b = momentum ? p.endM : p.endLr;
            if (spec_.annealStrategy == "linear")
                return (b - a) * pct + a;
            return b + (a - b) / 2.0 * (std::cos(M_PI * pct) + 1.0);
        }
        start = p.end;
    }
    return initial;
}

double LrScheduler::momentum() const
{
    if (spec_.name != "one_cycle" || !spec_.cycleMomentum)
        return -1.0;
    return oneCycle(std::min(steps_, cycleSteps_ - 1), true);
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
    double rate = spec_.name == "one_cycle" ? oneCycle(std::min(steps_, cycleSteps_ - 1), false) : epochRate();
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
    LrScheduler s(spec, baseLr, epochs, epochs * stepsPerEpoch);
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
