// The two searches that run before training: the learning-rate range test and the batch-size finder.
#include "Commands.h"
#include "ErrorReport.h"
#include "ProgressBar.h"
#include "StopOnSignals.h"
#include "entrena/config/Config.h"
#include "entrena/search/BatchSizeFinder.h"
#include "entrena/search/LrFinder.h"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <unistd.h>

namespace entrena::cli {

namespace {

double mib(int64_t bytes)
{
    return double(bytes) / (1024.0 * 1024.0);
}

struct LrFindOptions : ConfigOptions {
    bool json = false;
    LrFinderOptions lrFind; ///< --start-lr, --end-lr, --steps (the engine's defaults)
};

struct BatchFindOptions : ConfigOptions {
    bool json = false;
    BatchSizeOptions batchFind; ///< --start, --max, --trial-steps (likewise)
};

int lrFind(const LrFindOptions& o)
{
    const RunConfig config = RunConfig::fromFile(o.config, o.sets);
    StopToken stop;
    StopOnSignals signals(stop);
    const LrFinderOptions& options = o.lrFind;
    ProgressBar bar;
    // A line every 10 steps for a log; on a terminal the bar says it in place.
    const bool lines = !bar.enabled() || !isatty(fileno(stdout));
    const auto progress = [&](int step, double lr, double loss) {
        if (o.json) {
            std::cout << nlohmann::json{{"event", "lr_find_step"}, {"step", step}, {"lr", lr}, {"loss", loss}}.dump() << "\n";
            return;
        }
        bar.draw(double(step) / double(options.steps), {"step " + std::to_string(step) + "/" + std::to_string(options.steps),
                                                        format("lr %.3g", lr), format("loss %.4f", loss)});
        if (lines && step % 10 == 0) {
            bar.clear();
            std::cout << "step " << step << ": lr " << lr << ", loss " << loss << std::endl;
        }
    };
    const LrFinderResult r = findLearningRate(config, options, stop, progress);
    bar.clear();
    if (r.lrs.size() < 5) {
        reportError("the loss was not finite from the first steps on (" + std::to_string(r.lrs.size()) +
                    " usable steps); start the sweep lower with --start-lr");
        return 1;
    }
    const LrSuggestion& s = r.suggestion;
    if (o.json) {
        std::cout << nlohmann::json{{"event", "lr_find"},
                                    {"suggested_lr", s.suggestedLr},
                                    {"rule", s.rule},
                                    {"steepest_lr", s.steepestLr},
                                    {"valley", {r.lrs[std::size_t(s.valleyBegin)], r.lrs[std::size_t(s.valleyEnd)]}},
                                    {"diverged", r.diverged},
                                    {"lrs", r.lrs},
                                    {"losses", r.losses},
                                    {"smoothed", r.smoothed}}
                         .dump()
                  << "\n";
    } else {
        std::cout << "suggested learning rate: " << s.suggestedLr << " (valley rule: the middle of the loss's descent from "
                  << r.lrs[std::size_t(s.valleyBegin)] << " to " << r.lrs[std::size_t(s.valleyEnd)] << "); steepest descent at "
                  << s.steepestLr << "\n"
                  << "for one_cycle, use it as scheduler.max_lr; for a constant or decaying schedule, as optimizer.lr\n";
    }
    return 0;
}

int batchFind(const BatchFindOptions& o)
{
    const RunConfig config = RunConfig::fromFile(o.config, o.sets);
    StopToken stop;
    StopOnSignals signals(stop);
    BatchSizeOptions options = o.batchFind;
    ProgressBar bar;
    int64_t fitted = 0;
    size_t trials = 0;
    if (!o.json) {
        options.trying = [&](const std::string& device, int64_t batchSize) {
            std::vector<std::string> fields = {"trial " + std::to_string(trials + 1) + ": batch " + std::to_string(batchSize) +
                                               " on " + device};
            if (fitted > 0)
                fields.push_back("largest that fits so far: " + std::to_string(fitted));
            bar.draw(-1, fields);
        };
    }
    const auto progress = [&](const BatchTrial& t) {
        ++trials;
        if (t.fits)
            fitted = std::max(fitted, t.batchSize);
        bar.clear();
        if (o.json)
            std::cout << nlohmann::json{{"event", "batch_trial"}, {"device", t.device},        {"batch_size", t.batchSize},
                                        {"fits", t.fits},         {"peak_bytes", t.peakBytes}, {"why", t.why}}
                             .dump()
                      << "\n";
        else
            std::printf("%-8s batch %6lld  %-8s  peak %8.1f MiB%s%s\n", t.device.c_str(), (long long)t.batchSize,
                        t.fits ? "fits" : "too big", mib(t.peakBytes), t.why.empty() ? "" : ": ", t.why.c_str());
    };
    const BatchSizeResult r = findBatchSize(config, options, stop, progress);
    bar.clear();
    if (o.json) {
        nlohmann::json devices = nlohmann::json::array();
        for (const auto& [device, size] : r.perDevice)
            devices.push_back({{"device", device}, {"batch_size", size}});
        std::cout << nlohmann::json{{"event", "batch_find"},
                                    {"batch_size", r.batchSize},
                                    {"peak_bytes", r.peakBytes},
                                    {"budget_bytes", r.budgetBytes},
                                    {"budget", r.budgetSource},
                                    {"hit_max", r.hitMax},
                                    {"trials", r.trials.size()},
                                    {"devices", devices},
                                    {"train_samples", r.trainSamples},
                                    {"suggested_batch_size", suggestedBatchSize(r.batchSize, r.trainSamples)}}
                         .dump()
                  << "\n";
    } else {
        // Without a budget on a GPU there is no figure to compare with: just say what limited it.
        const std::string of = r.budgetBytes > 0 ? format("of %s %.1f MiB", r.budgetSource.c_str(), mib(r.budgetBytes))
                                                 : "within the " + r.budgetSource;
        std::printf("largest batch that fits: %lld (peak %.1f MiB %s)%s\n", (long long)r.batchSize, mib(r.peakBytes), of.c_str(),
                    r.hitMax ? "; every size up to the limit fitted" : "");
        const int64_t suggested = suggestedBatchSize(r.batchSize, r.trainSamples);
        const auto steps = [&](int64_t batch) {
            const long long n = (r.trainSamples + batch - 1) / batch;
            return n == 1 ? std::string("one step an epoch") : std::to_string(n) + " steps an epoch";
        };
        std::printf("that is %s", steps(r.batchSize).c_str());
        if (suggested != r.batchSize)
            std::printf("; for training, %lld (%s) is the better choice: a power of two, at most 4096, with at\n"
                        "least 50 steps an epoch",
                        (long long)suggested, steps(suggested).c_str());
        std::printf(". Set data.batch_size to the one you want; with several devices it is the size per device\n");
    }
    return 0;
}

/// "(default 1e-06)" as a person writes it: "(default 1e-6)".
std::string byDefault(double value)
{
    std::ostringstream text;
    text << value;
    std::string s = text.str();
    if (const auto e = s.find("e-0"); e != std::string::npos)
        s.erase(e + 2, 1);
    return "(default " + s + ")";
}

void needConfig(const ConfigOptions& o, const char* command)
{
    if (o.config.empty())
        throw UsageError(std::string(command) + " needs --config FILE", command);
}

Runner declareLrFind(CLI::App& app)
{
    auto o = std::make_shared<LrFindOptions>();
    declareConfig(app, *o);
    declareJson(app, o->json);
    positive(app, "--start-lr", "LR", o->lrFind.startLr, "the rate the sweep starts at " + byDefault(o->lrFind.startLr));
    positive(app, "--end-lr", "LR", o->lrFind.endLr, "the rate it ends at " + byDefault(o->lrFind.endLr));
    whole(app, "--steps", "N", o->lrFind.steps, 5,
          "the sweep's length in optimizer steps, at least 5 " + byDefault(o->lrFind.steps));
    afterParse(app, [o] {
        needConfig(*o, "lr-find");
        if (!(o->lrFind.endLr > o->lrFind.startLr))
            throw UsageError("--end-lr must be above --start-lr (got " + std::to_string(o->lrFind.startLr) + " to " +
                                 std::to_string(o->lrFind.endLr) + ")",
                             "lr-find");
    });
    return [o](const Invocation&) { return lrFind(*o); };
}

Runner declareBatchFind(CLI::App& app)
{
    auto o = std::make_shared<BatchFindOptions>();
    declareConfig(app, *o);
    declareJson(app, o->json);
    whole(app, "--start", "N", o->batchFind.start, 1, "the first batch size tried " + byDefault(double(o->batchFind.start)));
    whole(app, "--max", "N", o->batchFind.max, 1, "the largest size tried (default: the training set's size)");
    whole(app, "--trial-steps", "N", o->batchFind.trialSteps, 1,
          "real optimizer steps per trial " + byDefault(o->batchFind.trialSteps));
    afterParse(app, [o] {
        needConfig(*o, "batch-find");
        if (o->batchFind.max > 0 && o->batchFind.max < o->batchFind.start)
            throw UsageError("--max must not be below --start (got " + std::to_string(o->batchFind.max) + " < " +
                                 std::to_string(o->batchFind.start) + ")",
                             "batch-find");
    });
    return [o](const Invocation&) { return batchFind(*o); };
}

} // namespace

CommandInfo lrFindCommand()
{
    return {"lr-find", "--config FILE [--set k=v]... [--json] [--start-lr 1e-6] [--end-lr 10] [--steps 100]",
            "the learning-rate range test: suggests a learning rate",
            "The rate grows exponentially over the steps on a freshly built model; nothing is stored. Use the "
            "suggestion as optimizer.lr, or as scheduler.max_lr for one_cycle.",
            &declareLrFind};
}

CommandInfo batchFindCommand()
{
    return {"batch-find", "--config FILE [--set k=v]... [--json] [--start 16] [--max N] [--trial-steps 3]",
            "find the largest batch size that fits in memory",
            "Doubles the batch until a trial does not fit, then searches between the last size that fitted and the "
            "first that did not. Nothing is stored.",
            &declareBatchFind};
}

} // namespace entrena::cli
