#include "system/MemoryMeter.h"

#ifdef ENTRENA_WITH_CUDA
#include <c10/cuda/CUDACachingAllocator.h>
#endif

#include <cstdio>

namespace entrena {

void MemoryMeter::reportMemoryUsage(void*, int64_t bytes, int64_t, int64_t, c10::Device device)
{
    if (device.type() != device_)
        return;
    const int64_t now = current_.fetch_add(bytes, std::memory_order_relaxed) + bytes;
    int64_t peak = peak_.load(std::memory_order_relaxed);
    while (now > peak && !peak_.compare_exchange_weak(peak, now, std::memory_order_relaxed)) {
    }
}

std::string mebibytes(int64_t bytes)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.2f MiB", double(bytes) / (1024.0 * 1024.0));
    return text;
}

void releaseCachedMemory(const c10::Device& device)
{
#ifdef ENTRENA_WITH_CUDA
    if (device.is_cuda())
        c10::cuda::CUDACachingAllocator::emptyCache();
#else
    (void)device;
#endif
}

std::optional<int64_t> memoryBudgetBytes(double megabytes)
{
    if (megabytes <= 0)
        return std::nullopt;
    return int64_t(megabytes * 1024.0 * 1024.0);
}

} // namespace entrena
