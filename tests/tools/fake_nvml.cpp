// A stand-in for NVIDIA's libnvidia-ml.so.1 with fixed readings, so that tst_nvml can check how
// Entrena loads and reads the real one on machines without an NVIDIA driver. One device, index 0,
// PCI bus id 0000:3b:00.0. FAKE_NVML_INIT_FAILS=1 makes nvmlInit_v2 fail as it does without a driver.
#include <cstdlib>
#include <cstring>

extern "C" {

struct Memory {
    unsigned long long total, free, used;
};
struct Utilization {
    unsigned int gpu, memory;
};

namespace {
int device;
}

int nvmlInit_v2(void) { return std::getenv("FAKE_NVML_INIT_FAILS") ? 9 /* driver not loaded */ : 0; }
int nvmlShutdown(void) { return 0; }

int nvmlDeviceGetHandleByIndex_v2(unsigned int index, void** handle)
{
    if (index != 0)
        return 2; /* invalid argument */
    *handle = &device;
    return 0;
}

int nvmlDeviceGetHandleByPciBusId_v2(const char* busId, void** handle)
{
    if (std::strcmp(busId, "0000:3b:00.0") != 0)
        return 6; /* not found */
    *handle = &device;
    return 0;
}

int nvmlDeviceGetMemoryInfo(void* handle, Memory* m)
{
    if (handle != &device)
        return 2;
    m->total = 8ull << 30;
    m->used = 3ull << 30;
    m->free = m->total - m->used;
    return 0;
}

int nvmlDeviceGetUtilizationRates(void* handle, Utilization* u)
{
    if (handle != &device)
        return 2;
    u->gpu = 73;
    u->memory = 41;
    return 0;
}

} // extern "C"
