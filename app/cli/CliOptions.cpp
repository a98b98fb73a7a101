#include "CliOptions.h"

#include "Declare.h"

#include <algorithm>
#include <cctype>
#include <sstream>

namespace entrena::cli {

// Each command's description, from its own file.
#define ENTRENA_COMMAND(x) CommandInfo x##Command();
#include "CommandList.h"
#undef ENTRENA_COMMAND

const std::vector<CommandInfo>& commands()
{
    static const std::vector<CommandInfo> table = {
#define ENTRENA_COMMAND(x) x##Command(),
#include "CommandList.h"
#undef ENTRENA_COMMAND
    };
    return table;
}

const CommandInfo* findCommand(const std::string& name)
{
    for (const auto& c : commands())
        if (name == c.name)
            return &c;
    return nullptr;
}

namespace {

/// `text` folded into lines of at most `width` columns, the first starting at `column` (already
/// written), the others indented to `indent`.
std::string wrap(const std::string& text, size_t column, size_t indent, size_t width = 79)
{
    std::istringstream words(text);
    std::string word, out;
    size_t at = column;
    bool first = true;
    while (words >> word) {
        if (!first && at + 1 + word.size() > width) {
            out += "\n" + std::string(indent, ' ');
            at = indent;
        } else if (!first) {
            out += ' ';
            ++at;
        }
        out += word;
        at += word.size();
        first = false;
    }
    return out;
}

std::string usageLine(const CommandInfo& c, const char* lead)
{
    std::string line = std::string(lead) + "entrena-cli " + c.name;
    if (!c.synopsis.empty())
        line += " " + c.synopsis;
    return line + "\n";
}

} // namespace

std::string overview()
{
    // GNU's layout ("Usage:" then "  or:" lines), which help2man turns into the man page's synopsis.
    std::string s;
    for (const auto& c : commands())
        s += usageLine(c, s.empty() ? "Usage: " : "  or:  ");
    s += "  or:  entrena-cli COMMAND --help\n  or:  entrena-cli --version\n" +
         wrap("Train neural networks, find their learning rate and batch size, and manage their runs without the GUI.", 0, 0) +
         "\n\nCommands:\n";
    for (const auto& c : commands()) {
        std::string name = std::string("  ") + c.name;
        name.resize(18, ' ');
        s += name + wrap(c.summary, 18, 18) + "\n";
    }
    s += "\n" +
         wrap("Run 'entrena-cli COMMAND --help' for a command's options. The default database is "
              "$XDG_DATA_HOME/entrena/runs.sqlite (~/.local/share/entrena/runs.sqlite); --db chooses another. "
              "Exit status: 0 finished or stopped, 1 failed or diverged, 2 bad command line or configuration.",
              0, 0) +
         "\n";
    return s;
}

std::string commandHelp(const CommandInfo& c)
{
    std::string s = usageLine(c, "Usage: ") + "\n" +
                    wrap(std::string(1, char(std::toupper(c.summary[0]))) + (c.summary + 1) + ".", 0, 0) + "\n\nOptions:\n";
    for (const auto& o : optionsOf(c)) {
        std::string head = "  " + o.name + (o.value.empty() ? "" : " " + o.value);
        constexpr size_t kColumn = 22;
        if (head.size() + 2 > kColumn)
            head += "\n" + std::string(kColumn, ' ');
        else
            head.resize(kColumn, ' ');
        s += head + wrap(o.help, kColumn, kColumn) + "\n";
    }
    if (*c.details)
        s += "\n" + wrap(c.details, 0, 0) + "\n";
    return s;
}

std::string usageAfterError(const std::string& command)
{
    const CommandInfo* c = findCommand(command);
    if (!c)
        return "Run 'entrena-cli --help' for the commands.\n";
    return usageLine(*c, "usage: ") + "Run 'entrena-cli " + command + " --help' for its options.\n";
}

namespace {

/// The command's subcommand with its options declared, and its handler. The App is named after
/// the command (a bad value's message names it) and answers -h and --help, listed last.
struct Declared {
    std::unique_ptr<CLI::App> app;
    Runner run;
};

Declared declare(const CommandInfo& c)
{
    Declared d{std::make_unique<CLI::App>(c.summary, c.name), nullptr};
    d.app->set_help_flag();
    d.app->option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
    d.run = c.declare(*d.app);
    d.app->set_help_flag("-h,--help", "show this help");
    return d;
}

/// CLI11's own complaint in the contract's words: what was not expected, or what lacks its value.
UsageError usageError(const CLI::ParseError& e, const CLI::App& app)
{
    const std::string command = app.get_name();
    if (dynamic_cast<const CLI::ExtrasError*>(&e) && !app.remaining().empty())
        return UsageError("'" + app.remaining().front() + "' is not an option of '" + command + "'", command);
    const std::string what = e.what(); // "--status: 1 required STATUS missing"
    if (dynamic_cast<const CLI::ArgumentMismatch*>(&e) && what.rfind("--", 0) == 0 && what.find(':') != std::string::npos) {
        const std::string option = what.substr(0, what.find(':'));
        for (const CLI::Option* o : app.get_options())
            if (o->get_name() == option)
                return UsageError(option + " needs a value (" + o->get_type_name() + ")", command);
    }
    return UsageError(what, command);
}

} // namespace

/// Reads the command line as the contract does where CLI11 reads it otherwise, and says whether it
/// asks for help: -h or --help before any mistake; an unknown option or a switch given a value
/// (`--json=1`) is a mistake by its name; an option's value is the next word whatever it looks like
/// (`--name -x`), and an empty inline value is empty (`--tag=`; CLI11 would take the next word).
/// Leaves `args` as CLI11 should read them.
bool asksForHelp(const CLI::App& app, const std::string& command, std::vector<std::string>& args)
{
    std::vector<std::string> out;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& arg = args[i];
        if (arg == "--") {
            out.insert(out.end(), args.begin() + long(i), args.end());
            break;
        }
        if (arg == "-h" || arg == "--help")
            return true;
        if (arg.rfind("--", 0) != 0) {
            out.push_back(arg); // a positional (predict's inputs), or a mistake CLI11 names
            continue;
        }
        const auto eq = arg.find('=');
        const std::string name = arg.substr(0, eq);
        const CLI::Option* option = app.get_option_no_throw(name);
        if (!option)
            throw UsageError("'" + name + "' is not an option of '" + command + "'", command);
        const bool takesValue = option->get_expected_min() > 0;
        if (!takesValue && eq != std::string::npos)
            throw UsageError(name + " takes no value", command);
        if (!takesValue || (eq == std::string::npos && i + 1 == args.size())) {
            out.push_back(name); // a switch; or the last word, whose missing value CLI11 names
            continue;
        }
        const std::string value = eq != std::string::npos ? arg.substr(eq + 1) : args[++i];
        if (value.empty())
            out.insert(out.end(), {name, value});
        else
            out.push_back(name + "=" + value); // whole: "--name=--json" is a value, not an option
    }
    args = std::move(out);
    return false;
}

std::vector<OptionInfo> optionsOf(const CommandInfo& c)
{
    const Declared d = declare(c);
    std::vector<OptionInfo> out;
    for (const CLI::Option* o : d.app->get_options()) {
        if (o->get_positional())
            continue; // the usage line names them (predict's inputs, import's store)
        const bool help = o == d.app->get_help_ptr();
        out.push_back({help ? "-h, --help" : o->get_name(), o->get_type_name(), o->get_description()});
    }
    return out;
}

ParsedCommand parseCommandLine(int argc, char** argv)
{
    ParsedCommand p;
    if (argc < 2)
        throw UsageError("no command given");
    p.command = argv[1];
    if (p.command == "-h" || p.command == "--help" || p.command == "help") {
        p.command = "help";
        if (argc > 2 && !findCommand(argv[2]))
            throw UsageError("no command '" + std::string(argv[2]) + "' to explain");
        if (argc > 2)
            p.helpFor = argv[2];
        return p;
    }
    if (p.command == "--version" || p.command == "version") {
        p.command = "version";
        return p;
    }
    const CommandInfo* command = findCommand(p.command);
    if (!command)
        throw UsageError("unknown command '" + p.command + "'");
    p.invocation.args.assign(argv + 1, argv + argc);
    Declared d = declare(*command);
    std::vector<std::string> args(argv + 2, argv + argc);
    if (asksForHelp(*d.app, p.command, args)) {
        p.helpFor = p.command;
        p.command = "help";
        return p;
    }
    std::reverse(args.begin(), args.end()); // CLI11 reads a vector from its end
    try {
        d.app->parse(args);
    } catch (const CLI::CallForHelp&) {
        p.helpFor = p.command;
        p.command = "help";
        return p;
    } catch (const CLI::ParseError& e) {
        throw usageError(e, *d.app);
    }
    p.run = std::move(d.run);
    return p;
}

} // namespace entrena::cli
