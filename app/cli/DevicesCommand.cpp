// `entrena-cli devices`: the CPU, BLAS, LibTorch, the measured GEMM rate and the CUDA devices.
#include "Commands.h"
#include "entrena/system/Devices.h"
#include "entrena/system/Runtime.h"

#include <cstdio>
#include <iostream>

namespace entrena::cli {
namespace {

struct DevicesOptions {
    bool json = false;
};

int devices(const DevicesOptions& o)
{
    applyThreadCount(0);
    const DeviceReport r = probeDevices(true);
    if (o.json) {
        std::cout << toJson(r) << "\n";
        return 0;
    }
    std::printf("CPU          %s (%d logical CPUs, %d physical cores, %s)\n", r.cpuModel.c_str(), r.logicalCpus, r.physicalCores,
                r.cpuIsa.c_str());
    std::printf("LibTorch     %s, %d intra-op threads\n", r.torchVersion.c_str(), r.torchThreads);
    std::printf("BLAS         %s%s%s", r.blasLibrary.empty() ? "(none found)" : r.blasLibrary.c_str(),
                r.blasCore.empty() ? "" : ", core ", r.blasCore.c_str());
    if (r.blasThreads > 0)
        std::printf(", %d threads", r.blasThreads);
    std::printf("\n");
    std::printf("Environment  %s\n", r.tuning.c_str());
    std::printf("GEMM         %.1f GFLOP/s (fp32, 1024x1024)\n", r.gemmGflops);
    std::printf("NVML         %s\n", r.nvml.c_str());
    for (const auto& d : r.devices) {
        if (d.type == "cuda")
            std::printf("cuda:%d       %s, %.1f GiB, compute capability %s\n", d.index, d.name.c_str(),
                        double(d.memoryBytes) / (1024.0 * 1024 * 1024), d.capability.c_str());
    }
    for (const auto& w : r.warnings)
        std::printf("warning: %s\n", w.c_str());
    return 0;
}

Runner declare(CLI::App& app)
{
    auto o = std::make_shared<DevicesOptions>();
    declareJson(app, o->json);
    return [o](const Invocation&) { return devices(*o); };
}

} // namespace

CommandInfo devicesCommand()
{
    return {"devices", "[--json]", "the CPU, BLAS, threads, a measured matrix-multiply rate and the CUDA devices",
            "Warns when the machine runs far below what it can (a misdetected BLAS kernel, spinning threads).", &declare};
}

} // namespace entrena::cli
