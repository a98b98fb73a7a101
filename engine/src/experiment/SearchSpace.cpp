#include "entrena/experiment/SearchSpace.h"

#include "entrena/config/Registry.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <sstream>
#include <tuple>

namespace entrena {
namespace {

using nlohmann::json;

std::string number(double v)
{
    std::ostringstream s;
    s.precision(10);
    s << v;
    return s.str();
}

/// The keys every entry of a section has (kept when a value chooses another entry).
template <class Spec> std::vector<std::string> commonKeys(const std::vector<OptionKey<Spec>>& keys)
{
    std::vector<std::string> out;
    for (const auto& k : keys)
        out.emplace_back(k.key);
    return out;
}

/// The configuration with these values set: throws SpaceError naming the key when one does not fit.
void tryValues(const RunConfig& base, const std::string& key, const std::string& value)
{
    try {
        configForTrial(base, {{key, value}});
    } catch (const ConfigError& e) {
        throw SpaceError("the space's " + key + " = " + value + " does not make a valid configuration: " + e.what());
    }
}

Distribution parseDistribution(const std::string& key, const json& spec)
{
    if (!spec.is_object() || spec.size() != 1)
        throw SpaceError("the space's " + key +
                         " must be one distribution, e.g. {\"uniform\": [0.8, 0.99]}, {\"log_uniform\": "
                         "[1e-4, 0.3]}, {\"int_uniform\": [1, 4]} or {\"choice\": [64, 128]}; got " +
                         spec.dump());
    const std::string kind = spec.begin().key();
    const json& args = spec.begin().value();
    Distribution d;
    if (kind == "choice") {
        d.kind = Distribution::Kind::Choice;
        if (!args.is_array() || args.empty())
            throw SpaceError("the space's " + key + " choice is empty; list at least one value");
        for (const auto& v : args)
            d.choices.push_back(v.dump());
        return d;
    }
    if (kind == "uniform")
        d.kind = Distribution::Kind::Uniform;
    else if (kind == "log_uniform")
        d.kind = Distribution::Kind::LogUniform;
    else if (kind == "int_uniform")
        d.kind = Distribution::Kind::IntUniform;
    else
        throw SpaceError("the space's " + key + " has an unknown distribution '" + kind +
                         "'; use uniform, log_uniform, int_uniform or choice");
    if (!args.is_array() || args.size() != 2 || !args[0].is_number() || !args[1].is_number())
        throw SpaceError("the space's " + key + " " + kind + " needs [low, high], got " + args.dump());
    d.low = args[0].get<double>();
    d.high = args[1].get<double>();
    if (!(d.low < d.high))
        throw SpaceError("the space's " + key + " " + kind + " needs low < high, got [" + number(d.low) + ", " + number(d.high) +
                         "]");
    if (d.kind == Distribution::Kind::LogUniform && d.low <= 0)
        throw SpaceError("the space's " + key + " log_uniform needs a positive range, got [" + number(d.low) + ", " +
                         number(d.high) + "]; use uniform for a range that includes 0");
    if (d.kind == Distribution::Kind::IntUniform && (std::floor(d.low) != d.low || std::floor(d.high) != d.high))
        throw SpaceError("the space's " + key + " int_uniform needs whole numbers, got " + args.dump());
    return d;
}

} // namespace

std::string Distribution::describe() const
{
    switch (kind) {
    case Kind::Uniform: return "{\"uniform\": [" + number(low) + ", " + number(high) + "]}";
    case Kind::LogUniform: return "{\"log_uniform\": [" + number(low) + ", " + number(high) + "]}";
    case Kind::IntUniform: return "{\"int_uniform\": [" + number(low) + ", " + number(high) + "]}";
    case Kind::Choice: {
        std::string list;
        for (const auto& c : choices)
            list += (list.empty() ? "" : ", ") + c;
        return "{\"choice\": [" + list + "]}";
    }
    }
    return "{}";
}

RunConfig configForTrial(const RunConfig& base, const TrialParams& params, const std::vector<std::string>& more)
{
    static const std::vector<std::tuple<std::string, std::string, std::vector<std::string>>> selectors = {
        {"optimizer", "name", commonKeys(optimizerKeys())},
        {"scheduler", "name", commonKeys(schedulerKeys())},
        {"data", "dataset", commonKeys(dataKeys())},
        {"model", "arch", commonKeys(modelKeys())}};
    json root = json::parse(base.toJson());
    for (const auto& [key, value] : params)
        for (const auto& [section, selector, common] : selectors) {
            if (key != section + "." + selector)
                continue;
            json kept = json::object();
            for (const auto& k : common)
                if (root[section].contains(k))
                    kept[k] = root[section][k];
            root[section] = kept;
        }
    std::vector<std::string> overrides = overridesOf(params);
    overrides.insert(overrides.end(), more.begin(), more.end());
    return RunConfig::fromJson(root.dump(), overrides);
}

std::vector<std::string> overridesOf(const TrialParams& params)
{
    std::vector<std::string> out;
    for (const auto& [key, value] : params)
        out.push_back(key + "=" + value);
    return out;
}

SearchSpace SearchSpace::fromJson(const std::string& text, const RunConfig& base)
{
    const json root = json::parse(text, nullptr, false);
    if (root.is_discarded() || !root.is_object())
        throw SpaceError("the search space is not a JSON object of keys and distributions; check for a missing comma "
                         "or quote");
    if (root.empty())
        throw SpaceError("the search space is empty: give at least one key, e.g. {\"optimizer.lr\": {\"log_uniform\": "
                         "[1e-4, 0.3]}}");
    SearchSpace space;
    for (auto it = root.begin(); it != root.end(); ++it) {
        const Distribution d = parseDistribution(it.key(), it.value());
        if (d.kind == Distribution::Kind::Choice) {
            for (const auto& c : d.choices)
                tryValues(base, it.key(), c);
        } else {
            const bool integer = d.kind == Distribution::Kind::IntUniform;
            tryValues(base, it.key(), integer ? std::to_string(int64_t(d.low)) : number(d.low));
            tryValues(base, it.key(), integer ? std::to_string(int64_t(d.high)) : number(d.high));
        }
        space.params_.emplace_back(it.key(), d);
    }
    return space;
}

std::string SearchSpace::toJson() const
{
    json j = json::object();
    for (const auto& [key, d] : params_)
        j[key] = json::parse(d.describe());
    return j.dump();
}

bool SearchSpace::onlyChoices() const
{
    for (const auto& [key, d] : params_)
        if (d.continuous())
            return false;
    return true;
}

std::vector<TrialParams> SearchSpace::grid() const
{
    std::vector<TrialParams> out{{}};
    for (const auto& [key, d] : params_) {
        std::vector<TrialParams> next;
        for (const auto& partial : out)
            for (const auto& c : d.choices) {
                TrialParams p = partial;
                p.emplace_back(key, c);
                next.push_back(std::move(p));
            }
        out = std::move(next);
    }
    return out;
}

std::string sampleValue(const Distribution& d, std::mt19937_64& rng)
{
    std::uniform_real_distribution<double> u(0.0, 1.0);
    switch (d.kind) {
    case Distribution::Kind::Uniform: return number(d.low + (d.high - d.low) * u(rng));
    case Distribution::Kind::LogUniform: return number(std::exp(std::log(d.low) + (std::log(d.high) - std::log(d.low)) * u(rng)));
    case Distribution::Kind::IntUniform:
        return std::to_string(std::uniform_int_distribution<int64_t>(int64_t(d.low), int64_t(d.high))(rng));
    case Distribution::Kind::Choice: return d.choices[std::uniform_int_distribution<size_t>(0, d.choices.size() - 1)(rng)];
    }
    return "0";
}

TrialParams SearchSpace::sample(std::mt19937_64& rng) const
{
    TrialParams p;
    for (const auto& [key, d] : params_)
        p.emplace_back(key, sampleValue(d, rng));
    return p;
}

TrialParams SearchSpace::paramsOf(const std::string& configJson) const
{
    const json config = json::parse(configJson, nullptr, false);
    TrialParams p;
    for (const auto& [key, d] : params_) {
        const json* node = &config;
        std::stringstream parts(key);
        std::string part;
        while (node && std::getline(parts, part, '.')) {
            const auto it = node->find(part);
            node = it == node->end() ? nullptr : &*it;
        }
        p.emplace_back(key, node ? node->dump() : "null");
    }
    return p;
}

} // namespace entrena
