#pragma once
// Counts the bytes that LibTorch's allocators hand out on the threads where it is installed,
// through c10's memory-reporting hook (the one PyTorch's profiler uses for profile_memory). It
// makes a step's peak tensor memory measurable on the CPU, where no caching allocator keeps
// counters, and so makes train.memory_budget_mb and the batch-size finder work without a GPU.

#include <atomic>
#include <c10/core/Allocator.h>
#include <c10/core/Device.h>
#include <c10/util/ThreadLocalDebugInfo.h>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace entrena {

class MemoryMeter : public c10::MemoryReportingInfoBase {
public:
    explicit MemoryMeter(c10::DeviceType device)
        : device_(device)
    {
    }

    void reportMemoryUsage(void* ptr, int64_t bytes, int64_t totalAllocated, int64_t totalReserved, c10::Device device) override;
    bool memoryProfilingEnabled() const override { return true; }

    int64_t current() const { return current_.load(std::memory_order_relaxed); }
    int64_t peak() const { return peak_.load(std::memory_order_relaxed); }
    /// Starts a new peak from what is allocated now.
    void resetPeak() { peak_.store(current(), std::memory_order_relaxed); }

private:
    c10::DeviceType device_;
    std::atomic<int64_t> current_{0};
    std::atomic<int64_t> peak_{0};
};

/// Installs a meter on this thread (and on the threads that copy this thread's state, as the
/// autograd engine and the batch loader's worker do) until destroyed.
class MemoryMeterScope {
public:
    explicit MemoryMeterScope(std::shared_ptr<MemoryMeter> meter)
        : meter_(std::move(meter))
        , guard_(c10::DebugInfoKind::PROFILER_STATE, meter_)
    {
    }
    MemoryMeter& meter() { return *meter_; }

private:
    std::shared_ptr<MemoryMeter> meter_;
    c10::DebugInfoGuard guard_;
};

/// "12.34 MiB"
std::string mebibytes(int64_t bytes);

/// Returns what LibTorch's CUDA caching allocator holds but does not use to the device (after
/// running out of memory); nothing on the CPU.
void releaseCachedMemory(const c10::Device& device);

/// A budget in bytes: `std::nullopt` when train.memory_budget_mb is 0.
std::optional<int64_t> memoryBudgetBytes(double megabytes);

} // namespace entrena
