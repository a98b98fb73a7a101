#pragma once

#include <cstdint>
#include <string>

namespace entrena {

/// Versions, device, threads and BLAS, as the JSON stored with each run.
std::string environmentJson(int threads);

/// The process's resident memory.
int64_t residentMemoryBytes();

} // namespace entrena
