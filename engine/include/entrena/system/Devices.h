#pragma once
// What this machine computes with, measured rather than assumed.

#include <string>
#include <vector>

namespace entrena {

struct ComputeDevice {
    std::string type; ///< cpu | cuda
    int index = 0;
    std::string name;
    long long memoryBytes = 0;
    std::string capability; ///< CUDA compute capability, e.g. "9.0"
};

struct DeviceReport {
    std::string cpuModel;
    int logicalCpus = 0;
    int physicalCores = 0;
    std::string cpuIsa;         ///< widest vector ISA: avx512, avx2, avx, sse
    int torchThreads = 0;       ///< LibTorch intra-op threads in use
    std::string torchVersion;
    std::string blasLibrary;    ///< the BLAS shared object actually loaded
    std::string blasCore;       ///< OpenBLAS's kernel core, when OpenBLAS
    int blasThreads = 0;        ///< OpenBLAS's threads, when OpenBLAS
    std::string blasConfig;     ///< OpenBLAS's build configuration string
    std::string tuning;         ///< what Entrena set in the environment and why
    double gemmGflops = 0;      ///< measured fp32 matrix multiply rate (0: not measured)
    std::string nvml;           ///< "loaded", or why NVIDIA's management library is not
    std::vector<ComputeDevice> devices;
    std::vector<std::string> warnings;
};

/// Inspects the process. `measureGemm` times a matrix multiply (about half a second).
DeviceReport probeDevices(bool measureGemm);

/// The report as a JSON object (the `entrena-cli devices --json` contract).
std::string toJson(const DeviceReport& report);

} // namespace entrena
