// A sweep's plan: its settings as stored, and every check made before anything runs or is stored.
#include "entrena/config/Registry.h"
#include "entrena/experiment/Sweep.h"
#include "entrena/experiment/SweepMethodRegistry.h"
#include "entrena/store/RunStore.h"
#include "experiment/SweepDriver.h"
#include "entrena/experiment/MetricRegistry.h"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>
#include <variant>

namespace entrena {

using nlohmann::json;

std::string SweepSettings::toJson() const
{
    json j{{"method", method}, {"trials", trials}, {"parallel", parallel}, {"metric", metric},         {"name", name},
           {"seed", seed},     {"shard", shard},   {"shards", shards},     {"keep_pruned", keepPruned}};
    if (cv > 0) { // absent for a sweep without folds: its stored settings read as before
        j["cv"] = cv;
        j["cv_stratify"] = cvStratify;
    }
    // Every method's own settings, from its registry entry (min_epochs, reduction, interval, quantile, …).
    for (const SweepMethodEntry& e : sweepMethodRegistry())
        for (const auto& k : e.keys)
            j[k.key] = json::parse(formatOptionValue(k.get(*this)));
    return j.dump();
}

SweepSettings SweepSettings::fromJson(const std::string& text)
{
    const json j = json::parse(text);
    SweepSettings s;
    s.method = j.value("method", s.method);
    s.trials = j.value("trials", s.trials);
    s.parallel = j.value("parallel", s.parallel);
    s.metric = j.value("metric", s.metric);
    s.name = j.value("name", s.name);
    s.seed = j.value("seed", s.seed);
    for (const SweepMethodEntry& e : sweepMethodRegistry())
        for (const auto& k : e.keys)
            if (j.contains(k.key) && j[k.key].is_number())
                k.set(s,
                      k.kind == ValueKind::Integer ? OptionValue(j[k.key].get<int64_t>()) : OptionValue(j[k.key].get<double>()));
    s.shard = j.value("shard", s.shard);
    s.shards = j.value("shards", s.shards);
    s.keepPruned = j.value("keep_pruned", s.keepPruned);
    s.cv = j.value("cv", s.cv);
    s.cvStratify = j.value("cv_stratify", s.cvStratify);
    return s;
}

namespace {

/// sweep --cv K: every trial is cross-validated, so the base deals K folds and each trial's runs
/// take one fold each.
RunConfig foldedBase(const RunConfig& base, const SweepSettings& s, const SweepMethodEntry& method,
                     const std::string& spaceJson)
{
    if (s.cv == 0)
        return base;
    if (s.cv < 2)
        throw SpaceError("--cv " + std::to_string(s.cv) + " is not cross-validation: use 2 or more folds");
    if (method.copiesState)
        throw SpaceError(s.method + " copies weights between trials, and the folds of one trial cannot share them: "
                                    "with --cv use another --method");
    const json space = json::parse(spaceJson, nullptr, false);
    for (const char* key : {"data.fold", "data.folds", "data.stratify"})
        if (space.is_object() && space.contains(key))
            throw SpaceError(std::string("--cv deals the folds itself: remove ") + key + " from the space");
    RunConfig folded = base;
    folded.data.folds = s.cv;
    folded.data.fold = 0;
    folded.data.stratify = s.cvStratify;
    folded.validate();
    return folded;
}

} // namespace

SweepPlan planSweep(const RunConfig& given, const std::string& spaceJson, SweepSettings s, int cores)
{
    const SweepMethodEntry* method = findSweepMethod(s.method);
    if (!method)
        throw SpaceError("--method must be " + sweepMethodNames() + "; got '" + s.method + "'");
    if (!findMetric(s.metric))
        throw SpaceError("--metric must be " + metricNames() + "; got '" + s.metric + "'");
    const RunConfig base = foldedBase(given, s, *method, spaceJson);
    if (base.data.valFraction <= 0 && base.data.folds < 2 && !registryEntry(base.data.dataset).ownValidation)
        throw SpaceError("a sweep compares trials on the validation split: data.val_fraction must be above 0");
    SweepPlan plan{base, SearchSpace::fromJson(spaceJson, base), s};
    SweepSettings& p = plan.settings;
    if (method->everyCombination) {
        if (!plan.space.onlyChoices())
            throw SpaceError(std::string(method->title) +
                             " tries every combination: its space takes only choice distributions (give the values to "
                             "try as {\"choice\": […]}), or use --method random or tpe");
        p.trials = int(plan.space.grid().size());
    }
    if (p.trials <= 0)
        p.trials = method->defaultTrials;
    for (const auto& k : method->keys) { // its own settings, within their ranges
        const OptionValue v = k.get(p);
        const double x = k.kind == ValueKind::Integer ? double(std::get<int64_t>(v)) : std::get<double>(v);
        if (x < k.lo || x > k.hi) {
            std::ostringstream range;
            range << k.lo << " to " << k.hi;
            throw SpaceError(p.method + " needs " + settingFlag(k.key) + " from " + range.str() + ", got " +
                             formatOptionValue(v));
        }
    }
    if (p.shards > 1) {
        if (!method->shardable)
            throw SpaceError("--shard splits a sweep among independent tasks (grid, random); " + p.method +
                             " needs every trial's results in one place");
        if (p.shard < 0 || p.shard >= p.shards)
            throw SpaceError("--shard K/N needs 0 <= K < N");
        p.trials = (p.trials - p.shard + p.shards - 1) / p.shards; // this task's share of the trials
    }
    const int devices = base.devices.type == DeviceType::Cuda ? std::max<int>(1, int(base.devices.ids.size())) : cores;
    if (p.parallel <= 0)
        p.parallel = base.devices.type == DeviceType::Cuda ? devices : 1;
    if (p.parallel > devices)
        throw SpaceError("--parallel " + std::to_string(p.parallel) + " runs more trials at once than there are " +
                         (base.devices.type == DeviceType::Cuda ? "GPUs listed in devices.ids (" : "CPU cores (") +
                         std::to_string(devices) + "); lower --parallel");
    if (method->setsEpochs)
        for (const auto& [key, d] : plan.space.params())
            if (key == "train.epochs")
                throw SpaceError(p.method + " gives each trial its epochs itself (up to the base's train.epochs): remove "
                                            "train.epochs from its space");
    if (method->copiesState)
        for (const auto& [key, d] : plan.space.params())
            if (key.rfind("model.", 0) == 0 || key == "data.dataset" || key == "optimizer.name" || key == "scheduler.name")
                throw SpaceError(p.method +
                                 " copies weights and optimizer state between trials, so they must have the "
                                 "same model, data and optimizer: remove " +
                                 key + " from its space");
    if (method->check)
        method->check(p, base);
    if (p.name.empty())
        p.name = base.name + "-" + p.method;
    return plan;
}

/// The shards of one job array share an experiment: its uuid comes from what they share (name,
/// space, base configuration, number of shards), so `import` merges their trials into one
/// experiment, however many stores they arrive in and in whatever order.
std::string jobArrayUuid(const ExperimentRecord& e, int shards)
{
    const std::string key = e.name + '\n' + e.spaceJson + '\n' + e.baseConfigJson + '\n' + std::to_string(shards);
    auto fnv = [&key](uint64_t h) {
        for (const unsigned char c : key)
            h = (h ^ c) * 1099511628211ULL;
        return h;
    };
    const uint64_t hi = fnv(14695981039346656037ULL), lo = fnv(0x9e3779b97f4a7c15ULL);
    char text[40];
    std::snprintf(text, sizeof text, "%08llx-%04llx-8%03llx-a%03llx-%012llx", (unsigned long long)(hi >> 32),
                  (unsigned long long)((hi >> 16) & 0xffff), (unsigned long long)(hi & 0xfff),
                  (unsigned long long)(lo >> 52), (unsigned long long)(lo & 0xffffffffffffULL));
    return text;
}

} // namespace entrena
