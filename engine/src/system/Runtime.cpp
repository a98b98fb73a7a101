#include "entrena/system/Runtime.h"

#include "system/CpuInfo.h"

#include <torch/torch.h>

#include <dlfcn.h>
#include <malloc.h>
#include <sched.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

namespace entrena {
namespace {

constexpr const char* kTunedVar = "ENTRENA_TUNED";

// OpenBLAS 0.3.21 (Debian 12) takes some virtualised CPUs for old ones ("Prescott") and then
// runs several times slower; naming the core family from the CPU's own flags avoids that.
std::string openblasCoreFor(const std::string& flags, const std::string& vendor)
{
    const bool amd = vendor.find("AMD") != std::string::npos;
    if (hasCpuFlag(flags, "avx512f") && hasCpuFlag(flags, "avx512bw") && hasCpuFlag(flags, "avx512vl") &&
        hasCpuFlag(flags, "avx512dq"))
        return "SkylakeX";
    if (hasCpuFlag(flags, "avx2") && hasCpuFlag(flags, "fma"))
        return amd ? "Zen" : "Haswell";
    if (hasCpuFlag(flags, "avx"))
        return "Sandybridge";
    return {};
}

std::string& summary()
{
    static std::string s;
    return s;
}

} // namespace

// Large tensors come and go every step. glibc maps each block over its threshold afresh and
// unmaps it when freed, so every step pays page faults and zeroing for the same few buffers
// (6% of a CNN step here, measured with perf); keeping them in the heap reuses them.
void keepLargeBlocks()
{
    mallopt(M_MMAP_THRESHOLD, 256 << 20);
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
}

void tuneProcess(int /*argc*/, char** argv, bool computesHere)
{
    if (const char* tuned = std::getenv(kTunedVar)) {
        keepLargeBlocks();
        summary() = tuned;
        return; // already re-executed once: never loop
    }
    if (std::getenv("ENTRENA_NO_TUNE")) {
        summary() = "environment left as it is (ENTRENA_NO_TUNE is set)";
        return;
    }
    keepLargeBlocks();
    std::string said;
    bool changed = false;
    // Sets `name` unless the user did; says which.
    const auto choose = [&](const char* name, const std::string& value, const std::string& why) {
        std::string line;
        if (const char* given = std::getenv(name)) {
            line = std::string(name) + "=" + given + " (given)";
        } else if (!value.empty()) {
            setenv(name, value.c_str(), 1);
            line = std::string(name) + "=" + value + " (" + why + ")";
            changed = true;
        }
        if (!line.empty())
            said += (said.empty() ? "" : ", ") + line;
    };
    choose("OPENBLAS_CORETYPE", openblasCoreFor(cpuinfoField("flags"), cpuinfoField("vendor_id")),
           "from the CPU's flags");
    choose("OMP_WAIT_POLICY", "PASSIVE", "OpenMP threads must not spin beside OpenBLAS's");
    // OpenBLAS's idle threads call sched_yield for 2^28 cycles after each product; between the
    // products of a CNN step that is all the time, and took 17% of the CPU from the convolutions.
    // 2^4 cycles: they sleep at once and are woken by the next product.
    choose("OPENBLAS_THREAD_TIMEOUT", "4", "OpenBLAS's idle threads sleep instead of yielding");
    if (said.empty())
        said = "environment left as it is";
    summary() = said;
    if (!changed)
        return;
    setenv(kTunedVar, said.c_str(), 1);
    if (!computesHere)
        return;
    // The numeric libraries read these variables when they are loaded, which happened before
    // main(): start the program again with them in place.
    execv("/proc/self/exe", argv);
    summary() = said + "; re-execution failed, so they take effect only for child processes";
}

std::string tuningSummary() { return summary(); }

int physicalCoreCount()
{
    std::ifstream in("/proc/cpuinfo");
    std::string line, physical = "0";
    std::set<std::string> cores;
    while (std::getline(in, line)) {
        const auto colon = line.find(':');
        if (colon == std::string::npos)
            continue;
        if (line.rfind("physical id", 0) == 0)
            physical = line.substr(colon + 1);
        else if (line.rfind("core id", 0) == 0)
            cores.insert(physical + "/" + line.substr(colon + 1));
    }
    int n = cores.empty() ? int(std::thread::hardware_concurrency()) : int(cores.size());
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0)
        n = std::min(n, CPU_COUNT(&set));
    return std::max(1, n);
}

int blasThreadCount()
{
    using GetThreads = int (*)();
    if (auto get = reinterpret_cast<GetThreads>(dlsym(RTLD_DEFAULT, "openblas_get_num_threads")))
        return get();
    return 0;
}

int applyThreadCount(int requested)
{
    const int n = requested > 0 ? requested : physicalCoreCount();
    if (torch::get_num_threads() != n)
        torch::set_num_threads(n);
    // torch::set_num_threads sets OpenMP's (and MKL's) threads, not those of the pthread OpenBLAS that
    // Debian's LibTorch multiplies matrices with: it keeps one worker per CPU, so a run given one
    // thread, or a sweep's trials given a share of the cores each, still multiplied on every core.
    using SetThreads = void (*)(int);
    if (auto set = reinterpret_cast<SetThreads>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads")))
        if (blasThreadCount() != n)
            set(n);
    return torch::get_num_threads();
}

} // namespace entrena
