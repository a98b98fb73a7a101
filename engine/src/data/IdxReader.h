#pragma once
// Reader of the IDX format of the MNIST family (http://yann.lecun.com/exdb/mnist/), gzipped or not.

#include <string>
#include <torch/torch.h>

namespace entrena {

/// Images as uint8 [N, 1, rows, cols]: the first `limit` (0: all). `count`, when given, receives the
/// number the file holds. Throws std::runtime_error naming the file and the problem.
torch::Tensor readIdxImages(const std::string& path, int64_t limit = 0, int64_t* count = nullptr);
/// Labels as int64 [N], as readIdxImages.
torch::Tensor readIdxLabels(const std::string& path, int64_t limit = 0, int64_t* count = nullptr);

/// From now on keeps what the two readers read in this process, and answers a later read of the
/// same file (unchanged on disk) and limit from memory. For a sweep's trial server, which reads a
/// data set once before it forks the trials (data/Preload.cpp).
void keepIdxReads();

} // namespace entrena
