#pragma once

#include "CliOptions.h"

namespace entrena::cli {

/// Runs the parsed command; returns the exit status of the contract (0, 1 or 2).
int runCommand(const ParsedCommand& command);

/// Parses and runs a command line (`argv[0]` the program): what `main` does after tuning the
/// process, and what a trial forked by the trial server does.
int runCommandLine(int argc, char** argv);

/// `entrena-cli trial-server --fd N [--db FILE]`: started by a sweep, never by hand. Forks the
/// sweep's trials from a process that has LibTorch loaded (docs/experiments.md, "How trials run").
int trialServer(int argc, char** argv);

} // namespace entrena::cli
