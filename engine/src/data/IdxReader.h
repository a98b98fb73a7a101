#pragma once
// Reader of the IDX format of the MNIST family (http://yann.lecun.com/exdb/mnist/), gzipped or not.

#include <string>
#include <torch/torch.h>

namespace entrena {

/// Images as uint8 [N, 1, rows, cols]. Throws std::runtime_error naming the file and the problem.
torch::Tensor readIdxImages(const std::string& path);
/// Labels as int64 [N].
torch::Tensor readIdxLabels(const std::string& path);

} // namespace entrena
