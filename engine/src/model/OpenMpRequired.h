#pragma once
// Included by each file of hand-written kernels (engine/CMakeLists.txt lists them). They share their
// work through at::parallel_for, an inline `#pragma omp parallel` in LibTorch's headers: a file compiled
// without OpenMP would run every range on the calling thread, silently. This makes it a build error.

#ifndef _OPENMP
#error "a file of hand-written kernels must be compiled with OpenMP's flags (engine/CMakeLists.txt)"
#endif
