#include "entrena/system/Devices.h"

#include "entrena/system/Runtime.h"
#include "entrena/system/Version.h"
#include "system/CpuInfo.h"
#include "system/GemmCeiling.h"
#include "system/Nvml.h"

#include <nlohmann/json.hpp>
#include <torch/torch.h>

#ifdef ENTRENA_WITH_CUDA
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDACachingAllocator.h>
#include <cuda_runtime_api.h>
#endif

#include <chrono>
#include <dlfcn.h>
#include <fstream>
#include <link.h>
#include <sstream>
#include <unistd.h>

namespace entrena {
namespace {

std::string widestIsa(const std::string& flags)
{
    if (hasCpuFlag(flags, "avx512f"))
        return "avx512";
    if (hasCpuFlag(flags, "avx2"))
        return "avx2";
    if (hasCpuFlag(flags, "avx"))
        return "avx";
    return "sse";
}

// fp32 FLOPs per cycle per core of two FMA pipes at the ISA's width.
double flopsPerCycle(const std::string& isa)
{
    if (isa == "avx512")
        return 64;
    if (isa == "avx2")
        return 32;
    if (isa == "avx")
        return 16;
    return 8;
}

int collectBlas(dl_phdr_info* info, size_t, void* out)
{
    const std::string name = info->dlpi_name ? info->dlpi_name : "";
    if (name.find("blas") != std::string::npos || name.find("mkl") != std::string::npos) {
        auto& s = *static_cast<std::string*>(out);
        s += (s.empty() ? "" : ", ") + name;
    }
    return 0;
}

std::string resolved(const std::string& libs)
{
    // libblas.so.3 is an alternatives link: show what it really is.
    std::string out;
    std::istringstream parts(libs);
    std::string p;
    while (std::getline(parts, p, ',')) {
        p.erase(0, p.find_first_not_of(' '));
        char buf[4096];
        const char* real = realpath(p.c_str(), buf);
        out += (out.empty() ? "" : ", ") + std::string(real ? real : p.c_str());
    }
    return out;
}

} // namespace

DeviceReport probeDevices(bool gemm)
{
    DeviceReport r;
    r.cpuModel = cpuinfoField("model name");
    r.logicalCpus = int(sysconf(_SC_NPROCESSORS_ONLN));
    r.physicalCores = physicalCoreCount();
    r.cpuIsa = widestIsa(cpuinfoField("flags"));
    r.torchThreads = torch::get_num_threads();
    r.torchVersion = std::to_string(TORCH_VERSION_MAJOR) + "." + std::to_string(TORCH_VERSION_MINOR) + "." +
                     std::to_string(TORCH_VERSION_PATCH);
    r.tuning = tuningSummary();
    std::string libs;
    dl_iterate_phdr(collectBlas, &libs);
    r.blasLibrary = resolved(libs);
    using CoreName = char* (*)();
    if (auto f = reinterpret_cast<CoreName>(dlsym(RTLD_DEFAULT, "openblas_get_corename")))
        r.blasCore = f();
    if (auto f = reinterpret_cast<CoreName>(dlsym(RTLD_DEFAULT, "openblas_get_config")))
        r.blasConfig = f();
    r.blasThreads = blasThreadCount();

    const Nvml& nvml = Nvml::instance();
    r.nvml = nvml.available() ? "loaded" : nvml.problem();
    r.devices.push_back({"cpu", 0, r.cpuModel, 0, ""});
#ifdef ENTRENA_WITH_CUDA
    if (torch::cuda::is_available()) {
        for (int i = 0; i < int(torch::cuda::device_count()); ++i) {
            const auto* p = at::cuda::getDeviceProperties(i);
            r.devices.push_back(
                {"cuda", i, p->name, (long long)p->totalGlobalMem, std::to_string(p->major) + "." + std::to_string(p->minor)});
        }
    }
#endif

    if (r.blasLibrary.find("/blas/libblas") != std::string::npos)
        r.warnings.push_back("LibTorch uses the reference BLAS, about 18 times slower than OpenBLAS: "
                             "install libopenblas0-pthread (packaging/setup.sh does)");
    if (!r.blasCore.empty() && r.cpuIsa != "sse" &&
        (r.blasCore == "Prescott" || r.blasCore == "Core2" || r.blasCore == "Nehalem" || r.blasCore == "Penryn"))
        r.warnings.push_back("OpenBLAS runs its " + r.blasCore + " kernels on a CPU with " + r.cpuIsa +
                             ": set OPENBLAS_CORETYPE before starting (Entrena does unless ENTRENA_NO_TUNE is set)");
    if (gemm) {
        r.gemmGflops = entrena::measureGemm(torch::kCPU, torch::kFloat32, 0.4) / 1e9;
        // A sound BLAS reaches a good share of two FMA pipes at ≥ 2 GHz; far below that, something is off.
        const double expected = flopsPerCycle(r.cpuIsa) * 2.0 * r.torchThreads;
        if (r.gemmGflops < 0.25 * expected) {
            std::ostringstream w;
            w.precision(3);
            w << "matrix multiply runs at " << r.gemmGflops << " GFLOP/s, far below the " << expected << " GFLOP/s this CPU's "
              << r.cpuIsa << " units can reach with " << r.torchThreads
              << " thread(s): check the BLAS and that other programs are not using the cores";
            r.warnings.push_back(w.str());
        }
    }
    return r;
}

std::string toJson(const DeviceReport& r)
{
    nlohmann::json devices = nlohmann::json::array();
    for (const auto& d : r.devices)
        devices.push_back({{"type", d.type},
                           {"index", d.index},
                           {"name", d.name},
                           {"memory_bytes", d.memoryBytes},
                           {"capability", d.capability}});
    nlohmann::json j = {
        {"cpu", {{"model", r.cpuModel}, {"logical_cpus", r.logicalCpus}, {"physical_cores", r.physicalCores}, {"isa", r.cpuIsa}}},
        {"torch_version", r.torchVersion},
        {"entrena_version", kVersion},
        {"threads", r.torchThreads},
        {"blas", {{"library", r.blasLibrary}, {"core", r.blasCore}, {"config", r.blasConfig}, {"threads", r.blasThreads}}},
        {"tuning", r.tuning},
        {"gemm_gflops", r.gemmGflops},
        {"nvml", r.nvml},
        {"devices", devices},
        {"warnings", r.warnings}};
    return j.dump();
}

} // namespace entrena
