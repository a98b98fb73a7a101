#include "system/ProcessMemory.h"

#include "system/Nvml.h"

#ifdef ENTRENA_WITH_CUDA
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDACachingAllocator.h>
#include <cuda_runtime_api.h>
#endif

#include <fstream>
#include <unistd.h>

namespace entrena {

int64_t residentMemoryBytes()
{
    std::ifstream in("/proc/self/statm");
    long long pages = 0, resident = 0;
    in >> pages >> resident;
    return int64_t(resident) * int64_t(sysconf(_SC_PAGESIZE));
}

DeviceMemory cudaMemory(int index)
{
    DeviceMemory m;
#ifdef ENTRENA_WITH_CUDA
    // Reading the allocator's counters does not synchronise the device.
    const auto stats = c10::cuda::CUDACachingAllocator::getDeviceStats(index);
    constexpr size_t kAll = 0; // StatType::AGGREGATE
    m.allocated = stats.allocated_bytes[kAll].current;
    m.reserved = stats.reserved_bytes[kAll].current;
    m.peak = stats.allocated_bytes[kAll].peak;
    size_t freeBytes = 0, totalBytes = 0;
    if (cudaMemGetInfo(&freeBytes, &totalBytes) == cudaSuccess)
        m.total = int64_t(totalBytes);
    if (const Nvml& nvml = Nvml::instance(); nvml.available()) {
        char busId[32] = {};
        if (cudaDeviceGetPCIBusId(busId, sizeof busId, index) == cudaSuccess) {
            const NvmlReading r = nvml.readByBusId(busId);
            m.used = r.usedBytes;
            m.utilization = r.utilization;
        }
    }
#else
    (void)index;
#endif
    return m;
}

} // namespace entrena
