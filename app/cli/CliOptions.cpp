#include "CliOptions.h"

#include "Commands.h"
#include "entrena/experiment/SweepMethodRegistry.h"

#include <cctype>
#include <deque>
#include <set>
#include <sstream>

namespace entrena::cli {

namespace {

/// Text that lives as long as the command table (its entries hold plain pointers).
const char* kept(std::string text)
{
    static std::deque<std::string> texts;
    texts.push_back(std::move(text));
    return texts.back().c_str();
}

/// sweep's usage line: the methods and their own settings from the sweep-method registry.
const char* sweepSynopsis()
{
    std::string s = "--config BASE.json --space SPACE.json [--method ";
    const auto& methods = sweepMethodRegistry();
    for (std::size_t i = 0; i < methods.size(); ++i)
        s += (i ? "|" : "") + std::string(methods[i].name);
    s += "] [--trials N] [--parallel K] [--metric val_accuracy|val_loss] [--name NAME] [--db FILE] [--json] "
         "[--resume EXPERIMENT]";
    for (const auto& m : methods)
        for (const auto& k : m.keys)
            s += " [" + settingFlag(k.key) + (k.kind == ValueKind::Integer ? " N]" : " X]");
    return kept(s + " [--keep-pruned] [--cv K [--no-stratify]]");
}

const char* methodHelp()
{
    std::string s;
    for (const auto& m : sweepMethodRegistry())
        s += (s.empty() ? "" : "; ") + std::string(m.name) + ": " + m.doc;
    return kept(s + ". Default random");
}

/// Each method's own settings as sweep's options.
std::vector<OptionInfo> methodOptions()
{
    std::vector<OptionInfo> out;
    for (const auto& m : sweepMethodRegistry())
        for (const auto& k : m.keys)
            out.push_back({kept(settingFlag(k.key)), k.kind == ValueKind::Integer ? "N" : "X", k.doc});
    return out;
}

/// The table with sweep's method settings added to its options (after --resume's neighbours).
std::vector<CommandInfo> withMethodOptions(std::vector<CommandInfo> table)
{
    for (CommandInfo& c : table)
        if (std::string(c.name) == "sweep") {
            const auto extra = methodOptions();
            c.options.insert(c.options.end() - 2, extra.begin(), extra.end()); // before --shard and --keep-pruned
        }
    return table;
}

const OptionInfo kConfig{"--config", "FILE",
                         "the run configuration (JSON): 'entrena-cli config-keys' lists every key, "
                         "configuration.md in the documentation explains them"};
const OptionInfo kSet{"--set", "KEY=VALUE", "override one configuration key, e.g. --set optimizer.lr=0.01 (repeatable)"};
const OptionInfo kDb{"--db", "FILE", "the run store (default: $XDG_DATA_HOME/entrena/runs.sqlite)"};
const OptionInfo kJson{"--json", nullptr, "one JSON object per line on stdout instead of text"};

} // namespace

const std::vector<CommandInfo>& commands()
{
    static const std::vector<CommandInfo> table = withMethodOptions({
        {"train",
         "--config FILE [--set k=v]... [--db FILE] [--json] [--resume RUN] [--nproc N]",
         "train a model and record the run in the run store",
         {kConfig,
          kSet,
          kDb,
          kJson,
          {"--resume", "RUN",
           "continue a stopped or interrupted run (id or name) from its latest checkpoint, with its "
           "stored configuration"},
          {"--nproc", "N", "train with N data-parallel ranks on this machine (CPU processes, or one per listed GPU)"}},
         "On a terminal a progress bar on stderr shows throughput and the time left; stdout gets a line per "
         "epoch and one at the end, so 'entrena-cli train --config C > log' keeps the log clean. Under torchrun "
         "or srun each process is one rank. SIGINT or SIGTERM stops after the current step with a checkpoint "
         "(exit 0). Exit status: 0 finished or stopped, 1 failed or diverged, 2 bad command line or "
         "configuration.",
         &train},
        {"lr-find",
         "--config FILE [--set k=v]... [--json] [--start-lr 1e-6] [--end-lr 10] [--steps 100]",
         "the learning-rate range test: suggests a learning rate",
         {kConfig,
          kSet,
          kJson,
          {"--start-lr", "LR", "the rate the sweep starts at (default 1e-6)"},
          {"--end-lr", "LR", "the rate it ends at (default 10)"},
          {"--steps", "N", "the sweep's length in optimizer steps, at least 5 (default 100)"}},
         "The rate grows exponentially over the steps on a freshly built model; nothing is stored. Use the "
         "suggestion as optimizer.lr, or as scheduler.max_lr for one_cycle.",
         &lrFind},
        {"batch-find",
         "--config FILE [--set k=v]... [--json] [--start 16] [--max N] [--trial-steps 3]",
         "find the largest batch size that fits in memory",
         {kConfig,
          kSet,
          kJson,
          {"--start", "N", "the first batch size tried (default 16)"},
          {"--max", "N", "the largest size tried (default: the training set's size)"},
          {"--trial-steps", "N", "real optimizer steps per trial (default 3)"}},
         "Doubles the batch until a trial does not fit, then searches between the last size that fitted and the "
         "first that did not. Nothing is stored.",
         &batchFind},
        {"runs",
         "[--db FILE] [--json] [--status STATUS] [--tag TAG] [--all] [--disk]",
         "list the runs in the run store",
         {kDb,
          kJson,
          {"--status", "STATUS", "only runs of this status: running, finished, stopped, failed, diverged, interrupted, pruned"},
          {"--tag", "TAG", "only runs with this tag"},
          {"--all", nullptr, "archived runs too"},
          {"--disk", nullptr, "each run's disk use (checkpoints and images), and the store's in all"}},
         "With --json: one JSON array of run objects (cli.md in the documentation lists their fields; with --disk each "
         "has disk_bytes).",
         &runs},
        {"clean",
         "[--run RUN]... [--archived] [--pruned] [--db FILE] [--dry-run]",
         "delete runs' checkpoints to free disk space, keeping their metrics",
         {{"--run", "RUN", "a run (id or name) whose checkpoints go (repeatable)"},
          {"--archived", nullptr, "every archived run's"},
          {"--pruned", nullptr, "every pruned trial's"},
          kDb,
          {"--dry-run", nullptr, "say what would be freed, delete nothing"}},
         "At least one of --run, --archived and --pruned; together, the runs of each. The runs keep their metrics, "
         "events, evaluation and charts, and can be compared and reported; they can no longer be resumed or exported. "
         "Prints the bytes freed. A run that is training is refused (exit 2).",
         &clean},
        {"baseline",
         "--run RUN [--db FILE] [--clear]",
         "mark a run as its data set's baseline",
         {{"--run", "RUN", "the run (id or name)"}, kDb, {"--clear", nullptr, "stop the run being the baseline"}},
         "Every other run of the data set is then compared with it: its speed-up and its change in accuracy "
         "('entrena-cli runs --json').",
         &baseline},
        {"export",
         "--run RUN [--db FILE] (--checkpoint best|last | --metrics csv|json | --true CLASS --predicted CLASS) "
         "--out FILE",
         "write a run's weights, its metrics, or the samples of a confusion-matrix cell to a file",
         {{"--run", "RUN", "the run (id or name)"},
          kDb,
          {"--checkpoint", "best|last", "the best checkpoint by validation, or the latest"},
          {"--metrics", "csv|json", "every stored metric value instead of weights"},
          {"--true", "CLASS", "with --predicted: the samples of this true class ..."},
          {"--predicted", "CLASS", "... that the model predicted as this class, most confident first"},
          {"--out", "FILE",
           "where to write: .pt, .safetensors or .onnx for weights (and FILE.json beside it); .csv or .json for "
           "a cell's samples"}},
         "The file is written to a temporary name and renamed: never a partial file. A cell's samples are "
         "those of the split the run's end evaluated, classified again by its last checkpoint, each with its "
         "original file (image folders) or line (CSV tables); see docs/evaluation.md.",
         &exportRun},
        {"predict",
         "(--run RUN [--checkpoint best|last] [--db FILE] | --model FILE.pt) INPUT... [--top K] [--json|--csv] [--out FILE]",
         "classify image files, folders of them, or the rows of CSV tables with a trained model",
         {{"--run", "RUN", "the run (id or name) whose checkpoint classifies"},
          {"--checkpoint", "best|last", "the best checkpoint by validation (the default, else the latest), or the latest"},
          kDb,
          {"--model", "FILE.pt", "a model `export` wrote, with its FILE.pt.json beside it, instead of a run"},
          {"--top", "K", "the K most probable classes of each input (default 3)"},
          {"--json", nullptr, "one JSON document: every prediction, what was skipped, accuracy and confusion"},
          {"--csv", nullptr, "one CSV row per input instead of text"},
          {"--out", "FILE", "write the predictions here instead of to stdout"}},
         "Each input is made as the run's training data was: the same size, channels and normalisation for "
         "images, the same columns (by header name, in any order) and scaling for tables. An image in a folder "
         "named after a class, or a table with the label column, is also scored: accuracy and the confusion "
         "matrix follow the predictions. A file that does not decode is named and skipped.",
         &predict},
        {"devices",
         "[--json]",
         "the CPU, BLAS, threads, a measured matrix-multiply rate and the CUDA devices",
         {kJson},
         "Warns when the machine runs far below what it can (a misdetected BLAS kernel, spinning threads).",
         &devices},
        {"cluster-script",
         "--config FILE [--set k=v]... [--nodes N] [--nproc RANKS_PER_NODE] [--out FILE.sbatch] [--space SPACE.json "
         "[--method grid|random] [--trials N] | --cv K]",
         "the torchrun line and a Slurm sbatch script for a configuration, or a job array for a sweep",
         {kConfig,
          kSet,
          {"--nodes", "N", "machines (default 1); with --space, the job array's tasks"},
          {"--space", "SPACE.json",
           "a sweep instead: a Slurm job array whose N tasks each run their share of the "
           "trials into a store of their own, to import afterwards"},
          {"--cv", "K",
           "k-fold cross-validation instead: a Slurm job array of K tasks, one fold each, into stores "
           "that import into one experiment"},
          {"--method", "METHOD", "with --space: grid or random (default random)"},
          {"--trials", "N", "with --space: trials in all (default 10; grid: every combination)"},
          {"--nproc", "N", "ranks per machine (default: one per listed GPU, or 1)"},
          {"--out", "FILE", "write the sbatch script here (made executable) instead of printing it"}},
         "The configuration is checked first: a bad one exits 2 and writes nothing.",
         &clusterScript},
        {"sweep",
         sweepSynopsis(),
         "try many configurations: grid, random or TPE search, ASHA or population-based training",
         {{"--config", "BASE.json", "the base configuration every trial starts from"},
          {"--space", "SPACE.json",
           "keys (as --set names them) and their distributions: uniform, log_uniform, "
           "int_uniform, choice"},
          {"--method", "METHOD", methodHelp()},
          {"--trials", "N", "trials to run (default 10; pbt: the population, 4; grid: every combination)"},
          {"--parallel", "K", "trials at once (default: one per listed GPU, else 1); a CPU's cores are divided"},
          {"--metric", "METRIC", "what is compared: val_accuracy (default, higher is better) or val_loss"},
          {"--name", "NAME", "the experiment's name (default: the configuration's name and the method)"},
          {"--cv", "K",
           "cross-validate every trial: K fold runs each, the trial's value (and what asha prunes on) is their mean"},
          {"--no-stratify", nullptr, "with --cv: deal the folds regardless of the classes"},
          kDb,
          kJson,
          {"--resume", "EXPERIMENT",
           "continue an experiment (id or name) after a stop or a crash, with its stored "
           "settings"},
          {"--shard", "K/N", "grid, random: run only trials K, K+N, K+2N, … (task K of a job array of N)"},
          {"--keep-pruned", nullptr,
           "keep the checkpoints of trials asha prunes (by default deleted when the sweep ends; kept, such a "
           "trial can be resumed)"}},
         "Every trial is a normal run in the store, reproducible from its configuration. A bad space exits 2 before "
         "anything runs or is stored. SIGINT or SIGTERM stops every trial with a checkpoint; --resume goes on. Exit "
         "status: 0 finished or stopped, 1 failed, 2 bad command line, configuration or space.",
         &sweep},
        {"cv",
         "--config FILE [--set k=v]... --folds K [--stratified|--no-stratify] [--repeat R] [--parallel P] [--name NAME] "
         "[--shard K/N] [--db FILE] [--json] [--resume EXPERIMENT]",
         "k-fold cross-validation: train once per fold, each held out in turn, and report each figure's mean ± sd",
         {kConfig,
          kSet,
          {"--folds", "K", "folds, at least 2; each class must have K samples or more (stratified)"},
          {"--stratified", nullptr, "every fold keeps each class's share of the samples (the default)"},
          {"--no-stratify", nullptr, "deal the samples into folds regardless of their class"},
          {"--repeat", "R", "repeat with seeds seed … seed + R − 1, each dealing its own folds (default 1)"},
          {"--parallel", "P", "folds at once (default 1); a CPU's cores are divided"},
          {"--name", "NAME", "the experiment's name (default: the configuration's name and \"K-fold\")"},
          {"--shard", "K/N", "run only folds K, K+N, … (task K of a job array of N; see cluster-script --cv)"},
          kDb,
          kJson,
          {"--resume", "EXPERIMENT", "continue a stopped cross-validation: the same folds, finished ones kept"}},
         "Each fold is a normal run in the store, a trial of one experiment. The folds are dealt from the seed, so "
         "they are the same on every machine and after --resume. Exit status: 0 finished or stopped, 1 a fold "
         "failed, 2 bad command line or configuration (nothing is stored).",
         &crossValidate},
        {"experiments",
         "[--db FILE] [--json]",
         "the experiments (sweeps) in the run store, with their best trial",
         {kDb, kJson},
         "One line per experiment: id, name, method, status, trials and the best value of its metric.",
         &experiments},
        {"import",
         "OTHER.sqlite [--db FILE] [--strict]",
         "copy the runs of another run store into this one",
         {kDb,
          {"--strict", nullptr,
           "exit with status 1 when a checkpoint or evaluation image could not be copied (each is named either way)"}},
         "Runs, their metrics, events, checkpoints and experiments are added by their uuid: importing the same store "
         "twice adds nothing. Each run's checkpoint files and evaluation images are copied into its own folder beside "
         "this store and checked against their recorded checksums, so the runs resume and export after the other "
         "store is deleted; a file that cannot be copied is named on stderr. For runs made on a cluster node or "
         "another machine.",
         &importStore},
        {"config-keys",
         "[--markdown]",
         "every configuration key that --config and --set take, with its default",
         {{"--markdown", nullptr,
           "the data sets, models, optimizers and schedules with their keys, as the tables of "
           "configuration.md"}},
         "One key per line: the dotted path and its default value. Keys that apply to only some choices "
         "(a scheduler's or an optimizer's parameters, csv's columns) are listed too.",
         &configKeys},
    });
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

void assign(CliOptions& o, const std::string& arg, const std::string& value)
{
    const std::string& c = o.command;
    // A sweep method's own settings (--min-epochs, --quantile, …), as its registry entry describes them.
    for (const SweepMethodEntry& e : sweepMethodRegistry())
        for (const auto& k : e.keys)
            if (arg == settingFlag(k.key)) {
                try {
                    setMethodSetting(o.sweep, k, value);
                } catch (const SpaceError& error) {
                    throw UsageError(error.what(), c);
                }
                return;
            }
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
    else if (arg == "--shard") {
        const auto slash = value.find('/');
        if (slash == std::string::npos)
            throw UsageError("--shard needs K/N, e.g. 0/4; got '" + value + "'", c);
        o.shard = int(wholeNumber(c, arg, value.substr(0, slash), 0));
        o.shards = int(wholeNumber(c, arg, value.substr(slash + 1), 1));
        if (o.shard >= o.shards)
            throw UsageError("--shard K/N needs K < N; got '" + value + "'", c);
    } else if (arg == "--space")
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

CliOptions parseCommandLine(int argc, char** argv)
{
    CliOptions o;
    if (argc < 2)
        throw UsageError("no command given");
    o.command = argv[1];
    if (o.command == "-h" || o.command == "--help" || o.command == "help") {
        o.command = "help";
        if (argc > 2) {
            if (!findCommand(argv[2]))
                throw UsageError("no command '" + std::string(argv[2]) + "' to explain");
            o.helpFor = argv[2];
        }
        return o;
    }
    if (o.command == "--version" || o.command == "version") {
        o.command = "version";
        return o;
    }
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
            // Each option without a value switches one flag on.
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
