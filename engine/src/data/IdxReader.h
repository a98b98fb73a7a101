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

/// While `keep` is true, keeps what the two readers read in this process; from the first call on,
/// answers a later read of a kept file (unchanged on disk) and limit from memory. For a sweep's
/// trial server, which reads a data set once before it forks the trials (preloadDataFiles) and then
/// stops keeping, so a trial that reads other files does not hold them for nothing.
void keepIdxReads(bool keep);
/// Reads answered from memory so far (for the tests).
int64_t keptIdxReadsUsed();

} // namespace entrena
