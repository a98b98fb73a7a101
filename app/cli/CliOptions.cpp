#include "CliOptions.h"

#include <set>

namespace entrena::cli {

const char* const kUsage =
    "usage:\n"
    "  entrena-cli train   --config FILE [--set k=v]... [--db FILE] [--json] [--resume RUN] [--nproc N]\n"
    "  entrena-cli lr-find --config FILE [--set k=v]... [--json] [--start-lr 1e-6] [--end-lr 10] [--steps 100]\n"
    "  entrena-cli batch-find --config FILE [--set k=v]... [--json] [--start 16] [--max N] [--trial-steps 3]\n"
    "  entrena-cli runs    [--db FILE] [--json] [--status STATUS] [--tag TAG] [--all]\n"
    "  entrena-cli baseline --run RUN [--db FILE] [--clear]\n"
    "  entrena-cli export  --run RUN [--db FILE] (--checkpoint best|last --out FILE | --metrics csv|json --out FILE)\n"
    "  entrena-cli devices [--json]\n"
    "  entrena-cli cluster-script --config FILE [--nodes N] [--nproc RANKS_PER_NODE] [--out FILE.sbatch]\n"
    "\n"
    "The default database is $XDG_DATA_HOME/entrena/runs.sqlite (~/.local/share/entrena/runs.sqlite).\n"
    "Exit status: 0 finished or stopped, 1 failed or diverged, 2 bad command line or configuration.\n";

namespace {

// Options each command takes, with whether they need a value.
const std::set<std::string>& allowed(const std::string& command)
{
    static const std::set<std::string> train = {"--config", "--set", "--db", "--json", "--resume", "--nproc"};
    static const std::set<std::string> lrFind = {"--config", "--set", "--json", "--start-lr", "--end-lr", "--steps"};
    static const std::set<std::string> batchFind = {"--config", "--set", "--json", "--start", "--max", "--trial-steps"};
    static const std::set<std::string> baseline = {"--run", "--db", "--clear"};
    static const std::set<std::string> runs = {"--db", "--json", "--status", "--tag", "--all"};
    static const std::set<std::string> exportOpts = {"--run", "--db", "--checkpoint", "--metrics", "--out"};
    static const std::set<std::string> devices = {"--json"};
    static const std::set<std::string> cluster = {"--config", "--set", "--nodes", "--nproc", "--out"};
    static const std::set<std::string> none;
    if (command == "train")
        return train;
    if (command == "lr-find")
        return lrFind;
    if (command == "batch-find")
        return batchFind;
    if (command == "baseline")
        return baseline;
    if (command == "runs")
        return runs;
    if (command == "export")
        return exportOpts;
    if (command == "devices")
        return devices;
    if (command == "cluster-script")
        return cluster;
    return none;
}

/// A whole number of at least `least` (the option named in the error).
int64_t wholeNumber(const std::string& option, const std::string& value, int64_t least)
{
    try {
        size_t used = 0;
        const long long v = std::stoll(value, &used);
        if (used == value.size() && v >= least)
            return v;
    } catch (const std::exception&) {
    }
    throw UsageError(option + " needs a whole number of at least " + std::to_string(least) + ", got '" + value + "'");
}

} // namespace

CliOptions parseCommandLine(int argc, char** argv)
{
    CliOptions o;
    if (argc < 2)
        throw UsageError("no command given");
    o.command = argv[1];
    if (o.command == "-h" || o.command == "--help" || o.command == "help") {
        o.command = "help";
        return o;
    }
    if (o.command == "--version" || o.command == "version") {
        o.command = "version";
        return o;
    }
    static const std::set<std::string> commands = {"train", "lr-find", "batch-find", "runs", "baseline", "export", "devices",
                                                   "cluster-script"};
    if (!commands.count(o.command))
        throw UsageError("unknown command '" + o.command + "'");

    for (int i = 1; i < argc; ++i)
        o.args.emplace_back(argv[i]);
    const auto& ok = allowed(o.command);
    for (int i = 2; i < argc; ++i) {
        std::string arg = argv[i];
        std::string value;
        bool inlineValue = false;
        if (arg.rfind("--", 0) == 0) {
            const auto eq = arg.find('=');
            if (eq != std::string::npos) {
                value = arg.substr(eq + 1);
                arg = arg.substr(0, eq);
                inlineValue = true;
            }
        }
        if (arg == "-h" || arg == "--help") {
            o.command = "help";
            return o;
        }
        if (!ok.count(arg))
            throw UsageError("'" + arg + "' is not an option of '" + o.command + "'");
        if (arg == "--json" || arg == "--all" || arg == "--clear") {
            if (inlineValue)
                throw UsageError(arg + " takes no value");
            (arg == "--json" ? o.json : arg == "--all" ? o.all : o.clear) = true;
            continue;
        }
        if (!inlineValue) {
            if (i + 1 >= argc)
                throw UsageError(arg + " needs a value");
            value = argv[++i];
        }
        if (arg == "--config")
            o.config = value;
        else if (arg == "--set")
            o.sets.push_back(value);
        else if (arg == "--db")
            o.db = value;
        else if (arg == "--resume")
            o.resume = value;
        else if (arg == "--run")
            o.run = value;
        else if (arg == "--checkpoint")
            o.checkpoint = value;
        else if (arg == "--metrics")
            o.metrics = value;
        else if (arg == "--out")
            o.out = value;
        else if (arg == "--status")
            o.status = value;
        else if (arg == "--tag")
            o.tag = value;
        else if (arg == "--start-lr" || arg == "--end-lr") {
            try {
                size_t used = 0;
                const double v = std::stod(value, &used);
                if (used != value.size() || !(v > 0))
                    throw std::invalid_argument(value);
                (arg == "--start-lr" ? o.startLr : o.endLr) = v;
            } catch (const std::exception&) {
                throw UsageError(arg + " needs a positive number such as 1e-6, got '" + value + "'");
            }
        } else if (arg == "--steps")
            o.steps = int(wholeNumber(arg, value, 5));
        else if (arg == "--nproc")
            o.nproc = int(wholeNumber(arg, value, 1));
        else if (arg == "--nodes")
            o.nodes = int(wholeNumber(arg, value, 1));
        else if (arg == "--start")
            o.start = wholeNumber(arg, value, 1);
        else if (arg == "--max")
            o.max = wholeNumber(arg, value, 1);
        else if (arg == "--trial-steps")
            o.trialSteps = int(wholeNumber(arg, value, 1));
    }
    if (!o.status.empty()) {
        static const std::set<std::string> statuses = {"running", "finished", "stopped", "failed", "diverged", "interrupted"};
        if (!statuses.count(o.status))
            throw UsageError("--status must be one of running, finished, stopped, failed, diverged, interrupted; got '" +
                             o.status + "'");
    }
    if (o.command == "baseline" && o.run.empty())
        throw UsageError("baseline needs --run RUN");
    if (o.command == "export") {
        if (o.run.empty())
            throw UsageError("export needs --run RUN");
        if (o.out.empty())
            throw UsageError("export needs --out FILE");
        if (o.checkpoint.empty() == o.metrics.empty())
            throw UsageError("export needs either --checkpoint best|last or --metrics csv|json");
        if (!o.metrics.empty() && o.metrics != "csv" && o.metrics != "json")
            throw UsageError("--metrics must be csv or json, got '" + o.metrics + "'");
        if (!o.checkpoint.empty() && o.checkpoint != "best" && o.checkpoint != "last")
            throw UsageError("--checkpoint must be best or last, got '" + o.checkpoint + "'");
        const auto endsWith = [&](const std::string& tail) {
            return o.out.size() >= tail.size() && o.out.compare(o.out.size() - tail.size(), tail.size(), tail) == 0;
        };
        if (!o.checkpoint.empty() && !endsWith(".pt") && !endsWith(".pth") && !endsWith(".safetensors"))
            throw UsageError("--out for a checkpoint must end in .pt (PyTorch) or .safetensors, got '" + o.out + "'");
    }
    if (o.command == "lr-find" && !(o.endLr > o.startLr))
        throw UsageError("--end-lr must be above --start-lr (got " + std::to_string(o.startLr) + " to " +
                         std::to_string(o.endLr) + ")");
    if (o.command == "batch-find" && o.max > 0 && o.max < o.start)
        throw UsageError("--max must not be below --start (got " + std::to_string(o.max) + " < " + std::to_string(o.start) + ")");
    if (!o.resume.empty() && o.nproc > 1)
        throw UsageError("--resume continues a run in one process; leave out --nproc");
    if ((o.command == "train" || o.command == "lr-find" || o.command == "batch-find" || o.command == "cluster-script") &&
        o.config.empty() && o.resume.empty())
        throw UsageError(o.command + " needs --config FILE" + (o.command == "train" ? " (or --resume RUN)" : ""));
    return o;
}

} // namespace entrena::cli
