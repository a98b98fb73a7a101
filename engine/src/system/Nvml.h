#pragma once
// NVIDIA's management library, loaded at run time when the driver provides it: the device's own
// view of its memory (every process's, not only this one's allocator) and its utilisation.
// Entrena neither links against it nor needs it; without it the readings are simply absent.

#include <cstdint>
#include <memory>
#include <string>

namespace entrena {

struct NvmlReading {
    int64_t usedBytes = -1;  ///< device memory in use by all processes
    int64_t totalBytes = -1;
    int utilization = -1;    ///< percent of the last sample period the device was busy
};

class Nvml {
public:
    /// The process's instance, loaded on first use from `libnvidia-ml.so.1`
    /// (or from ENTRENA_NVML_LIBRARY, for tests).
    static Nvml& instance();

    explicit Nvml(const std::string& library);
    ~Nvml();
    Nvml(const Nvml&) = delete;
    Nvml& operator=(const Nvml&) = delete;

    bool available() const { return ready_; }
    /// Why the library is not available ("" when it is).
    const std::string& problem() const { return problem_; }
    /// Device `index` as NVML numbers it; all fields -1 when unavailable or on error.
    NvmlReading read(int index) const;
    /// The device at a PCI bus id ("0000:3b:00.0"): CUDA and NVML number devices differently
    /// (CUDA_VISIBLE_DEVICES, ordering), the bus id names the same one to both.
    NvmlReading readByBusId(const std::string& busId) const;

private:
    NvmlReading readDevice(void* device) const;

    struct Api;
    std::unique_ptr<Api> api_;
    void* handle_ = nullptr;
    bool ready_ = false;
    std::string problem_;
};

} // namespace entrena
