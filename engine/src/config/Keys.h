#pragma once
// Builders for the registries' keys: `number<&SchedulerSpec::gamma>("gamma", 0, 1, "…")` binds the
// JSON key to the field, so that reading, writing and showing it need no code of their own.

#include "entrena/config/Choices.h"
#include "entrena/config/OptionKey.h"
#include "entrena/config/ParamBlock.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <type_traits>
#include <vector>

namespace entrena::keys {

template <class>
struct MemberOf;
template <class S, class T>
struct MemberOf<T S::*> {
    using Spec = S;
    using Type = T;
};
template <auto M>
using SpecOf = typename MemberOf<decltype(M)>::Spec;
template <auto M>
using TypeOf = typename MemberOf<decltype(M)>::Type;

constexpr double kHuge = 1e12;
constexpr double kBig = 1e12;
constexpr double kInt64Max = double(std::numeric_limits<int64_t>::max());

/// The form's hint: its label and how its spin box steps.
inline FormHint shown(const char* label, int decimals = 4, double step = 0.0, const char* zeroText = nullptr)
{
    FormHint h;
    h.label = label;
    h.decimals = decimals;
    h.step = step;
    h.zeroText = zeroText;
    return h;
}

template <auto M>
OptionKey<SpecOf<M>> bind(const char* key, ValueKind kind, double lo, double hi, const char* doc, FormHint form)
{
    using S = SpecOf<M>;
    using T = TypeOf<M>;
    OptionKey<S> k;
    k.key = key;
    k.kind = kind;
    k.lo = lo;
    k.hi = hi;
    k.doc = doc;
    k.form = form;
    if constexpr (std::is_enum_v<T>) {
        k.choices = choiceNames<T>();
        k.get = [](const S& s) -> OptionValue { return std::string(toString(s.*M)); };
        k.set = [](S& s, const OptionValue& v) {
            if (const auto e = fromString<T>(std::get<std::string>(v)))
                s.*M = *e;
        };
    } else if constexpr (std::is_same_v<T, bool>) {
        k.get = [](const S& s) -> OptionValue { return s.*M; };
        k.set = [](S& s, const OptionValue& v) { s.*M = std::get<bool>(v); };
    } else if constexpr (std::is_integral_v<T>) {
        k.get = [](const S& s) -> OptionValue { return int64_t(s.*M); };
        k.set = [](S& s, const OptionValue& v) { s.*M = static_cast<T>(std::get<int64_t>(v)); };
    } else if constexpr (std::is_floating_point_v<T>) {
        k.get = [](const S& s) -> OptionValue { return double(s.*M); };
        k.set = [](S& s, const OptionValue& v) { s.*M = std::get<double>(v); };
    } else {
        k.get = [](const S& s) -> OptionValue { return s.*M; };
        k.set = [](S& s, const OptionValue& v) { s.*M = std::get<T>(v); };
    }
    return k;
}

template <auto M>
OptionKey<SpecOf<M>> number(const char* key, double lo, double hi, const char* doc, FormHint form = {})
{
    return bind<M>(key, ValueKind::Number, lo, hi, doc, form);
}

template <auto M>
OptionKey<SpecOf<M>> integer(const char* key, double lo, double hi, const char* doc, FormHint form = {})
{
    return bind<M>(key, ValueKind::Integer, lo, hi, doc, form);
}

template <auto M>
OptionKey<SpecOf<M>> boolean(const char* key, const char* doc, FormHint form = {})
{
    return bind<M>(key, ValueKind::Boolean, 0, 0, doc, form);
}

template <auto M>
OptionKey<SpecOf<M>> text(const char* key, const char* doc, FormHint form = {})
{
    return bind<M>(key, ValueKind::Text, 0, 0, doc, form);
}

template <auto M>
OptionKey<SpecOf<M>> integers(const char* key, double lo, double hi, const char* doc, FormHint form = {})
{
    return bind<M>(key, ValueKind::IntegerList, lo, hi, doc, form);
}

/// A choice among an enum's names (ChoiceNames<E>); `allowed` narrows them (early_stop_metric).
template <auto M>
OptionKey<SpecOf<M>> choice(const char* key, const char* doc, FormHint form = {}, std::vector<std::string> allowed = {})
{
    auto k = bind<M>(key, ValueKind::Choice, 0, 0, doc, form);
    if (!allowed.empty())
        k.choices = std::move(allowed);
    return k;
}

/// The same key with its default described in words.
template <class S>
OptionKey<S> defaultIs(OptionKey<S> k, const char* words)
{
    k.defaultDoc = words;
    return k;
}

/// The same key with the value the form shows when the configuration has another entry.
template <class S>
OptionKey<S> formInitially(OptionKey<S> k, double value)
{
    k.form.initial = value;
    return k;
}

/// The same key with a narrower range in the form than the file accepts.
template <class S>
OptionKey<S> formRange(OptionKey<S> k, double lo, double hi)
{
    k.form.formLo = lo;
    k.form.formHi = hi;
    return k;
}

} // namespace entrena::keys

/// A label the GUI shows, in English. The GUI translates it in the context "Registry"; lupdate
/// finds it through `-tr-function-alias QT_TRANSLATE_NOOP+=ENTRENA_LABEL` (README, Translations).
#define ENTRENA_LABEL(context, text) text

namespace entrena::keys {

/// The entry of `kind` in a registry (`Kind Entry::*member` is its kind: `&SchedulerEntry::kind`).
template <class Entry, class Kind>
const Entry& entryOf(const std::vector<Entry>& entries, Kind Entry::*member, Kind kind)
{
    for (const auto& e : entries)
        if (e.*member == kind)
            return e;
    throw std::logic_error("a choice without a registry entry");
}

/// The kind named `name` in a registry, if any entry has that name.
template <class Entry, class Kind>
std::optional<Kind> kindNamed(const std::vector<Entry>& entries, Kind Entry::*member, std::string_view name)
{
    for (const auto& e : entries)
        if (name == e.name)
            return e.*member;
    return std::nullopt;
}

/// Appends `entry` to a registry with the next free kind, which it returns (registerPrecision).
/// Throws std::logic_error for a name already taken.
template <class Entry, class Kind>
Kind appendEntry(std::vector<Entry>& entries, Kind Entry::*member, Entry entry)
{
    int next = 0;
    for (const auto& e : entries) {
        if (std::string_view(e.name) == entry.name)
            throw std::logic_error(std::string("a registry entry named '") + entry.name + "' exists already");
        next = std::max(next, int(e.*member) + 1);
    }
    entry.*member = Kind(next);
    entries.push_back(std::move(entry));
    return Kind(next);
}

/// Adds `entry` to a registry with the next free kind, which it returns (registerScheduler, …),
/// after checking its keys against a spec of that kind: none may be a key every entry of the section
/// has (`sectionKeys`), and each must have a value of its kind (a block key without a default, or
/// with a default of another type, would fail later, in a reader). Throws std::logic_error.
template <class Entry, class Kind, class Spec>
Kind addEntry(std::vector<Entry>& entries, Kind Entry::*member, Entry entry, const std::vector<OptionKey<Spec>>& sectionKeys,
              Spec spec, Kind Spec::*specMember)
{
    const Kind next = appendEntry(entries, member, std::move(entry));
    spec.*specMember = next;
    try {
        for (const auto& k : entries.back().keys) {
            if (hasKey(sectionKeys, k.key))
                throw std::logic_error(std::string("is every entry's key"));
            static constexpr size_t kIndexOf[] = {0, 1, 2, 3, 3, 4, 5}; // ValueKind → OptionValue's alternative
            if (k.get(spec).index() != kIndexOf[size_t(k.kind)])
                throw std::logic_error("has a default of another type than its kind");
        }
    } catch (const std::logic_error& e) {
        const std::string name = entries.back().name;
        entries.pop_back();
        throw std::logic_error("registry entry '" + name + "': a key " + e.what());
    }
    return next;
}

/// A key of a parameter block: its value in `params`, else the default of the entry of `kind`, else
/// of any entry that declares it.
template <class Entry, class Kind>
OptionValue blockParam(const ParamBlock& params, const std::vector<Entry>& entries, Kind Entry::*member, Kind kind,
                       const std::string& key)
{
    if (const auto given = params.find(key); given != params.end())
        return given->second;
    for (int pass = 0; pass < 2; ++pass)
        for (const auto& e : entries)
            if (pass == 1 || e.*member == kind)
                if (const auto d = e.blockDefaults.find(key); d != e.blockDefaults.end())
                    return d->second;
    throw std::logic_error("no registry entry has a key '" + key + "'");
}

/// Every entry's name, in registry order.
template <class Entry>
std::vector<std::string> namesOf(const std::vector<Entry>& entries)
{
    std::vector<std::string> out;
    for (const auto& e : entries)
        out.emplace_back(e.name);
    return out;
}

} // namespace entrena::keys
