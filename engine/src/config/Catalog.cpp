// Every configuration key with its default, from the registries: what `entrena-cli config-keys`
// prints and what the documentation's tables are checked against.
#include "entrena/config/Registry.h"

namespace entrena {
namespace {

template <class Spec>
void addKeys(std::vector<ConfigKeyInfo>& out, const char* section, const char* entry, const Spec& spec,
             const std::vector<OptionKey<Spec>>& keys)
{
    for (const auto& k : keys) {
        ConfigKeyInfo info;
        info.key = *section ? std::string(section) + "." + k.key : std::string(k.key);
        info.defaultValue = formatOptionValue(k.get(spec));
        info.defaultDoc = k.defaultDoc ? k.defaultDoc : "";
        info.section = section;
        info.entry = entry;
        info.doc = k.doc;
        out.push_back(std::move(info));
    }
}

ConfigKeyInfo selector(const char* key, const char* section, const std::string& value, const char* doc)
{
    return {key, "\"" + value + "\"", "", section, "", doc};
}

} // namespace

std::vector<ConfigKeyInfo> configKeyCatalog()
{
    const RunConfig c;
    std::vector<ConfigKeyInfo> out;
    addKeys(out, "", "", c, topLevelKeys());
    out.push_back(selector("data.dataset", "data", toString(c.data.dataset), "the data set (below)"));
    addKeys(out, "data", "", c.data, dataKeys());
    for (const auto& e : datasetRegistry())
        addKeys(out, "data", e.name, c.data, e.keys);
    out.push_back(selector("model.arch", "model", toString(c.model.arch), "the architecture (below)"));
    addKeys(out, "model", "", c.model, modelKeys());
    for (const auto& e : modelRegistry()) {
        ModelSpec spec = c.model;
        spec.arch = e.arch; // a parameter block's defaults are its entry's
        if (e.defaults)
            e.defaults(spec);
        addKeys(out, "model", e.name, spec, e.keys);
    }
    out.push_back(selector("optimizer.name", "optimizer", toString(c.optimizer.kind), "the algorithm (below)"));
    addKeys(out, "optimizer", "", c.optimizer, optimizerKeys());
    for (const auto& e : optimizerRegistry()) {
        OptimizerSpec spec = c.optimizer;
        spec.kind = e.kind;
        if (e.defaults)
            e.defaults(spec);
        addKeys(out, "optimizer", e.name, spec, e.keys);
    }
    out.push_back(selector("scheduler.name", "scheduler", toString(c.scheduler.kind), "the schedule (below)"));
    addKeys(out, "scheduler", "", c.scheduler, schedulerKeys());
    for (const auto& e : schedulerRegistry()) {
        SchedulerSpec spec = c.scheduler;
        spec.kind = e.kind;
        addKeys(out, "scheduler", e.name, spec, e.keys);
    }
    addKeys(out, "train", "", c.train, trainKeys());
    addKeys(out, "devices", "", c.devices, deviceKeys());
    return out;
}

} // namespace entrena
