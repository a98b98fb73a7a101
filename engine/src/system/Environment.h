#pragma once
// The machine as a run records it: versions, device, threads, ranks and BLAS (system/Environment.cpp).
// Memory is in system/ProcessMemory.h.

#include <string>

namespace entrena {

/// Versions, device, threads (per rank), ranks and BLAS, as the JSON stored with each run.
std::string environmentJson(int threads, int worldSize = 1);

} // namespace entrena
