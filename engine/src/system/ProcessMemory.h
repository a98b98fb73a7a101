#pragma once
// Memory as a run's steps report it: the process's resident memory, and the CUDA allocator's and
// NVML's view of a device (system/ProcessMemory.cpp).

#include <cstdint>

namespace entrena {

/// The process's resident memory.
int64_t residentMemoryBytes();

struct DeviceMemory {
    int64_t allocated = -1, reserved = -1, peak = -1, total = -1;
    int64_t used = -1;    ///< NVML: memory in use on the device by every process
    int utilization = -1; ///< NVML: percent busy
};
/// The CUDA caching allocator's view of device `index`, and NVML's where the driver provides
/// it (all -1 without CUDA).
DeviceMemory cudaMemory(int index);

} // namespace entrena
