#pragma once
// Parameter blocks: the keys of registry entries added from outside the engine (registerModel,
// registerOptimizer, registerScheduler, registerSweepMethod). Such an entry's keys are kept in its
// section's `params`, by name, and read and written through OptionKeys like the built-in entries'
// fields, so the configuration's JSON, `--set`, `entrena-cli config-keys`, the form's rows and the
// sweep dialog treat them alike. The entry lists their defaults.
//
// Plain C++ (the GUI includes it).

#include "entrena/config/OptionKey.h"

#include <map>
#include <string>

namespace entrena {

/// An entry's own parameters, by key.
using ParamBlock = std::map<std::string, OptionValue>;

template <class Spec, const char* Key>
OptionValue blockValue(const Spec& spec)
{
    return spec.param(Key);
}

template <class Spec, const char* Key>
void setBlockValue(Spec& spec, const OptionValue& value)
{
    spec.params[Key] = value;
}

/// A key kept in the section's parameter block under `Key`, a name with static storage:
///
///     static constexpr char kPower[] = "power";
///     blockKey<SchedulerSpec, kPower>(ValueKind::Number, 0.1, 10, "the exponent (default 1)", form)
template <class Spec, const char* Key>
OptionKey<Spec> blockKey(ValueKind kind, double lo, double hi, const char* doc, FormHint form = {})
{
    OptionKey<Spec> k;
    k.key = Key;
    k.kind = kind;
    k.lo = lo;
    k.hi = hi;
    k.doc = doc;
    k.form = form;
    k.get = &blockValue<Spec, Key>;
    k.set = &setBlockValue<Spec, Key>;
    return k;
}

} // namespace entrena
