#include "entrena/config/Config.h"

#include "entrena/config/Registry.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <variant>

namespace entrena {
namespace {

using nlohmann::json;

// Reads one JSON object's keys into typed fields, remembering which keys it knew, so that
// whatever is left over can be reported as unknown. Every message names the full key path.
class Section {
public:
    Section(const json& root, std::string prefix)
        : prefix_(std::move(prefix))
    {
        if (!root.is_object())
            throw ConfigError(where() + " must be a JSON object");
        object_ = &root;
    }

    std::string key(const std::string& name) const { return prefix_.empty() ? name : prefix_ + "." + name; }

    const json* find(const std::string& name)
    {
        known_.insert(name);
        auto it = object_->find(name);
        return it == object_->end() || it->is_null() ? nullptr : &*it;
    }

    void number(const std::string& name, double& out, double lo, double hi)
    {
        if (const json* v = find(name)) {
            if (!v->is_number())
                throw ConfigError(key(name) + " must be a number, got " + v->dump());
            out = v->get<double>();
        }
        if (!std::isfinite(out) || out < lo || out > hi)
            throw ConfigError(key(name) + " must be between " + fmt(lo) + " and " + fmt(hi) + ", got " + fmt(out));
    }

    template <typename Int>
    void integer(const std::string& name, Int& out, int64_t lo, int64_t hi)
    {
        if (const json* v = find(name)) {
            if (!v->is_number_integer() && !(v->is_number_float() && std::floor(v->get<double>()) == v->get<double>()))
                throw ConfigError(key(name) + " must be a whole number, got " + v->dump());
            const double d = v->get<double>();
            if (d < double(lo) || d > double(hi))
                throw ConfigError(key(name) + " must be between " + std::to_string(lo) + " and " + std::to_string(hi) + ", got " +
                                  v->dump());
            out = static_cast<Int>(v->get<int64_t>());
        }
    }

    void boolean(const std::string& name, bool& out)
    {
        if (const json* v = find(name)) {
            if (!v->is_boolean())
                throw ConfigError(key(name) + " must be true or false, got " + v->dump());
            out = v->get<bool>();
        }
    }

    void text(const std::string& name, std::string& out) { text(name, out, {}); }

    void text(const std::string& name, std::string& out, const std::vector<std::string>& allowed)
    {
        if (const json* v = find(name)) {
            if (!v->is_string())
                throw ConfigError(key(name) + " must be a string, got " + v->dump());
            out = v->get<std::string>();
        }
        if (!allowed.empty() && std::find(allowed.begin(), allowed.end(), out) == allowed.end()) {
            std::string list;
            for (const auto& a : allowed)
                list += (list.empty() ? "" : ", ") + a;
            throw ConfigError(key(name) + " must be one of " + list + "; got '" + out + "'");
        }
    }

    void integers(const std::string& name, std::vector<int64_t>& out, int64_t lo, int64_t hi)
    {
        if (const json* v = find(name)) {
            if (v->is_number_integer()) { // one number stands for a list of one ("image_size": 32)
                if (v->get<int64_t>() < lo || v->get<int64_t>() > hi)
                    throw ConfigError(key(name) + " must hold whole numbers between " + std::to_string(lo) + " and " +
                                      std::to_string(hi) + ", got " + v->dump());
                out = {v->get<int64_t>()};
                return;
            }
            if (!v->is_array())
                throw ConfigError(key(name) + " must be a list of whole numbers, got " + v->dump());
            out.clear();
            for (const auto& item : *v) {
                if (!item.is_number_integer() || item.get<int64_t>() < lo || item.get<int64_t>() > hi)
                    throw ConfigError(key(name) + " must hold whole numbers between " + std::to_string(lo) + " and " +
                                      std::to_string(hi) + ", got " + item.dump());
                out.push_back(item.get<int64_t>());
            }
        }
    }

    // Any JSON value, kept as its compact text for the entry's check to read.
    void anyJson(const std::string& name, std::string& out)
    {
        if (const json* v = find(name))
            out = v->dump();
    }

    bool isKnown(const std::string& name) const { return known_.count(name) > 0; }

    // Keys present but never asked for are unknown: an error, so that a typo is not silently ignored.
    void rejectUnknown(const std::string& hint = {}) const
    {
        for (auto it = object_->begin(); it != object_->end(); ++it) {
            if (!known_.count(it.key()))
                throw ConfigError("unknown key '" + key(it.key()) + "'" + (hint.empty() ? "" : " (" + hint + ")") +
                                  "; see docs/configuration.md for the keys");
        }
    }

    static std::string fmt(double v)
    {
        std::ostringstream s;
        s << v;
        return s.str();
    }

private:
    std::string where() const { return prefix_.empty() ? "the configuration" : "'" + prefix_ + "'"; }

    std::string prefix_;
    const json* object_ = nullptr;
    std::set<std::string> known_;
};

const json& sectionOf(const json& root, const char* name)
{
    static const json empty = json::object();
    auto it = root.find(name);
    return it == root.end() || it->is_null() ? empty : *it;
}

int64_t asInt(double bound)
{
    return bound >= 9.2e18 ? std::numeric_limits<int64_t>::max() : int64_t(bound);
}

// One key, read into its field through the registry's description.
template <class Spec>
void readKey(Section& section, Spec& spec, const OptionKey<Spec>& k)
{
    OptionValue value = k.get(spec);
    switch (k.kind) {
    case ValueKind::Number: section.number(k.key, std::get<double>(value), k.lo, k.hi); break;
    case ValueKind::Integer: section.integer(k.key, std::get<int64_t>(value), asInt(k.lo), asInt(k.hi)); break;
    case ValueKind::Boolean: section.boolean(k.key, std::get<bool>(value)); break;
    case ValueKind::Text: section.text(k.key, std::get<std::string>(value)); break;
    case ValueKind::Choice: section.text(k.key, std::get<std::string>(value), k.choices); break;
    case ValueKind::IntegerList: section.integers(k.key, std::get<std::vector<int64_t>>(value), asInt(k.lo), asInt(k.hi)); break;
    case ValueKind::Json: section.anyJson(k.key, std::get<JsonText>(value).text); break;
    }
    k.set(spec, value);
}

template <class Spec>
void readKeys(Section& section, Spec& spec, const std::vector<OptionKey<Spec>>& keys)
{
    for (const auto& k : keys)
        readKey(section, spec, k);
}

json valueJson(const OptionValue& v)
{
    return std::visit(
        [](const auto& x) {
            if constexpr (std::is_same_v<std::decay_t<decltype(x)>, JsonText>)
                return json::parse(x.text, nullptr, false); // kept as its text
            else
                return json(x);
        },
        v);
}

template <class Spec>
void writeKeys(json& out, const Spec& spec, const std::vector<OptionKey<Spec>>& keys)
{
    for (const auto& k : keys)
        out[k.key] = valueJson(k.get(spec));
}

// The entry a section chose (data.dataset, model.arch, optimizer.name, scheduler.name).
template <class Kind>
Kind readChoice(Section& section, const char* key, Kind current)
{
    std::string name = toString(current);
    section.text(key, name, choiceNames<Kind>());
    return *fromString<Kind>(name);
}

// A key of another entry of the section: an error that says whose key it is, so that a setting is
// never silently ignored ("scheduler.patience does not apply to scheduler 'step'").
template <class Entries>
void rejectKeysOfOtherEntries(const Section& section, const json& object, const Entries& entries, const char* chosen,
                              const std::string& what)
{
    for (auto it = object.begin(); it != object.end(); ++it) {
        if (section.isKnown(it.key()))
            continue;
        for (const auto& e : entries) {
            for (const auto& k : e.keys) {
                if (it.key() == k.key)
                    throw ConfigError(section.key(it.key()) + " does not apply to " + what + " '" + chosen +
                                      "' (it belongs to '" + e.name + "'); remove it or pick the " + what + " it belongs to");
            }
        }
    }
}

// Reads an entry's own keys, and the other entries' keys marked shared.
template <class Spec, class Entries, class Entry>
void readEntryKeys(Section& section, Spec& spec, const Entries& entries, const Entry& chosen)
{
    readKeys(section, spec, chosen.keys);
    for (const auto& e : entries) {
        if (&e == &chosen)
            continue;
        for (const auto& k : e.keys)
            if (k.shared && !section.isKnown(k.key))
                readKey(section, spec, k);
    }
}

RunConfig parse(const json& root)
{
    RunConfig c;
    Section top(root, "");
    readKeys(top, c, topLevelKeys());
    for (const char* s : {"data", "model", "optimizer", "scheduler", "train", "devices"})
        top.find(s);
    top.rejectUnknown();

    const json& dj = sectionOf(root, "data");
    Section d(dj, "data");
    c.data.dataset = readChoice(d, "dataset", c.data.dataset);
    const DatasetEntry& dataset = registryEntry(c.data.dataset);
    readKeys(d, c.data, dataKeys());
    readEntryKeys(d, c.data, datasetRegistry(), dataset);
    rejectKeysOfOtherEntries(d, dj, datasetRegistry(), dataset.name, "data set");
    d.rejectUnknown();

    const json& mj = sectionOf(root, "model");
    Section m(mj, "model");
    c.model.arch = readChoice(m, "arch", c.model.arch);
    const ModelEntry& model = registryEntry(c.model.arch);
    if (model.defaults)
        model.defaults(c.model);
    readKeys(m, c.model, modelKeys());
    readEntryKeys(m, c.model, modelRegistry(), model);
    rejectKeysOfOtherEntries(m, mj, modelRegistry(), model.name, "model.arch");
    m.rejectUnknown();

    const json& oj = sectionOf(root, "optimizer");
    Section o(oj, "optimizer");
    c.optimizer.kind = readChoice(o, "name", c.optimizer.kind);
    const OptimizerEntry& optimizer = registryEntry(c.optimizer.kind);
    if (optimizer.defaults)
        optimizer.defaults(c.optimizer);
    readKeys(o, c.optimizer, optimizerKeys());
    if (c.optimizer.lr <= 0.0)
        throw ConfigError("optimizer.lr must be positive, got " + Section::fmt(c.optimizer.lr));
    readEntryKeys(o, c.optimizer, optimizerRegistry(), optimizer);
    rejectKeysOfOtherEntries(o, oj, optimizerRegistry(), optimizer.name, "optimizer");
    o.rejectUnknown();

    const json& sj = sectionOf(root, "scheduler");
    Section s(sj, "scheduler");
    c.scheduler.kind = readChoice(s, "name", c.scheduler.kind);
    const SchedulerEntry& scheduler = registryEntry(c.scheduler.kind);
    readKeys(s, c.scheduler, schedulerKeys());
    readEntryKeys(s, c.scheduler, schedulerRegistry(), scheduler);
    rejectKeysOfOtherEntries(s, sj, schedulerRegistry(), scheduler.name, "scheduler");
    s.rejectUnknown();

    Section t(sectionOf(root, "train"), "train");
    readKeys(t, c.train, trainKeys());
    t.rejectUnknown();

    Section v(sectionOf(root, "devices"), "devices");
    readKeys(v, c.devices, deviceKeys());
    v.rejectUnknown();
    return c;
}

// `a.b.c=value`: the value is JSON when it parses as JSON, else a plain string, so that
// `--set model.arch=mlp` and `--set optimizer.lr=0.1` both do what one expects.
void applyOverride(json& root, const std::string& assignment)
{
    const auto eq = assignment.find('=');
    if (eq == std::string::npos || eq == 0)
        throw ConfigError("--set needs key.path=value, got '" + assignment + "'");
    const std::string path = assignment.substr(0, eq);
    const std::string raw = assignment.substr(eq + 1);
    json value = json::parse(raw, nullptr, false);
    if (value.is_discarded())
        value = raw;

    json* node = &root;
    std::string part;
    std::istringstream parts(path);
    std::vector<std::string> keys;
    while (std::getline(parts, part, '.')) {
        if (part.empty())
            throw ConfigError("--set key '" + path + "' has an empty part");
        keys.push_back(part);
    }
    for (size_t i = 0; i + 1 < keys.size(); ++i) {
        json& next = (*node)[keys[i]];
        if (next.is_null())
            next = json::object();
        if (!next.is_object())
            throw ConfigError("--set " + path + ": '" + keys[i] + "' is not a section");
        node = &next;
    }
    (*node)[keys.back()] = value;
}

} // namespace

std::string formatOptionValue(const OptionValue& value)
{
    return valueJson(value).dump();
}

RunConfig RunConfig::fromJson(const std::string& text, const std::vector<std::string>& overrides)
{
    json root = json::parse(text, nullptr, false);
    if (root.is_discarded())
        throw ConfigError("the configuration is not valid JSON; check for a missing comma or quote");
    if (!root.is_object())
        throw ConfigError("the configuration must be a JSON object ({...})");
    for (const auto& o : overrides)
        applyOverride(root, o);
    RunConfig c = parse(root);
    c.validate();
    return c;
}

RunConfig RunConfig::fromFile(const std::string& path, const std::vector<std::string>& overrides)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw ConfigError("cannot read configuration file '" + path + "'; check the path");
    std::ostringstream buffer;
    buffer << in.rdbuf();
    return fromJson(buffer.str(), overrides);
}

void RunConfig::validate() const
{
    if (devices.type == DeviceType::Cpu && devices.ids.size() > 1)
        throw ConfigError("devices.ids lists " + std::to_string(devices.ids.size()) +
                          " devices for devices.type 'cpu', which has one; for several CPU ranks use "
                          "`entrena-cli train --nproc N`");
    if (registryEntry(train.precision).needsCuda && devices.type != DeviceType::Cuda)
        throw ConfigError("train.precision '" + std::string(toString(train.precision)) +
                          "' needs a CUDA device (its loss scaling is for GPUs); on the CPU use bf16 or fp32");
    const DatasetEntry& dataEntry = registryEntry(data.dataset);
    const ModelEntry& modelEntry = registryEntry(model.arch);
    if (modelEntry.check)
        modelEntry.check(model);
    if (const auto& o = registryEntry(optimizer.kind); o.check)
        o.check(optimizer);
    if (const auto& s = registryEntry(scheduler.kind); s.check)
        s.check(*this);
    if (dataEntry.check)
        dataEntry.check(data);
    if (!dataEntry.images && (data.augmentCrop > 0 || data.augmentFlip))
        throw ConfigError(std::string("data.augment_crop and data.augment_flip apply to images, not to ") + dataEntry.name +
                          " data");
    if (!dataEntry.images && modelEntry.needsImages)
        throw ConfigError("model.arch '" + std::string(modelEntry.name) + "' needs images; " + dataEntry.name +
                          " data trains an mlp");
    if (data.folds == 1)
        throw ConfigError("data.folds 1 is not cross-validation: use 2 or more folds, or 0 to hold out "
                          "data.val_fraction");
    if (data.folds > 1 && data.fold >= data.folds)
        throw ConfigError("data.fold " + std::to_string(data.fold) + " is not one of the " + std::to_string(data.folds) +
                          " folds: use 0 … " + std::to_string(data.folds - 1));
    if (dataEntry.needsPath && data.path.empty())
        throw ConfigError(dataEntry.pathIsFile ? "data.path must name the data set's file (its training table)"
                                               : "data.path must name the folder holding the data set's files");
}

std::string RunConfig::toJson(int indent) const
{
    json j;
    writeKeys(j, *this, topLevelKeys());
    json d = {{"dataset", toString(data.dataset)}};
    writeKeys(d, data, dataKeys());
    writeKeys(d, data, registryEntry(data.dataset).keys);
    json m = {{"arch", toString(model.arch)}};
    writeKeys(m, model, modelKeys());
    writeKeys(m, model, registryEntry(model.arch).keys);
    json o = {{"name", toString(optimizer.kind)}};
    writeKeys(o, optimizer, optimizerKeys());
    writeKeys(o, optimizer, registryEntry(optimizer.kind).keys);
    json s = {{"name", toString(scheduler.kind)}};
    writeKeys(s, scheduler, schedulerKeys());
    writeKeys(s, scheduler, registryEntry(scheduler.kind).keys);
    json t, v;
    writeKeys(t, train, trainKeys());
    writeKeys(v, devices, deviceKeys());
    j["data"] = d;
    j["model"] = m;
    j["optimizer"] = o;
    j["scheduler"] = s;
    j["train"] = t;
    j["devices"] = v;
    return j.dump(indent);
}

} // namespace entrena
