#pragma once
// The fifth registry (after data sets, models, optimizers and schedules; entrena/config/Registry.h):
// one entry per sweep method, holding everything about it: its name on the command line and in
// stores, its labels and description, its own settings (as keys, from which the settings' JSON, the
// command line's flags and the sweep dialog's rows come), what its space may hold, and its factory.
// Adding a method is its class in engine/src/experiment/ and one entry in SweepMethodRegistry.cpp;
// or, from outside the engine, a file of its own with its class, its entry (its settings kept in the
// block SweepSettings::params, through `blockSetting`) and one line that calls registerSweepMethod
// (tests/engine/experiment/newmethod/HaltonMethod.cpp is one).
//
// Plain C++ (the GUI includes it).

#include "entrena/config/OptionKey.h"
#include "entrena/config/ParamBlock.h"
#include "entrena/experiment/Sweep.h"

#include <memory>
#include <string>
#include <vector>

namespace entrena {

class SweepMethod; // engine-private (experiment/SweepDriver.h)

struct SweepMethodEntry {
    const char* name;  ///< --method and the stores: "asha"
    const char* label; ///< the sweep dialog's choice (English; the GUI translates it): "ASHA (early stopping)"
    const char* title; ///< in a sentence about an experiment: "ASHA (successive halving)"
    const char* hint;  ///< the dialog's note on what it does
    const char* doc;   ///< the command line's help and the documentation's line
    std::vector<OptionKey<SweepSettings>> keys; ///< its own settings (asha: min_epochs, reduction)
    int defaultTrials;                          ///< trials when none are asked for (0: every combination)
    bool everyCombination;                      ///< tries every combination of choices (its space takes only choices)
    bool shardable;                             ///< its trials are independent: a job array can split them (--shard)
    bool setsEpochs;                            ///< gives trials their epochs itself: its space may not hold train.epochs
    bool copiesState;   ///< copies weights between trials: its space may not change model, data, optimizer or schedule
    /// Rules beyond the keys' ranges, against the base configuration (throws SpaceError); may be null.
    void (*check)(const SweepSettings& settings, const RunConfig& base) = nullptr;
    /// The method for a checked plan (defined where the methods are, engine/src/experiment).
    std::unique_ptr<SweepMethod> (*make)(const SweepPlan& plan) = nullptr;
    /// The defaults of its settings kept in SweepSettings::params (blockSetting keys).
    std::vector<std::pair<std::string, OptionValue>> blockDefaults = {};
};

/// Adds a method to the registry: before main (a static initializer of the method's own file), so
/// every reader sees one list. Throws std::logic_error for a name or a setting's flag already taken.
void registerSweepMethod(SweepMethodEntry entry);

const std::vector<SweepMethodEntry>& sweepMethodRegistry();
/// The entry of that name, or null.
const SweepMethodEntry* findSweepMethod(const std::string& name);
/// "grid, random, tpe, asha or pbt": the names, for messages.
std::string sweepMethodNames();

/// The command line's flag for a method's setting: "min_epochs" → "--min-epochs".
std::string settingFlag(const char* key);
/// Sets a method's setting from the text a person gave it (a flag's value); throws SpaceError naming
/// the flag, what it takes and what it got.
void setMethodSetting(SweepSettings& settings, const OptionKey<SweepSettings>& key, const std::string& text);

/// A method's own setting in its parameter block (SweepSettings::params) under `Key`, a name with
/// static storage: `static constexpr char kSkip[] = "skip"; blockSetting<kSkip>(ValueKind::Integer, …)`.
template <const char* Key>
OptionKey<SweepSettings> blockSetting(ValueKind kind, double lo, double hi, const char* doc, const char* label)
{
    FormHint form;
    form.label = label;
    form.decimals = kind == ValueKind::Integer ? 0 : 2;
    return blockKey<SweepSettings, Key>(kind, lo, hi, doc, form);
}

} // namespace entrena
