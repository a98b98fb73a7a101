#include "system/DeviceChoice.h"

#include <string>

namespace entrena {

torch::Device chooseDevice(const DeviceSpec& spec, int localRank)
{
    if (spec.type != DeviceType::Cuda)
        return torch::kCPU;
    if (!torch::cuda::is_available())
        throw std::runtime_error("devices.type is 'cuda' but no CUDA device is available (this LibTorch is "
                                 "built for CPU only, or no GPU is present); use devices.type 'cpu'");
    const int64_t id = spec.ids.empty() ? localRank : spec.ids.at(size_t(localRank) % spec.ids.size());
    if (id >= int64_t(torch::cuda::device_count()))
        throw std::runtime_error("devices.ids names cuda:" + std::to_string(id) + " but only " +
                                 std::to_string(torch::cuda::device_count()) + " CUDA devices exist");
    return torch::Device(torch::kCUDA, c10::DeviceIndex(id));
}

} // namespace entrena
