// The learning-rate schedules: one entry each, with PyTorch's parameter names and semantics
// (torch.optim.lr_scheduler, 1.13). To add one: an entry here and its rate function.
#include "config/Keys.h"
#include "entrena/config/Registry.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace entrena {
namespace {

using namespace keys;
using S = SchedulerSpec;

std::string fmt(double v)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%g", v);
    return buffer;
}

double constantRate(const S&, const ScheduleClock& c)
{
    return c.baseLr;
}

double stepRate(const S& s, const ScheduleClock& c)
{
    return c.baseLr * std::pow(s.gamma, std::floor(double(c.epochs) / double(s.stepSize)));
}

double multiStepRate(const S& s, const ScheduleClock& c)
{
    const auto passed = std::upper_bound(s.milestones.begin(), s.milestones.end(), c.epochs) - s.milestones.begin();
    return c.baseLr * std::pow(s.gamma, double(passed));
}

double exponentialRate(const S& s, const ScheduleClock& c)
{
    return c.baseLr * std::pow(s.gamma, double(c.epochs));
}

double cosineRate(const S& s, const ScheduleClock& c)
{
    const double tMax = double(s.tMax > 0 ? s.tMax : c.totalEpochs);
    return s.etaMin + (c.baseLr - s.etaMin) * (1.0 + std::cos(M_PI * double(c.epochs) / tMax)) / 2.0;
}

double plateauRate(const S&, const ScheduleClock& c)
{
    return c.plateauLr;
}

/// OneCycleLR (1.13): phases end at float step numbers, each annealed from its start to its end
/// value; `momentum` picks the momentum curve instead of the rate's.
double oneCycle(const S& s, const ScheduleClock& c, bool momentum)
{
    const double maxLr = s.maxLr > 0 ? s.maxLr : c.baseLr;
    const double total = double(c.cycleSteps);
    const double initial = maxLr / s.divFactor;
    const double minLr = initial / s.finalDivFactor;
    const double maxM = s.maxMomentum, baseM = s.baseMomentum;
    struct Phase {
        double end, startLr, endLr, startM, endM;
    };
    // Computed every step: a fixed array, not a vector allocated each time.
    const std::array<Phase, 3> three = {{{s.pctStart * total - 1, initial, maxLr, maxM, baseM},
                                         {2 * s.pctStart * total - 2, maxLr, initial, baseM, maxM},
                                         {total - 1, initial, minLr, maxM, maxM}}};
    const std::array<Phase, 3> two = {
        {{s.pctStart * total - 1, initial, maxLr, maxM, baseM}, {total - 1, maxLr, minLr, baseM, maxM}, {}}};
    const std::array<Phase, 3>& phases = s.threePhase ? three : two;
    const size_t count = s.threePhase ? 3 : 2;
    const double step = double(std::min(c.step, c.cycleSteps - 1));
    double start = 0;
    for (size_t i = 0; i < count; ++i) {
        const Phase& p = phases[i];
        if (step <= p.end || i + 1 == count) {
            const double pct = (step - start) / (p.end - start);
            const double a = momentum ? p.startM : p.startLr;
            const double b = momentum ? p.endM : p.endLr;
            if (s.annealStrategy == AnnealStrategy::Linear)
                return (b - a) * pct + a;
            return b + (a - b) / 2.0 * (std::cos(M_PI * pct) + 1.0);
        }
        start = p.end;
    }
    return initial;
}

double oneCycleRate(const S& s, const ScheduleClock& c)
{
    return oneCycle(s, c, false);
}
double oneCycleMomentum(const S& s, const ScheduleClock& c)
{
    return s.cycleMomentum ? oneCycle(s, c, true) : -1.0;
}

void checkMultiStep(const RunConfig& c)
{
    if (c.scheduler.milestones.empty())
        throw ConfigError("scheduler.milestones must list at least one epoch for 'multistep'");
    if (!std::is_sorted(c.scheduler.milestones.begin(), c.scheduler.milestones.end()))
        throw ConfigError("scheduler.milestones must be increasing");
}

void checkOneCycle(const RunConfig& c)
{
    if (c.scheduler.pctStart <= 0.0 || c.scheduler.pctStart >= 1.0)
        throw ConfigError("scheduler.pct_start must be between 0 and 1 (exclusive), got " + fmt(c.scheduler.pctStart));
    if (c.scheduler.cycleMomentum && !registryEntry(c.optimizer.kind).cyclesMomentum(c.optimizer))
        throw ConfigError("scheduler.cycle_momentum needs an optimizer with momentum: set optimizer.momentum > 0 "
                          "or scheduler.cycle_momentum to false");
}

void checkPlateau(const RunConfig& c)
{
    if (c.scheduler.factor >= 1.0)
        throw ConfigError("scheduler.factor must be below 1 (the LR is multiplied by it), got " + fmt(c.scheduler.factor));
}

OptionKey<S> gammaKey(const char* label, double step)
{
    return number<&S::gamma>("gamma", 0.0, 1.0, "multiply the rate by this", shown(label, 4, step));
}

/// OneCycleLR: stepped every optimizer step, and the only schedule that moves the momentum.
SchedulerEntry oneCycle()
{
    SchedulerEntry oneCycleEntry{
        SchedulerKind::OneCycle,
        "one_cycle",
        ENTRENA_LABEL("Registry", "One-cycle"),
        "OneCycleLR",
        "up from max_lr/div_factor to max_lr, then down to max_lr/(div_factor×final_div_factor), stepped every "
        "optimizer step; with cycle_momentum the momentum (SGD, RMSprop) or beta1 (Adam, AdamW) cycles the other way",
        {defaultIs(number<&S::maxLr>(
                       "max_lr", 0.0, kHuge, "the peak rate (0: optimizer.lr)",
                       shown(ENTRENA_LABEL("Registry", "Peak rate:"), 6, 0.01, ENTRENA_LABEL("Registry", "learning rate"))),
                   "`0`: optimizer.lr"),
         defaultIs(integer<&S::totalSteps>("total_steps", 0, kBig,
                                           "the steps the cycle spans (0: the run's); shorter than the run is an error"),
                   "`0`: the run's steps"),
         formRange(number<&S::pctStart>("pct_start", 0.0, 1.0, "the share of the cycle spent rising",
                                        shown(ENTRENA_LABEL("Registry", "Rising share:"), 2, 0.05)),
                   0.01, 0.99),
         choice<&S::annealStrategy>("anneal_strategy", "the curve of each phase", shown(ENTRENA_LABEL("Registry", "Annealing:"))),
         number<&S::divFactor>("div_factor", 1e-12, kHuge, "max_lr / the starting rate"),
         number<&S::finalDivFactor>("final_div_factor", 1e-12, kHuge, "the starting rate / the final rate"),
         boolean<&S::threePhase>("three_phase", "a third phase annihilates the rate (fastai's schedule)"),
         boolean<&S::cycleMomentum>("cycle_momentum", "cycle the momentum inversely to the rate"),
         number<&S::baseMomentum>("base_momentum", 0.0, 1.0, "the momentum at the peak rate"),
         number<&S::maxMomentum>("max_momentum", 0.0, 1.0, "the momentum at the lowest rate")},
        checkOneCycle,
        oneCycleRate,
        oneCycleMomentum};
    oneCycleEntry.perStep = true;
    return oneCycleEntry;
}

/// ReduceLROnPlateau: the one schedule that watches an epoch figure.
SchedulerEntry reduceOnPlateau()
{
    SchedulerEntry plateau{SchedulerKind::ReduceOnPlateau,
                           "reduce_on_plateau",
                           ENTRENA_LABEL("Registry", "Reduce on plateau"),
                           "ReduceLROnPlateau",
                           "multiply by factor when metric stops improving for patience epochs",
                           {choice<&S::metric>("metric", "the epoch figure watched"),
                            choice<&S::mode>("mode", "min: lower is better; max: higher is better"),
                            formRange(number<&S::factor>("factor", 0.0, 1.0, "multiply the rate by this (below 1)",
                                                         shown(ENTRENA_LABEL("Registry", "Multiply by:"), 3, 0.05)),
                                      0.01, 0.99),
                            integer<&S::patience>("patience", 0, kBig, "epochs without improvement before a reduction",
                                                  shown(ENTRENA_LABEL("Registry", "Patience (epochs):"))),
                            number<&S::threshold>("threshold", 0.0, kHuge, "the smallest change that counts as an improvement"),
                            choice<&S::thresholdMode>("threshold_mode", "rel: threshold is relative; abs: absolute"),
                            integer<&S::cooldown>("cooldown", 0, kBig, "epochs to wait after a reduction"),
                            number<&S::minLr>("min_lr", 0.0, kHuge, "the rate never goes below this"),
                            number<&S::eps>("eps", 0.0, kHuge, "a reduction smaller than this is skipped")},
                           checkPlateau,
                           plateauRate};
    plateau.watchesMetric = true;
    return plateau;
}

std::vector<SchedulerEntry> makeEntries()
{
    std::vector<SchedulerEntry> e;
    e.push_back({SchedulerKind::Constant,
                 "constant",
                 ENTRENA_LABEL("Registry", "Constant"),
                 "",
                 ENTRENA_LABEL("Registry", "The learning rate stays as set."),
                 {},
                 nullptr,
                 constantRate});
    e.push_back({SchedulerKind::Step,
                 "step",
                 ENTRENA_LABEL("Registry", "Step"),
                 "StepLR",
                 "multiply by gamma every step_size epochs",
                 {integer<&S::stepSize>("step_size", 1, kBig, "epochs between multiplications",
                                        shown(ENTRENA_LABEL("Registry", "Every (epochs):"))),
                  gammaKey(ENTRENA_LABEL("Registry", "Multiply by:"), 0.05)},
                 nullptr,
                 stepRate});
    e.push_back({SchedulerKind::MultiStep,
                 "multistep",
                 ENTRENA_LABEL("Registry", "Multi-step"),
                 "MultiStepLR",
                 "multiply by gamma at each listed epoch",
                 {defaultIs(integers<&S::milestones>("milestones", 1, kBig, "the epochs, increasing",
                                                     shown(ENTRENA_LABEL("Registry", "At epochs:"))),
                            "none: they must be given"),
                  gammaKey(ENTRENA_LABEL("Registry", "Multiply by:"), 0.05)},
                 checkMultiStep,
                 multiStepRate});
    e.push_back({SchedulerKind::Exponential,
                 "exponential",
                 ENTRENA_LABEL("Registry", "Exponential"),
                 "ExponentialLR",
                 "multiply by gamma every epoch",
                 {formInitially(gammaKey(ENTRENA_LABEL("Registry", "Per epoch multiply by:"), 0.01), 0.95)},
                 nullptr,
                 exponentialRate});
    e.push_back({SchedulerKind::Cosine,
                 "cosine",
                 ENTRENA_LABEL("Registry", "Cosine"),
                 "CosineAnnealingLR",
                 "anneal from the rate to eta_min along half a cosine over T_max epochs",
                 {defaultIs(integer<&S::tMax>("T_max", 0, kBig, "the period in epochs (0: the run's epochs)",
                                              shown(ENTRENA_LABEL("Registry", "Period (epochs):"), 0, 0,
                                                    ENTRENA_LABEL("Registry", "whole run"))),
                            "`0`: the run's epochs"),
                  formRange(number<&S::etaMin>("eta_min", 0.0, kHuge, "the lowest rate",
                                               shown(ENTRENA_LABEL("Registry", "Minimum rate:"), 6, 0.0001)),
                            0, 10)},
                 nullptr,
                 cosineRate});
    e.push_back(oneCycle());
    e.push_back(reduceOnPlateau());
    return e;
}

} // namespace

namespace {

std::vector<SchedulerEntry>& entries()
{
    static std::vector<SchedulerEntry> list = makeEntries();
    return list;
}

} // namespace

const std::vector<SchedulerEntry>& schedulerRegistry()
{
    return entries();
}

SchedulerKind registerScheduler(SchedulerEntry entry)
{
    return keys::addEntry(entries(), &SchedulerEntry::kind, std::move(entry), schedulerKeys(), SchedulerSpec{}, &SchedulerSpec::kind);
}

OptionValue SchedulerSpec::param(const std::string& key) const
{
    return keys::blockParam(params, entries(), &SchedulerEntry::kind, kind, key);
}

const SchedulerEntry& registryEntry(SchedulerKind kind)
{
    return keys::entryOf(schedulerRegistry(), &SchedulerEntry::kind, kind);
}

const char* toString(SchedulerKind kind)
{
    return registryEntry(kind).name;
}

template <>
std::optional<SchedulerKind> fromString<SchedulerKind>(std::string_view name)
{
    return keys::kindNamed(schedulerRegistry(), &SchedulerEntry::kind, name);
}

template <>
std::vector<std::string> choiceNames<SchedulerKind>()
{
    return keys::namesOf(schedulerRegistry());
}

} // namespace entrena
