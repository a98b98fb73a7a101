#pragma once
// One configuration key as the registries describe it: its JSON name, type, range, default,
// the form's label and the documentation's line. The parser, toJson, the GUI form, the docs
// table and `entrena-cli config-keys` all read these; none of them lists keys of its own.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace entrena {

enum class ValueKind { Number, Integer, Boolean, Text, Choice, IntegerList, Json };

/// A Json key's value: any JSON value (an object, a string or a number, as the entry reads it), held
/// as its compact text: {"path":"a.pt"}, "backbone", 3. The entry's check reads and judges it.
struct JsonText {
    std::string text = "null";
    bool operator==(const JsonText& other) const { return text == other.text; }
    bool operator!=(const JsonText& other) const { return text != other.text; }
};

/// A key's value: double (Number), int64_t (Integer), bool, std::string (Text, and Choice by
/// name), std::vector<int64_t> (IntegerList), JsonText (Json).
using OptionValue = std::variant<double, int64_t, bool, std::string, std::vector<int64_t>, JsonText>;

/// How the form shows a key (the engine does not use these).
struct FormHint {
    const char* label = nullptr;    ///< the form's label, in English ("Multiply by:"); nullptr: not in the form
    int decimals = 4;               ///< Number: digits after the point
    double step = 0.0;              ///< Number/Integer: the spin box's step (0: 1 or a tenth of the range)
    const char* zeroText = nullptr; ///< Number/Integer: what 0 means, shown instead of it ("whole run")
    std::optional<double> initial;  ///< the value shown when the configuration has another entry (gamma 0.95)
    double formLo = 0, formHi = 0;  ///< the form's range when narrower than the key's (both 0: the key's)
};

/// A key of a configuration section `Spec` (SchedulerSpec, OptimizerSpec, …).
template <class Spec>
struct OptionKey {
    const char* key = ""; ///< the JSON key within its section ("gamma")
    ValueKind kind = ValueKind::Number;
    double lo = 0, hi = 0;            ///< Number, Integer, IntegerList items: the accepted range
    std::vector<std::string> choices; ///< Choice: the accepted names
    const char* doc = "";             ///< the documentation's line
    const char* defaultDoc = nullptr; ///< the default in words when the value alone misleads ("the run's epochs")
    FormHint form;
    bool shared = false; ///< accepted (and read) whichever entry the section chose, though only its own apply
    OptionValue (*get)(const Spec&) = nullptr;
    void (*set)(Spec&, const OptionValue&) = nullptr;
};

/// The value as the JSON file writes it ("0.1", "[3, 6]", "\"cos\"", "true", "{\"path\":\"a.pt\"}").
std::string formatOptionValue(const OptionValue& value);

/// Whether an entry has the key `name` ("momentum").
template <class Spec>
bool hasKey(const std::vector<OptionKey<Spec>>& keys, std::string_view name)
{
    for (const auto& k : keys)
        if (name == k.key)
            return true;
    return false;
}

} // namespace entrena
