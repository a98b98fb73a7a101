#pragma once
// The figures an experiment compares its trials by (`--metric`, the sweep dialog's Metric): one
// entry each, with its direction (which value wins), how it is shown and its words. Sweeps, ASHA's
// pruning, cross-validation's summary and every view of an experiment read the direction here, so a
// new figure (regression's val_rmse, lower wins) is one entry in MetricRegistry.cpp.
//
// Plain C++ (the GUI includes it).

#include <string>
#include <vector>

namespace entrena {

struct MetricEntry {
    const char* name;   ///< in stores and on the command line: "val_accuracy"
    const char* label;  ///< in the GUI (English; translated in the context Registry): "Validation accuracy"
    const char* choice; ///< the sweep dialog's choice, with its direction: "Validation accuracy (higher wins)"
    const char* wins;   ///< in a sentence about an experiment: "the highest validation accuracy wins"
    const char* doc;    ///< the command line's help: "higher is better"
    bool higherIsBetter;
    bool percent; ///< a share, shown as a percentage
};

const std::vector<MetricEntry>& metricRegistry();
/// The entry of that name, or null.
const MetricEntry* findMetric(const std::string& name);
/// The entry of that name; for a name this version does not know (a store from a newer one), the
/// first entry's (val_accuracy), as stores before the registry read every such name.
const MetricEntry& metricOrDefault(const std::string& name);
/// "val_accuracy or val_loss": the names, for messages.
std::string metricNames();

} // namespace entrena
