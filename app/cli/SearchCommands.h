#pragma once

#include "CliOptions.h"

namespace entrena::cli {

/// `entrena-cli lr-find`: the learning-rate range test. Returns the exit status.
int lrFind(const CliOptions& o);
/// `entrena-cli batch-find`: the largest batch that fits. Returns the exit status.
int batchFind(const CliOptions& o);

} // namespace entrena::cli
