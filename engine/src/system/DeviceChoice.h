#pragma once
// Which LibTorch device a configuration's `devices` section names.

#include "entrena/config/Config.h"

#include <torch/torch.h>

namespace entrena {

/// The device of devices.type and devices.ids; a data-parallel rank takes the `localRank`-th listed
/// (or visible) one. Throws std::runtime_error naming the problem (no CUDA, an id out of range).
torch::Device chooseDevice(const DeviceSpec& spec, int localRank = 0);

} // namespace entrena
