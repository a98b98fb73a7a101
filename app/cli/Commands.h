#pragma once
// What the commands' files share. Each command lives in a file of its own (TrainCommand.cpp,
// RunsCommand.cpp, …): an options struct of its own, the function that declares those options on
// its CLI11 subcommand (Declare.h) with their checks, and its handler; CommandList.h lists it.
// Adding a command is its file and its line there. Each handler returns the exit status of the
// contract (docs/cli.md).

#include "Declare.h"
#include "entrena/experiment/Sweep.h"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace entrena::cli {

/// cluster-script's options: a configuration's script, a sweep's job array (--space) or a
/// cross-validation's (--cv), which SweepCommands.cpp writes.
struct ClusterScriptOptions : ConfigOptions {
    int nodes = 1; ///< machines; with --space, the job array's tasks
    int nproc = 0; ///< ranks per machine
    std::string space;
    std::string method = SweepSettings{}.method; ///< the registry's default
    int trials = 0;
    int folds = 0; ///< --cv K
    std::string out;
};

/// cluster-script --space: a Slurm job array that runs a sweep's shards (SweepCommands.cpp).
int clusterSweepScript(const ClusterScriptOptions& o);
/// cluster-script --cv K: a Slurm job array with one fold per task (SweepCommands.cpp).
int clusterCrossValidationScript(const ClusterScriptOptions& o);

/// A figure for JSON output: the value, or null when there is none.
inline nlohmann::json optional(const std::optional<double>& v)
{
    return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

/// Bytes as a person reads them: "812 B", "45.2 MB", "1.31 GB" (powers of 1000, as df -H; CleanCommand.cpp).
std::string readableBytes(int64_t bytes);

} // namespace entrena::cli
