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
/// Whether a run of `spec` trained its weights channels-last: as its architecture prefers, or, for a
/// TorchScript module, as the run's measurement chose (the `channels_last` entry of the environment's
/// `paths`, train/PathChoice.h). Evaluating the weights in the same layout takes the same kernels and
/// gives the same rounding as the run did.
bool trainedChannelsLast(const ModelSpec& spec, const std::string& environmentJson);
/// Stores the model's 4-d weights channels-last (before the optimizer is created).
void toChannelsLast(torch::nn::Module& model);
/// Whether `t` is a 4-d tensor stored channels-last and not also in the default layout (a weight with
/// one input channel, or a 1×1 kernel's, can be both at once).
bool storedChannelsLast(const torch::Tensor& t);
/// Stores the 4-d tensors among `params` channels-last, or back in the default layout; their values
/// and identities (an optimizer's references) stay.
void restride(const std::vector<torch::Tensor>& params, bool channelsLast);

} // namespace entrena
