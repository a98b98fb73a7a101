#pragma once

#include "CliOptions.h"

namespace entrena::cli {

/// Runs the parsed command; returns the exit status of the contract (0, 1 or 2).
int runCommand(const CliOptions& options);

} // namespace entrena::cli
