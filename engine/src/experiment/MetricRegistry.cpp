// The figures an experiment compares its trials by: one entry each.
#include "entrena/experiment/MetricRegistry.h"

#include "config/Keys.h"

namespace entrena {

const std::vector<MetricEntry>& metricRegistry()
{
    static const std::vector<MetricEntry> entries = {
        {"val_accuracy", ENTRENA_LABEL("Registry", "Validation accuracy"),
         ENTRENA_LABEL("Registry", "Validation accuracy (higher wins)"),
         ENTRENA_LABEL("Registry", "the highest validation accuracy wins"), "higher is better", true, true},
        {"val_loss", ENTRENA_LABEL("Registry", "Validation loss"), ENTRENA_LABEL("Registry", "Validation loss (lower wins)"),
         ENTRENA_LABEL("Registry", "the lowest validation loss wins"), "lower is better", false, false},
    };
    return entries;
}

const MetricEntry* findMetric(const std::string& name)
{
    for (const MetricEntry& m : metricRegistry())
        if (name == m.name)
            return &m;
    return nullptr;
}

const MetricEntry& metricOrDefault(const std::string& name)
{
    const MetricEntry* m = findMetric(name);
    return m ? *m : metricRegistry().front();
}

std::string metricNames()
{
    const auto& all = metricRegistry();
    std::string names;
    for (size_t i = 0; i < all.size(); ++i)
        names += std::string(i == 0 ? "" : i + 1 == all.size() ? " or " : ", ") + all[i].name;
    return names;
}

} // namespace entrena
