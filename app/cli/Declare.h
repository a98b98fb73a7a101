#pragma once
// What a command's file declares its options with: CLI11 options that speak the contract's words
// (docs/cli.md). A value that is not what the option takes is a UsageError naming the option and
// the command, and parsing stops there.

#include "CliOptions.h"

#include <CLI/CLI.hpp>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace entrena::cli {

/// `--name VALUE`: text, the last given wins.
CLI::Option* text(CLI::App& app, const std::string& name, const std::string& value, std::string& into, const std::string& help);
/// `--name VALUE`, repeatable: each occurrence adds one.
CLI::Option* texts(CLI::App& app, const std::string& name, const std::string& value, std::vector<std::string>& into,
                   const std::string& help);
/// `--name`: switches `into` on.
CLI::Option* flag(CLI::App& app, const std::string& name, bool& into, const std::string& help);
/// `--name N`: a whole number of at least `least`.
CLI::Option* whole(CLI::App& app, const std::string& name, const std::string& value, int64_t& into, int64_t least,
                   const std::string& help);
CLI::Option* whole(CLI::App& app, const std::string& name, const std::string& value, int& into, int64_t least,
                   const std::string& help);
/// `--name X`: a number above 0 (1e-6 and 0.5 alike).
CLI::Option* positive(CLI::App& app, const std::string& name, const std::string& value, double& into, const std::string& help);
/// `--name VALUE` that `assign` reads; it throws UsageError (or what the caller maps) for a bad one.
CLI::Option* custom(CLI::App& app, const std::string& name, const std::string& value,
                    std::function<void(const std::string&)> assign, const std::string& help);

/// The options several commands share.
struct ConfigOptions {
    std::string config;
    std::vector<std::string> sets;
};
/// --config FILE and --set KEY=VALUE (repeatable).
void declareConfig(CLI::App& app, ConfigOptions& into, const char* configValue = "FILE", const char* configHelp = nullptr);
/// --db FILE.
CLI::Option* declareDb(CLI::App& app, std::string& into);
/// --json.
CLI::Option* declareJson(CLI::App& app, bool& into);

/// The run store a command reads or writes: --db, else the default.
std::string dbPath(const std::string& db);

/// The check a command runs once its options are parsed (combinations, values from a fixed set):
/// before the handler, so a bad command line stores nothing.
void afterParse(CLI::App& app, std::function<void()> check);

} // namespace entrena::cli
