#pragma once
// entrena-cli's command line: the command table, the help each command's declarations give, and
// the parse. Each command declares its options on a CLI11 subcommand in its own file (Commands.h);
// nothing here names a command or an option but --help and --version.

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace CLI {
class App;
}

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

/// What a command's handler knows of how it was called.
struct Invocation {
    std::vector<std::string> args; ///< the command line as given, from the command on (a rank re-runs it)
};

/// A command's handler, bound to the options its declaration parsed into; returns the exit status.
using Runner = std::function<int(const Invocation&)>;

/// One command: what the overview says of it, and the function that declares its options.
struct CommandInfo {
    const char* name;     ///< "train"
    std::string synopsis; ///< what follows the name in the usage line
    const char* summary;  ///< one line, for the overview
    const char* details;  ///< a paragraph or two after the options
    /// Declares the options on `app` (bound to an options struct of the command's own, with their
    /// checks) and returns the handler that reads them once `app` has parsed a command line.
    Runner (*declare)(CLI::App& app) = nullptr;
};

/// One option as `--help` lists it, read from a command's declarations.
struct OptionInfo {
    std::string name;  ///< "--config", or "-h, --help"
    std::string value; ///< "FILE"; empty for a flag
    std::string help;
};

/// Every command, in the order the overview lists them (CommandList.h).
const std::vector<CommandInfo>& commands();
/// The command named `name`, or nullptr.
const CommandInfo* findCommand(const std::string& name);
/// The options `command` declares, in the order its help lists them, --help last.
std::vector<OptionInfo> optionsOf(const CommandInfo& command);

/// `entrena-cli --help`: the usage line of every command and where to read more.
std::string overview();
/// `entrena-cli COMMAND --help`: its usage line, what it does, its options.
std::string commandHelp(const CommandInfo& command);
/// What follows a usage error: the command's usage line and how to see its options, or the overview.
std::string usageAfterError(const std::string& command);

/// A parsed command line: a command with its handler, or help, or the version.
struct ParsedCommand {
    std::string command; ///< a command of commands(), or help | version
    std::string helpFor; ///< help: the command asked about ("" for the overview)
    Invocation invocation;
    Runner run; ///< the command's handler (none for help and version)
};

/// Parses argv per the contract in docs/cli.md. Throws UsageError.
ParsedCommand parseCommandLine(int argc, char** argv);

} // namespace entrena::cli
