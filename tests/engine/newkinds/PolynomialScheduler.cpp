// A learning-rate schedule Entrena does not ship, added from a file of its own (docs/architecture.md,
// "How to add"): PyTorch's PolynomialLR, the rate times (1 − min(epoch, total_iters) / total_iters)^power.
// Its keys live in the scheduler's parameter block; the registration line is at the end.
#include "entrena/config/Registry.h"

#include <algorithm>
#include <cmath>

namespace entrena::newkinds {

static constexpr char kTotalIters[] = "total_iters";
static constexpr char kPower[] = "power";

double polynomialRate(const SchedulerSpec& spec, const ScheduleClock& clock)
{
    const double total = double(std::get<int64_t>(spec.param(kTotalIters)));
    const double power = std::get<double>(spec.param(kPower));
    return clock.baseLr * std::pow(1.0 - std::min(double(clock.epochs), total) / total, power);
}

SchedulerEntry polynomialEntry()
{
    FormHint iters;
    iters.label = "Decay over (epochs):";
    FormHint power;
    power.label = "Power:";
    power.decimals = 2;
    power.step = 0.1;
    SchedulerEntry e{SchedulerKind{},
                     "polynomial",
                     "Polynomial decay",
                     "PolynomialLR",
                     "decay to 0 over total_iters epochs along (1 − t/total_iters)^power",
                     {blockKey<SchedulerSpec, kTotalIters>(ValueKind::Integer, 1, 1e6, "epochs of decay (default 5)", iters),
                      blockKey<SchedulerSpec, kPower>(ValueKind::Number, 0.1, 10, "the exponent (default 1)", power)},
                     nullptr,
                     polynomialRate};
    e.blockDefaults = {{kTotalIters, OptionValue(int64_t(5))}, {kPower, OptionValue(1.0)}};
    return e;
}

// The registration line.
const SchedulerKind polynomial = registerScheduler(polynomialEntry());

} // namespace entrena::newkinds
