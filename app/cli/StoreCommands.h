#pragma once

#include "CliOptions.h"

#include <cstdint>
#include <string>

namespace entrena::cli {

/// `entrena-cli clean`: deletes runs' checkpoints, keeping their metrics (docs/run-store.md#disk-use).
int clean(const CliOptions& o);

/// Bytes as a person reads them: "812 B", "45.2 MB", "1.31 GB" (powers of 1000, as df -H and GNOME).
std::string readableBytes(int64_t bytes);

} // namespace entrena::cli
