// The sweep methods (entrena/experiment/SweepMethodRegistry.h): one entry each. Their classes are in
// SweepMethods.cpp; their own settings are keys, as the run configuration's are.
#include "entrena/experiment/SweepMethodRegistry.h"

#include "config/Keys.h"
#include "experiment/SweepDriver.h"

#include <cmath>
#include <cstdlib>
#include <stdexcept>

namespace entrena {

using namespace keys;

namespace {

void checkAsha(const SweepSettings& s, const RunConfig& base)
{
    if (s.minEpochs >= base.train.epochs)
        throw SpaceError("asha needs 1 <= --min-epochs < train.epochs (" + std::to_string(base.train.epochs) +
                         "): its first rung must stop before the end");
}

void checkPbt(const SweepSettings& s, const RunConfig& base)
{
    if (s.interval >= base.train.epochs || s.trials < 2)
        throw SpaceError("pbt needs 1 <= --interval < train.epochs (" + std::to_string(base.train.epochs) +
                         ") and at least 2 trials");
}

} // namespace

namespace {

std::vector<SweepMethodEntry>& entries()
{
    using S = SweepSettings;
    static std::vector<SweepMethodEntry> entries = {
        {"grid", ENTRENA_LABEL("Registry", "Grid: every combination"), ENTRENA_LABEL("Registry", "grid search"),
         ENTRENA_LABEL("Registry", "Every combination of the choices, in order: as many trials as combinations."),
         "every combination of the choices, in order (the space takes only choice distributions)",
         {}, 0, /*everyCombination=*/true, /*shardable=*/true, false, false, nullptr, &makeGridMethod},
        {"random", ENTRENA_LABEL("Registry", "Random"), ENTRENA_LABEL("Registry", "random search"),
         ENTRENA_LABEL("Registry", "Each trial's values are drawn from their distributions."),
         "each trial's values drawn from their distributions", {}, 10, false, true, false, false, nullptr,
         &makeRandomMethod},
        {"tpe", ENTRENA_LABEL("Registry", "TPE (Bayesian)"), ENTRENA_LABEL("Registry", "TPE (Bayesian) search"),
         ENTRENA_LABEL("Registry", "After a few random trials, values are drawn where the best quarter of the trials so far lie."),
         "model-based: after a few random trials, values drawn where the best quarter of the trials lie (Optuna's default "
         "sampler)",
         {}, 10, false, false, false, false, nullptr, &makeTpeMethod},
        {"asha", ENTRENA_LABEL("Registry", "ASHA (early stopping)"), ENTRENA_LABEL("Registry", "ASHA (successive halving)"),
         ENTRENA_LABEL("Registry", "Trials train in rungs of epochs; only the best of each rung go on, the others end pruned."),
         "asynchronous successive halving: trials train in rungs of epochs and only the best 1/reduction of each rung "
         "goes on; the worst end pruned",
         {integer<&S::minEpochs>("min_epochs", 1, 1'000'000, "asha: the first rung's epochs (default 1)",
                                 shown(ENTRENA_LABEL("Registry", "First rung (epochs):"))),
          integer<&S::reduction>("reduction", 2, 100, "asha: each rung keeps the top 1/N (default 3)",
                                 shown(ENTRENA_LABEL("Registry", "Keep 1 in:")))},
         10, false, false, /*setsEpochs=*/true, false, &checkAsha, &makeAshaMethod},
        {"pbt", ENTRENA_LABEL("Registry", "Population-based training"), ENTRENA_LABEL("Registry", "population-based training"),
         ENTRENA_LABEL("Registry", "Trials train side by side; between intervals the worst take the weights and values of the "
                                   "best, then perturb the values."),
         "population-based training: trials train side by side, and every interval the worst copy the weights and values "
         "of the best and perturb them",
         {integer<&S::interval>("interval", 1, 1'000'000, "pbt: epochs between exploits (default 1)",
                                shown(ENTRENA_LABEL("Registry", "Epochs between exploits:"))),
          number<&S::quantile>("quantile", 0.05, 0.5, "pbt: the bottom share X copies from the top X (default 0.25)",
                               shown(ENTRENA_LABEL("Registry", "Share that copies:"), 2, 0.05))},
         4, false, false, /*setsEpochs=*/true, /*copiesState=*/true, &checkPbt, &makePbtMethod},
    };
    return entries;
}

} // namespace

const std::vector<SweepMethodEntry>& sweepMethodRegistry()
{
    return entries();
}

void registerSweepMethod(SweepMethodEntry entry)
{
    // The settings every sweep has, in its stored JSON and as `entrena-cli sweep` flags: a method's own
    // setting of that name would overwrite one or break the command line.
    static const char* const taken[] = {"method", "trials",      "parallel",    "metric",      "name",   "seed",  "shard",
                                        "shards", "keep_pruned", "cv",          "cv_stratify", "config", "space", "db",
                                        "json",   "resume",      "no_stratify", "set",         "help"};
    for (const auto& mine : entry.keys)
        for (const char* t : taken)
            if (settingFlag(mine.key) == settingFlag(t))
                throw std::logic_error(std::string("sweep method '") + entry.name + "': " + settingFlag(mine.key) +
                                       " is every sweep's");
    for (const SweepMethodEntry& e : entries()) {
        if (std::string(e.name) == entry.name)
            throw std::logic_error(std::string("a sweep method named '") + entry.name + "' is registered already");
        for (const auto& mine : entry.keys)
            for (const auto& theirs : e.keys)
                if (settingFlag(mine.key) == settingFlag(theirs.key))
                    throw std::logic_error(std::string("sweep method '") + entry.name + "': " + settingFlag(mine.key) +
                                           " is '" + e.name + "'s already");
    }
    entries().push_back(std::move(entry));
}

OptionValue SweepSettings::param(const std::string& key) const
{
    if (const auto given = params.find(key); given != params.end())
        return given->second;
    for (const SweepMethodEntry& e : entries())
        for (const auto& [name, value] : e.blockDefaults)
            if (name == key)
                return value;
    throw std::logic_error("no sweep method has a setting '" + key + "'");
}

const SweepMethodEntry* findSweepMethod(const std::string& name)
{
    for (const auto& e : sweepMethodRegistry())
        if (name == e.name)
            return &e;
    return nullptr;
}

std::string sweepMethodNames()
{
    const auto& all = sweepMethodRegistry();
    std::string out;
    for (std::size_t i = 0; i < all.size(); ++i)
        out += (i == 0 ? "" : i + 1 == all.size() ? " or " : ", ") + std::string(all[i].name);
    return out;
}

std::string settingFlag(const char* key)
{
    std::string flag = std::string("--") + key;
    for (char& c : flag)
        if (c == '_')
            c = '-';
    return flag;
}

void setMethodSetting(SweepSettings& settings, const OptionKey<SweepSettings>& key, const std::string& text)
{
    const std::string flag = settingFlag(key.key);
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    const bool number = !text.empty() && end && *end == '\0' && std::isfinite(v);
    const auto range = [&] {
        char b[96];
        std::snprintf(b, sizeof b, "%g to %g", key.lo, key.hi);
        return std::string(b);
    };
    if (key.kind == ValueKind::Integer) {
        if (!number || v != std::floor(v) || v < key.lo || v > key.hi)
            throw SpaceError(flag + " takes a whole number from " + range() + ", got '" + text + "'");
        key.set(settings, int64_t(v));
    } else {
        if (!number || v < key.lo || v > key.hi)
            throw SpaceError(flag + " takes a number from " + range() + ", got '" + text + "'");
        key.set(settings, v);
    }
}

} // namespace entrena
