#pragma once
// What a configured model is: its layers, parameter count and cost, for the UI and reports.

#include "entrena/config/Config.h"

#include <cstdint>
#include <string>
#include <vector>

namespace entrena {

struct LayerSummary {
    std::string name;
    std::string kind;                 ///< Linear, Conv2d, ResidualBlock, ReLU, …
    std::vector<int64_t> outputShape; ///< for one sample
    int64_t parameters = 0;
    double flops = 0; ///< forward floating-point operations for one sample (a multiply-add counts 2)
};

struct ModelSummary {
    std::vector<LayerSummary> layers;
    int64_t parameters = 0;
    double flopsPerSample = 0; ///< forward; a training step costs about three times this
};

/// Summarises the model of `spec` for inputs of [channels, height, width] and `classes` outputs.
/// Throws ConfigError for a model that cannot take such inputs.
ModelSummary summarizeModel(const ModelSpec& spec, int64_t channels, int64_t height, int64_t width, int64_t classes);

} // namespace entrena
