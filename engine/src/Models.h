#pragma once

#include "entrena/Config.h"

#include <torch/torch.h>

namespace entrena {

/// Builds the configured classifier for inputs of shape [N, channels, height, width].
torch::nn::Sequential makeModel(const ModelSpec& spec, int64_t channels, int64_t height, int64_t width,
                                int64_t classes);

int64_t parameterCount(const torch::nn::Module& model);

} // namespace entrena
