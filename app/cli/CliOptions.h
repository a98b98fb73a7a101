#pragma once

#include "entrena/experiment/Sweep.h"
#include "entrena/search/BatchSizeFinder.h"
#include "entrena/search/LrFinder.h"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace entrena::cli {

/// A command line that cannot be used: exit status 2, the message on stderr followed by the
/// usage of the command it concerns (or of every command, when no command was recognised).
class UsageError : public std::runtime_error {
public:
    explicit UsageError(const std::string& message, std::string command = {})
        : std::runtime_error(message)
        , command_(std::move(command))
    {
    }
    const std::string& command() const { return command_; }

private:
    std::string command_;
};

/// One option of a command, as `--help` shows it and the parser accepts it.
struct OptionInfo {
    const char* name;  ///< "--config"
    const char* value; ///< "FILE", or nullptr for a flag
    const char* help;
};

struct CliOptions;

/// One command: the table that the parser, `--help`, the man page and the completion all read.
struct CommandInfo {
    const char* name;     ///< "train"
    const char* synopsis; ///< what follows the name in the usage line
    const char* summary;  ///< one line, for the overview
    std::vector<OptionInfo> options;
    const char* details;                             ///< a paragraph or two after the options
    int (*run)(const CliOptions& options) = nullptr; ///< its handler (Commands.h)
};

/// Every command, in the order the overview lists them.
const std::vector<CommandInfo>& commands();
/// The command named `name`, or nullptr.
const CommandInfo* findCommand(const std::string& name);

/// `entrena-cli --help`: the usage line of every command and where to read more.
std::string overview();
/// `entrena-cli COMMAND --help`: its usage line, what it does, its options.
std::string commandHelp(const CommandInfo& command);
/// What follows a usage error: the command's usage line and how to see its options, or the overview.
std::string usageAfterError(const std::string& command);

struct CliOptions {
    std::string command;           ///< a command of commands(), or help | version
    std::string helpFor;           ///< help: the command asked about ("" for the overview)
    std::vector<std::string> args; ///< the command line as given, from the command on (a rank re-runs it)
    std::string config;
    std::vector<std::string> sets;
    std::string db;
    bool json = false;
    std::string resume;
    int nproc = 0; ///< train: ranks to start here; cluster-script: ranks per node
    int nodes = 1; ///< cluster-script: machines
    std::string run;
    std::string checkpoint;
    std::string metrics;
    std::string trueClass, predictedClass; ///< export: a confusion-matrix cell's samples
    std::string out;
    std::string status;    ///< runs: only runs of this status
    std::string tag;       ///< runs: only runs with this tag
    bool all = false;      ///< runs: archived runs too
    bool clear = false;    ///< baseline: stop being the baseline
    bool markdown = false; ///< config-keys: the registries' tables in Markdown
    // sweep (docs/experiments.md); --resume names the experiment there
    std::string space;
    std::string method = SweepSettings{}.method;
    int trials = 0;
    int parallel = 0;
    std::string metric = "val_accuracy";
    std::string name;
    SweepSettings sweep;           ///< sweep: each method's own settings (--min-epochs, …; the registry's keys)
    std::string source;            ///< import: the other store
    bool strict = false;           ///< import: a file that could not be copied is a failure (exit 1)
    bool keepPruned = false;       ///< sweep: keep pruned trials' checkpoints
    bool disk = false;             ///< runs: each run's disk use, and the store's
    bool dryRun = false;           ///< clean: say what would be freed, delete nothing
    bool archived = false;         ///< clean: the archived runs
    bool pruned = false;           ///< clean: the pruned runs
    std::vector<std::string> runs; ///< clean: --run, repeatable
    int shard = 0, shards = 1;     ///< sweep --shard K/N
    int folds = 0;                 ///< cv, cluster-script: folds
    int repeat = 1;                ///< cv: repeats, each with its own folds
    bool noStratify = false;       ///< cv: folds drawn without regard to the classes
    bool stratified = false;       ///< cv: the default, said out loud
    // predict (docs/predict.md)
    std::vector<std::string> inputs; ///< image files, folders, CSV tables
    std::string model;               ///< an exported .pt (with its .json) instead of --run
    int top = 3;                     ///< classes per input
    bool csv = false;                ///< CSV instead of text
    LrFinderOptions lrFind;        ///< lr-find: --start-lr, --end-lr, --steps (the engine's defaults)
    BatchSizeOptions batchFind;    ///< batch-find: --start, --max, --trial-steps (likewise)
};

/// Parses argv per the contract in docs/cli.md. Throws UsageError.
CliOptions parseCommandLine(int argc, char** argv);

} // namespace entrena::cli
