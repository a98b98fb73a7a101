#include "CliOptions.h"

#include "Commands.h"
#include "entrena/experiment/SweepMethodRegistry.h"

#include <cctype>
#include <set>
#include <sstream>

namespace entrena::cli {

const std::vector<CommandInfo>& commands()
{
    // The order the overview and docs/cli.md list them in.
    static const std::vector<CommandInfo> table = {
        trainCommand(),    lrFindCommand(),          batchFindCommand(),   runsCommand(),    cleanCommand(),
        baselineCommand(), exportCommand(),          predictCommand(),     devicesCommand(), clusterScriptCommand(),
        sweepCommand(),    crossValidationCommand(), experimentsCommand(), importCommand(),  configKeysCommand(),
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
    if (*c.synopsis)
        line += std::string(" ") + c.synopsis;
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
    std::vector<OptionInfo> options = c.options;
    options.push_back({"-h, --help", nullptr, "show this help"});
    for (const auto& o : options) {
        std::string head = std::string("  ") + o.name + (o.value ? std::string(" ") + o.value : "");
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

const OptionInfo* findOption(const CommandInfo& c, const std::string& name)
{
    for (const auto& o : c.options)
        if (name == o.name)
            return &o;
    return nullptr;
}

/// A whole number of at least `least` (the option named in the error).
int64_t wholeNumber(const std::string& command, const std::string& option, const std::string& value, int64_t least)
{
    try {
        size_t used = 0;
        const long long v = std::stoll(value, &used);
        if (used == value.size() && v >= least)
            return v;
    } catch (const std::exception&) {
    }
    throw UsageError(option + " needs a whole number of at least " + std::to_string(least) + ", got '" + value + "'", command);
}

double positiveNumber(const std::string& command, const std::string& option, const std::string& value)
{
    try {
        size_t used = 0;
        const double v = std::stod(value, &used);
        if (used == value.size() && v > 0)
            return v;
    } catch (const std::exception&) {
    }
    throw UsageError(option + " needs a positive number such as 1e-6, got '" + value + "'", command);
}

/// A sweep method's own setting (--min-epochs, --quantile, …), as its registry entry describes it;
/// false when `arg` is none of them.
bool assignMethodSetting(CliOptions& o, const std::string& arg, const std::string& value)
{
    for (const SweepMethodEntry& e : sweepMethodRegistry())
        for (const auto& k : e.keys)
            if (arg == settingFlag(k.key)) {
                try {
                    setMethodSetting(o.sweep, k, value);
                } catch (const SpaceError& error) {
                    throw UsageError(error.what(), o.command);
                }
                return true;
            }
    return false;
}

/// --shard K/N: task K of a job array of N.
void assignShard(CliOptions& o, const std::string& value)
{
    const auto slash = value.find('/');
    if (slash == std::string::npos)
        throw UsageError("--shard needs K/N, e.g. 0/4; got '" + value + "'", o.command);
    o.shard = int(wholeNumber(o.command, "--shard", value.substr(0, slash), 0));
    o.shards = int(wholeNumber(o.command, "--shard", value.substr(slash + 1), 1));
    if (o.shard >= o.shards)
        throw UsageError("--shard K/N needs K < N; got '" + value + "'", o.command);
}

void assign(CliOptions& o, const std::string& arg, const std::string& value)
{
    const std::string& c = o.command;
    if (assignMethodSetting(o, arg, value))
        return;
    if (arg == "--config")
        o.config = value;
    else if (arg == "--set")
        o.sets.push_back(value);
    else if (arg == "--db")
        o.db = value;
    else if (arg == "--resume")
        o.resume = value;
    else if (arg == "--run") {
        o.run = value;
        o.runs.push_back(value);
    } else if (arg == "--checkpoint")
        o.checkpoint = value;
    else if (arg == "--metrics")
        o.metrics = value;
    else if (arg == "--true")
        o.trueClass = value;
    else if (arg == "--predicted")
        o.predictedClass = value;
    else if (arg == "--out")
        o.out = value;
    else if (arg == "--status")
        o.status = value;
    else if (arg == "--model")
        o.model = value;
    else if (arg == "--top")
        o.top = int(wholeNumber(c, arg, value, 1));
    else if (arg == "--tag")
        o.tag = value;
    else if (arg == "--start-lr")
        o.lrFind.startLr = positiveNumber(c, arg, value);
    else if (arg == "--end-lr")
        o.lrFind.endLr = positiveNumber(c, arg, value);
    else if (arg == "--steps")
        o.lrFind.steps = int(wholeNumber(c, arg, value, 5));
    else if (arg == "--nproc")
        o.nproc = int(wholeNumber(c, arg, value, 1));
    else if (arg == "--nodes")
        o.nodes = int(wholeNumber(c, arg, value, 1));
    else if (arg == "--shard")
        assignShard(o, value);
    else if (arg == "--space")
        o.space = value;
    else if (arg == "--method")
        o.method = value;
    else if (arg == "--trials")
        o.trials = int(wholeNumber(c, arg, value, 1));
    else if (arg == "--folds" || arg == "--cv")
        o.folds = int(wholeNumber(c, arg, value, 2));
    else if (arg == "--repeat")
        o.repeat = int(wholeNumber(c, arg, value, 1));
    else if (arg == "--parallel")
        o.parallel = int(wholeNumber(c, arg, value, 1));
    else if (arg == "--metric")
        o.metric = value;
    else if (arg == "--name")
        o.name = value;
    else if (arg == "--start")
        o.batchFind.start = wholeNumber(c, arg, value, 1);
    else if (arg == "--max")
        o.batchFind.max = wholeNumber(c, arg, value, 1);
    else if (arg == "--trial-steps")
        o.batchFind.trialSteps = int(wholeNumber(c, arg, value, 1));
}

bool endsWith(const std::string& s, const std::string& tail)
{
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// What no single option can check: combinations, and values from a fixed set.
void checkCombinations(const CliOptions& o)
{
    const std::string& c = o.command;
    if (!o.status.empty()) {
        static const std::set<std::string> statuses = {"running",  "finished",    "stopped", "failed",
                                                       "diverged", "interrupted", "pruned"};
        if (!statuses.count(o.status))
            throw UsageError("--status must be one of running, finished, stopped, failed, diverged, interrupted, pruned; got '" +
                                 o.status + "'",
                             c);
    }
    if (c == "clean" && o.runs.empty() && !o.archived && !o.pruned)
        throw UsageError("clean needs --run RUN (repeatable), --archived or --pruned", c);
    if (c == "baseline" && o.run.empty())
        throw UsageError("baseline needs --run RUN", c);
    if (c == "export") {
        if (o.run.empty())
            throw UsageError("export needs --run RUN", c);
        if (o.out.empty())
            throw UsageError("export needs --out FILE", c);
        if (o.trueClass.empty() != o.predictedClass.empty())
            throw UsageError("a cell is --true CLASS and --predicted CLASS together", c);
        if (int(!o.checkpoint.empty()) + int(!o.metrics.empty()) + int(!o.trueClass.empty()) != 1)
            throw UsageError("export needs one of --checkpoint best|last, --metrics csv|json or --true CLASS --predicted CLASS",
                             c);
        if (!o.trueClass.empty() && !endsWith(o.out, ".csv") && !endsWith(o.out, ".json"))
            throw UsageError("--out for a cell's samples must end in .csv or .json, got '" + o.out + "'", c);
        if (!o.metrics.empty() && o.metrics != "csv" && o.metrics != "json")
            throw UsageError("--metrics must be csv or json, got '" + o.metrics + "'", c);
        if (!o.checkpoint.empty() && o.checkpoint != "best" && o.checkpoint != "last")
            throw UsageError("--checkpoint must be best or last, got '" + o.checkpoint + "'", c);
        if (!o.checkpoint.empty() && !endsWith(o.out, ".pt") && !endsWith(o.out, ".pth") && !endsWith(o.out, ".safetensors") &&
            !endsWith(o.out, ".onnx"))
            throw UsageError("--out for a checkpoint must end in .pt (PyTorch), .safetensors or .onnx, got '" + o.out + "'", c);
    }
    if (c == "predict") {
        if (o.run.empty() && o.model.empty())
            throw UsageError("predict needs either --run RUN or --model FILE.pt", c);
        if (!o.run.empty() && !o.model.empty())
            throw UsageError("give --run RUN or --model FILE.pt, not both", c);
        if (!o.model.empty() && !o.checkpoint.empty())
            throw UsageError("--checkpoint chooses among a run's checkpoints; a --model file is one already", c);
        if (!o.checkpoint.empty() && o.checkpoint != "best" && o.checkpoint != "last")
            throw UsageError("--checkpoint must be best or last, got '" + o.checkpoint + "'", c);
        if (o.inputs.empty())
            throw UsageError("predict needs what to classify: image files, folders of images, or CSV tables", c);
        if (o.json && o.csv)
            throw UsageError("--json and --csv contradict each other: give one", c);
    }
    if (c == "lr-find" && !(o.lrFind.endLr > o.lrFind.startLr))
        throw UsageError("--end-lr must be above --start-lr (got " + std::to_string(o.lrFind.startLr) + " to " +
                             std::to_string(o.lrFind.endLr) + ")",
                         c);
    if (c == "batch-find" && o.batchFind.max > 0 && o.batchFind.max < o.batchFind.start)
        throw UsageError("--max must not be below --start (got " + std::to_string(o.batchFind.max) + " < " +
                             std::to_string(o.batchFind.start) + ")",
                         c);
    if (!o.resume.empty() && o.nproc > 1)
        throw UsageError("--resume continues a run in one process; leave out --nproc", c);
    if (c == "sweep" && o.resume.empty() && (o.config.empty() || o.space.empty()))
        throw UsageError("sweep needs --config BASE.json and --space SPACE.json (or --resume EXPERIMENT)", c);
    if (c == "cv" && o.resume.empty() && (o.config.empty() || o.folds == 0))
        throw UsageError("cv needs --config FILE and --folds K (or --resume EXPERIMENT)", c);
    if (o.noStratify && o.stratified)
        throw UsageError("--stratified and --no-stratify contradict each other: give one", c);
    if (c == "import" && o.source.empty())
        throw UsageError("import needs the other run store: entrena-cli import OTHER.sqlite", c);
    if ((c == "train" || c == "lr-find" || c == "batch-find" || c == "cluster-script") && o.config.empty() && o.resume.empty())
        throw UsageError(c + " needs --config FILE" + (c == "train" ? " (or --resume RUN)" : ""), c);
}

} // namespace

namespace {

/// Each option without a value switches one flag on.
void switchOn(CliOptions& o, const std::string& arg)
{
    static const std::pair<const char*, bool CliOptions::*> flags[] = {{"--json", &CliOptions::json},
                                                                       {"--all", &CliOptions::all},
                                                                       {"--markdown", &CliOptions::markdown},
                                                                       {"--strict", &CliOptions::strict},
                                                                       {"--keep-pruned", &CliOptions::keepPruned},
                                                                       {"--disk", &CliOptions::disk},
                                                                       {"--dry-run", &CliOptions::dryRun},
                                                                       {"--archived", &CliOptions::archived},
                                                                       {"--pruned", &CliOptions::pruned},
                                                                       {"--no-stratify", &CliOptions::noStratify},
                                                                       {"--stratified", &CliOptions::stratified},
                                                                       {"--csv", &CliOptions::csv},
                                                                       {"--clear", &CliOptions::clear}};
    for (const auto& [name, flag] : flags)
        if (arg == name)
            o.*flag = true;
}

/// `help [COMMAND]`, `--help`, `version` and `--version`: true when argv[1] is one of them (`o`
/// then says which).
bool helpOrVersion(CliOptions& o, int argc, char** argv)
{
    if (o.command == "-h" || o.command == "--help" || o.command == "help") {
        o.command = "help";
        if (argc > 2) {
            if (!findCommand(argv[2]))
                throw UsageError("no command '" + std::string(argv[2]) + "' to explain");
            o.helpFor = argv[2];
        }
        return true;
    }
    if (o.command == "--version" || o.command == "version") {
        o.command = "version";
        return true;
    }
    return false;
}

} // namespace

CliOptions parseCommandLine(int argc, char** argv)
{
    CliOptions o;
    if (argc < 2)
        throw UsageError("no command given");
    o.command = argv[1];
    if (helpOrVersion(o, argc, argv))
        return o;
    const CommandInfo* command = findCommand(o.command);
    if (!command)
        throw UsageError("unknown command '" + o.command + "'");
    for (int i = 1; i < argc; ++i)
        o.args.emplace_back(argv[i]);

    for (int i = 2; i < argc; ++i) {
        std::string arg = argv[i];
        std::string value;
        bool inlineValue = false;
        if (o.command == "import" && arg.rfind("-", 0) != 0 && o.source.empty()) {
            o.source = arg; // the one word an option does not name: the other store
            continue;
        }
        if (o.command == "predict" && arg.rfind("-", 0) != 0) {
            o.inputs.push_back(arg); // what to classify
            continue;
        }
        if (arg.rfind("--", 0) == 0) {
            const auto eq = arg.find('=');
            if (eq != std::string::npos) {
                value = arg.substr(eq + 1);
                arg = arg.substr(0, eq);
                inlineValue = true;
            }
        }
        if (arg == "-h" || arg == "--help") {
            o.helpFor = o.command;
            o.command = "help";
            return o;
        }
        const OptionInfo* option = findOption(*command, arg);
        if (!option)
            throw UsageError("'" + arg + "' is not an option of '" + o.command + "'", o.command);
        if (!option->value) {
            if (inlineValue)
                throw UsageError(arg + " takes no value", o.command);
            switchOn(o, arg);
            continue;
        }
        if (!inlineValue) {
            if (i + 1 >= argc)
                throw UsageError(arg + " needs a value (" + option->value + ")", o.command);
            value = argv[++i];
        }
        assign(o, arg, value);
    }
    checkCombinations(o);
    return o;
}

} // namespace entrena::cli
