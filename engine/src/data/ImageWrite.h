#pragma once
// PNG files of samples (the run's most confidently wrong images, for the GUI's Evaluation tab).

#include <string>
#include <torch/torch.h>

namespace entrena {

/// Writes uint8 [C, H, W] (C = 1 or 3) as an 8-bit grey or RGB PNG, atomically. Throws
/// std::runtime_error naming the file when it cannot be written.
void writePng(const std::string& path, const torch::Tensor& image);

} // namespace entrena
