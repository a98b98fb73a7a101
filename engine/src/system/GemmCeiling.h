#pragma once
// The machine's matrix-multiply rate: the ceiling that model-FLOP utilisation is measured
// against. Measured once per (device, precision, threads, LibTorch version) and cached in
// $XDG_CACHE_HOME/entrena/gemm.json, so a run pays for it only the first time.

#include "entrena/config/Choices.h"

#include <string>
#include <torch/torch.h>

namespace entrena {

/// Times square matrix products of `dtype` on `device` for about `seconds`: FLOP/s, the best of
/// several trials.
double measureGemm(const torch::Device& device, torch::ScalarType dtype, double seconds);

/// The cached ceiling in FLOP/s for training at `precision` on `device` with this process's
/// thread count, measured (about 0.3 s) and stored when absent, or when it is not above
/// `achieved` (FLOP/s a run reached: then the stored ceiling was measured under load, and it is
/// measured again and raised to at least `achieved`). Never throws: 0 when it cannot be measured.
double gemmCeiling(const torch::Device& device, Precision precision, double achieved = 0);

} // namespace entrena
