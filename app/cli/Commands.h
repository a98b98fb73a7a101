#pragma once
// Every command: its handler and its description (options, help) live in a file of its own
// (TrainCommand.cpp, RunsCommand.cpp, …), and the command table (CliOptions.cpp) lists the
// descriptions, so that adding a command is its file and its line there. Each handler returns the
// exit status of the contract (docs/cli.md).

#include "CliOptions.h"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace entrena::cli {

int train(const CliOptions& o);
int lrFind(const CliOptions& o);
int batchFind(const CliOptions& o);
int runs(const CliOptions& o);
int baseline(const CliOptions& o);
int exportRun(const CliOptions& o);
int predict(const CliOptions& o);
int devices(const CliOptions& o);
int clusterScript(const CliOptions& o);
int sweep(const CliOptions& o);
int crossValidate(const CliOptions& o);
int experiments(const CliOptions& o);
int importStore(const CliOptions& o);
int clean(const CliOptions& o);
int configKeys(const CliOptions& o);

/// Each command's name, options, help and handler, for the command table.
CommandInfo trainCommand();
CommandInfo lrFindCommand();
CommandInfo batchFindCommand();
CommandInfo runsCommand();
CommandInfo cleanCommand();
CommandInfo baselineCommand();
CommandInfo exportCommand();
CommandInfo predictCommand();
CommandInfo devicesCommand();
CommandInfo clusterScriptCommand();
CommandInfo sweepCommand();
CommandInfo crossValidationCommand();
CommandInfo experimentsCommand();
CommandInfo importCommand();
CommandInfo configKeysCommand();

/// The options several commands share.
inline const OptionInfo kConfig{"--config", "FILE",
                                "the run configuration (JSON): 'entrena-cli config-keys' lists every key, "
                                "configuration.md in the documentation explains them"};
inline const OptionInfo kSet{"--set", "KEY=VALUE", "override one configuration key, e.g. --set optimizer.lr=0.01 (repeatable)"};
inline const OptionInfo kDb{"--db", "FILE", "the run store (default: $XDG_DATA_HOME/entrena/runs.sqlite)"};
inline const OptionInfo kJson{"--json", nullptr, "one JSON object per line on stdout instead of text"};

/// cluster-script --space: a Slurm job array that runs a sweep's shards (SweepCommands.cpp).
int clusterSweepScript(const CliOptions& o);
/// cluster-script --cv K: a Slurm job array with one fold per task (SweepCommands.cpp).
int clusterCrossValidationScript(const CliOptions& o);

/// The run store a command reads or writes: --db, else the default.
std::string dbPath(const CliOptions& o);
/// A figure for JSON output: the value, or null when there is none.
inline nlohmann::json optional(const std::optional<double>& v)
{
    return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

/// Bytes as a person reads them: "812 B", "45.2 MB", "1.31 GB" (powers of 1000, as df -H; CleanCommand.cpp).
std::string readableBytes(int64_t bytes);

} // namespace entrena::cli
