#include "experiment/TrialName.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace entrena {

/// A trial's run name: the experiment's name, the trial's number and what it tries ("fmnist-mlp-asha
/// trial 3: lr=0.0123, batch_size=64"): in the runs list every trial was "fmnist-mlp".
std::string trialName(const std::string& experiment, int index, const TrialParams& params, int fold)
{
    // A cross-validation's run is its fold, counted from 1 as people count ("wine-mlp 5-fold fold 2"),
    // not "trial 1: fold=1".
    const auto cvFold = std::find_if(params.begin(), params.end(), [](const auto& p) { return p.first == "data.fold"; });
    std::string name = experiment;
    if (cvFold != params.end())
        name += " fold " + std::to_string(std::atoi(cvFold->second.c_str()) + 1);
    else
        name += " trial " + std::to_string(index);
    if (fold >= 0)
        name += " fold " + std::to_string(fold);
    bool first = true;
    for (size_t i = 0; i < params.size(); ++i) {
        if (params.begin() + long(i) == cvFold)
            continue;
        const auto& [key, value] = params[i];
        std::string shortKey = key.substr(key.rfind('.') + 1);
        if (shortKey == "name" && key.find('.') != std::string::npos) // optimizer.name=adam reads optimizer=adam
            shortKey = key.substr(0, key.find('.'));
        std::string shown = value;
        char* end = nullptr;
        const double number = std::strtod(value.c_str(), &end);
        if (end && *end == '\0' && !value.empty() && value.find_first_not_of("0123456789") != std::string::npos) {
            char buf[32];
            std::snprintf(buf, sizeof buf, "%.3g", number); // 0.012345678 reads 0.0123
            shown = buf;
        }
        if (shown.size() >= 2 && shown.front() == '"' && shown.back() == '"')
            shown = shown.substr(1, shown.size() - 2);
        name += (first ? ": " : ", ") + shortKey + "=" + shown;
        first = false;
    }
    return name;
}

} // namespace entrena
