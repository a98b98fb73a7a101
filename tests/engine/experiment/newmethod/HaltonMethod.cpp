// A sweep method Entrena does not ship, added from a file of its own as docs/architecture.md says a
// method is added from outside the engine: its class, its registry entry with its own setting kept
// in the settings' parameter block, and the one line that registers it (at the end).
//
// halton: quasi-random search. Trial i takes point skip + i of the Halton sequence (the radical
// inverse of the index in base 2 for the space's first key, 3 for the second, 5, 7, …) and maps each
// coordinate through its key's distribution, so the trials cover the space more evenly than random
// draws (Bergstra & Bengio 2012, "Random search for hyper-parameter optimization", section 5).
#include "entrena/experiment/SweepMethodRegistry.h"
#include "experiment/SweepDriver.h"

#include <cmath>
#include <cstdio>

namespace entrena::halton {

/// The radical inverse of `index` in `base`: its digits mirrored behind the point.
double radicalInverse(uint64_t index, unsigned base)
{
    double value = 0, scale = 1.0 / base;
    for (; index > 0; index /= base, scale /= base)
        value += double(index % base) * scale;
    return value;
}

/// A coordinate u in [0, 1) as a value of `d`, in the JSON a trial's values are written in.
std::string valueAt(const Distribution& d, double u)
{
    char text[64];
    switch (d.kind) {
    case Distribution::Kind::Uniform: std::snprintf(text, sizeof text, "%.17g", d.low + u * (d.high - d.low)); return text;
    case Distribution::Kind::LogUniform:
        std::snprintf(text, sizeof text, "%.17g", std::exp(std::log(d.low) + u * (std::log(d.high) - std::log(d.low))));
        return text;
    case Distribution::Kind::IntUniform: return std::to_string(int64_t(d.low) + int64_t(u * (d.high - d.low + 1)));
    case Distribution::Kind::Choice: return d.choices.at(size_t(u * double(d.choices.size())));
    }
    return {};
}

class Halton : public SweepMethod {
public:
    std::optional<SweepWork> next(SweepContext& ctx) override
    {
        const SweepSettings& s = ctx.plan.settings;
        if (int(ctx.trials.size()) >= s.trials)
            return std::nullopt;
        static const unsigned primes[] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37};
        const uint64_t index = uint64_t(std::get<int64_t>(s.param("skip"))) + ctx.trials.size();
        TrialParams params;
        const auto& keys = ctx.plan.space.params();
        for (size_t k = 0; k < keys.size(); ++k)
            params.emplace_back(keys[k].first, valueAt(keys[k].second, radicalInverse(index, primes[k % 12])));
        SweepTrial& t = ctx.addTrial(params);
        return SweepWork{&t, true, configForTrial(ctx.plan.base, t.params).train.epochs};
    }
};

static constexpr char kSkip[] = "skip";

SweepMethodEntry entry()
{
    SweepMethodEntry e{
        "halton",
        "Halton (quasi-random)",
        "Halton quasi-random search",
        "Each trial takes the next point of a Halton sequence: the space covered evenly.",
        "quasi-random: each trial the next point of a Halton sequence, mapped through the distributions",
        {blockSetting<kSkip>(ValueKind::Integer, 0, 1'000'000,
                             "halton: the sequence's first index (default 1; 0 is every key's low end)", "First point:")},
        8,
        false,
        /*shardable=*/false,
        false,
        false,
        nullptr,
        [](const SweepPlan&) -> std::unique_ptr<SweepMethod> { return std::make_unique<Halton>(); }};
    e.blockDefaults = {{kSkip, OptionValue(int64_t(1))}};
    return e;
}

// The registration line.
const bool registered = (registerSweepMethod(entry()), true);

} // namespace entrena::halton
