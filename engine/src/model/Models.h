#pragma once

#include "entrena/config/Config.h"

#include <torch/torch.h>

namespace entrena {

/// Builds the configured classifier for inputs of shape [N, channels, height, width], through its
/// registry entry. Throws std::runtime_error for an architecture read from a file.
torch::nn::Sequential makeModel(const ModelSpec& spec, int64_t channels, int64_t height, int64_t width, int64_t classes);

// The registry's builders (model/ModelRegistry.cpp), each for inputs [N, channels, height, width].
torch::nn::Sequential makeMlp(const ModelSpec& spec, int64_t channels, int64_t height, int64_t width, int64_t classes);
torch::nn::Sequential makeCnn(const ModelSpec& spec, int64_t channels, int64_t height, int64_t width, int64_t classes);
torch::nn::Sequential makeResnet(const ModelSpec& spec, int64_t channels, int64_t height, int64_t width, int64_t classes);

int64_t parameterCount(const torch::nn::Module& model);

/// Whether the architecture runs channels-last (its registry entry says).
bool prefersChannelsLast(const ModelSpec& spec);
/// Stores the model's 4-d weights channels-last (before the optimizer is created).
void toChannelsLast(torch::nn::Module& model);

} // namespace entrena
