#pragma once
// Process set-up that must happen before the numeric libraries start working.

#include <string>

namespace entrena {

/// Call first in main(). Debian's OpenBLAS reads OPENBLAS_CORETYPE when it is loaded, i.e.
/// before main(), and OpenMP threads spinning beside OpenBLAS's cost several times the work;
/// so when the environment lacks a sound choice, this sets it and re-executes the program
/// (once). Returns normally in the process that should do the work. With `computesHere` false
/// (a command that only starts other processes, or reads the store) the variables are set for
/// the children and the program is not started again: that would cost a second load of LibTorch.
void tuneProcess(int argc, char** argv, bool computesHere = true);

/// One line saying what tuneProcess chose ("OPENBLAS_CORETYPE=Zen (detected avx2, AMD) …").
std::string tuningSummary();

/// The number of physical cores (not hyper-threads).
int physicalCoreCount();

/// Sets LibTorch's intra-op thread count and OpenBLAS's (0: physical cores). Returns the count in
/// effect.
int applyThreadCount(int requested);

/// OpenBLAS's thread count; 0 when LibTorch does not multiply with OpenBLAS.
int blasThreadCount();

} // namespace entrena
