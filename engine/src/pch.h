// Precompiled header of the engine: LibTorch's headers cost most of each translation unit's
// compile time; compiled once here, they are reused by every engine source file.
#pragma once
#include <torch/script.h>
#include <torch/torch.h>
