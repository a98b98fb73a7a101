#include "system/Nvml.h"

#include <dlfcn.h>

#include <cstdlib>

namespace entrena {

// The few declarations of NVML's stable C interface that Entrena uses (nvml.h, NVML API
// reference): return codes are 0 on success; memory is reported in bytes.
namespace {
using NvmlReturn = int;
using NvmlDevice = void*;
struct NvmlMemory {
    unsigned long long total, free, used;
};
struct NvmlUtilization {
    unsigned int gpu, memory;
};
} // namespace

struct Nvml::Api {
    NvmlReturn (*init)() = nullptr;
    NvmlReturn (*shutdown)() = nullptr;
    NvmlReturn (*deviceByIndex)(unsigned int, NvmlDevice*) = nullptr;
    NvmlReturn (*deviceByBusId)(const char*, NvmlDevice*) = nullptr;
    NvmlReturn (*memoryInfo)(NvmlDevice, NvmlMemory*) = nullptr;
    NvmlReturn (*utilizationRates)(NvmlDevice, NvmlUtilization*) = nullptr;
};

Nvml& Nvml::instance()
{
    const char* path = std::getenv("ENTRENA_NVML_LIBRARY");
    static Nvml nvml(path && *path ? path : "libnvidia-ml.so.1");
    return nvml;
}

Nvml::Nvml(const std::string& library) : api_(std::make_unique<Api>())
{
    handle_ = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle_) {
        const char* why = dlerror();
        problem_ = "NVML not loaded (" + std::string(why ? why : library) + ")";
        return;
    }
    const auto find = [&](auto& fn, const char* name) {
        fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(handle_, name));
        if (!fn && problem_.empty())
            problem_ = std::string("NVML lacks ") + name;
    };
    find(api_->init, "nvmlInit_v2");
    find(api_->shutdown, "nvmlShutdown");
    find(api_->deviceByIndex, "nvmlDeviceGetHandleByIndex_v2");
    find(api_->deviceByBusId, "nvmlDeviceGetHandleByPciBusId_v2");
    find(api_->memoryInfo, "nvmlDeviceGetMemoryInfo");
    find(api_->utilizationRates, "nvmlDeviceGetUtilizationRates");
    if (!problem_.empty())
        return;
    if (const NvmlReturn rc = api_->init(); rc != 0) {
        problem_ = "nvmlInit failed with code " + std::to_string(rc);
        return;
    }
    ready_ = true;
}

Nvml::~Nvml()
{
    if (ready_)
        api_->shutdown();
    if (handle_)
        dlclose(handle_);
}

NvmlReading Nvml::read(int index) const
{
    NvmlDevice device = nullptr;
    if (!ready_ || index < 0 || api_->deviceByIndex(unsigned(index), &device) != 0)
        return {};
    return readDevice(device);
}

NvmlReading Nvml::readByBusId(const std::string& busId) const
{
    NvmlDevice device = nullptr;
    if (!ready_ || api_->deviceByBusId(busId.c_str(), &device) != 0)
        return {};
    return readDevice(device);
}

NvmlReading Nvml::readDevice(void* device) const
{
    NvmlReading r;
    NvmlMemory memory{};
    if (api_->memoryInfo(device, &memory) == 0) {
        r.usedBytes = int64_t(memory.used);
        r.totalBytes = int64_t(memory.total);
    }
    NvmlUtilization busy{};
    if (api_->utilizationRates(device, &busy) == 0)
        r.utilization = int(busy.gpu);
    return r;
}

} // namespace entrena
