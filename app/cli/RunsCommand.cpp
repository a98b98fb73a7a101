// `entrena-cli runs` (docs/cli.md): the runs of a store, as a table or JSON, with their comparison
// with their data set's baseline and (--disk) what they take on disk.
#include "Commands.h"
#include "entrena/store/Baseline.h"
#include "entrena/store/RunStore.h"

#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

namespace entrena::cli {

namespace {

/// `text` in a column `width` characters wide: cut in the middle where it is longer (generated
/// names differ at their ends: "wine-mlp 5-fold…fold 4"), padded where shorter; counted in
/// characters, not bytes, so a name in Spanish neither breaks a character nor the columns.
std::string column(const std::string& text, size_t width)
{
    std::vector<std::string> chars;
    for (size_t i = 0; i < text.size();) {
        size_t n = 1;
        while (i + n < text.size() && (static_cast<unsigned char>(text[i + n]) & 0xC0) == 0x80)
            ++n;
        chars.push_back(text.substr(i, n));
        i += n;
    }
    std::string out;
    if (chars.size() <= width) {
        for (const auto& c : chars)
            out += c;
        return out + std::string(width - chars.size(), ' ');
    }
    const size_t head = (width - 1) / 2, tail = width - 1 - head;
    for (size_t i = 0; i < head; ++i)
        out += chars[i];
    out += "\u2026";
    for (size_t i = chars.size() - tail; i < chars.size(); ++i)
        out += chars[i];
    return out;
}

constexpr double kBaselineTolerance = 0.005; // the GUI's default: half a percentage point

/// A run's comparison with its data set's baseline, or null when that has none.
nlohmann::json baselineJson(const std::map<int64_t, BaselineComparison>& versus, int64_t runId)
{
    const auto it = versus.find(runId);
    if (it == versus.end())
        return nullptr;
    const BaselineComparison& c = it->second;
    return {{"run", c.baselineRun},           {"is_baseline", c.isBaseline},
            {"speedup", optional(c.speedup)}, {"delta_accuracy", optional(c.deltaAccuracy)},
            {"accuracy", c.accuracyKind},     {"warning", c.warn()},
            {"samples", c.samples},           {"meaningful_delta", optional(c.meaningfulDelta)},
            {"within_noise", c.withinNoise()}};
}

struct RunsOptions {
    std::string db;
    bool json = false;
    std::string status; ///< only runs of this status
    std::string tag;    ///< only runs with this tag
    bool all = false;   ///< archived runs too
    bool disk = false;  ///< each run's disk use, and the store's
};

int runs(const RunsOptions& o)
{
    RunStore store(dbPath(o.db));
    RunFilter filter;
    if (!o.status.empty())
        filter.status = runStatusFromString(o.status);
    filter.tag = o.tag;
    filter.includeArchived = o.all;
    const auto all = store.listRuns(filter);
    const std::map<int64_t, int64_t> disk = o.disk ? store.diskUse() : std::map<int64_t, int64_t>();
    if (o.json) {
        const auto versus = compareWithBaselines(store, all, kBaselineTolerance);
        nlohmann::json array = nlohmann::json::array();
        for (const auto& r : all) {
            array.push_back({{"id", r.id},
                             {"uuid", r.uuid},
                             {"name", r.name},
                             {"status", toString(r.status)},
                             {"created", r.created},
                             {"ended", r.ended.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.ended)},
                             {"experiment", r.experiment ? nlohmann::json(r.experiment) : nlohmann::json(nullptr)},
                             {"trial", r.trial >= 0 ? nlohmann::json(r.trial) : nlohmann::json(nullptr)},
                             {"parent_run", r.parentRun ? nlohmann::json(r.parentRun) : nlohmann::json(nullptr)},
                             {"best_val_accuracy", optional(r.bestValAccuracy)},
                             {"test_accuracy", optional(r.testAccuracy)},
                             {"final_train_loss", optional(r.finalTrainLoss)},
                             {"samples_per_s", optional(r.samplesPerSec)},
                             {"seconds", optional(r.seconds)},
                             {"tags", store.tags(r.id)},
                             {"notes", r.notes},
                             {"error", r.error},
                             {"baseline", baselineJson(versus, r.id)}});
            // The end's evaluation scored the last weights: where test_accuracy is the best checkpoint's
            // and they differ, that figure too.
            if (const EvaluationReport last = evaluationFromJson(r.evaluationJson);
                last.split == "test" && r.testAccuracy && std::abs(last.accuracy() - *r.testAccuracy) > 1e-9)
                array.back()["test_accuracy_last"] = last.accuracy();
            if (o.disk)
                array.back()["disk_bytes"] = disk.count(r.id) ? disk.at(r.id) : 0;
        }
        std::cout << array.dump() << "\n";
        return 0;
    }
    if (all.empty()) {
        std::cout << "no runs in " << store.path() << "\n";
        return 0;
    }
    std::printf("%5s  %-24s  %-11s  %-24s  %9s  %9s%s\n", "id", "name", "status", "created", "best val", "test",
                o.disk ? "       disk" : "");
    for (const auto& r : all) {
        auto pct = [](const std::optional<double>& v) {
            char b[16];
            std::snprintf(b, sizeof b, v ? "%.2f%%" : "-", v ? *v * 100.0 : 0.0);
            return std::string(b);
        };
        std::printf("%5lld  %s  %-11s  %-24s  %9s  %9s", (long long)r.id, column(r.name, 24).c_str(), toString(r.status),
                    r.created.c_str(), pct(r.bestValAccuracy).c_str(), pct(r.testAccuracy).c_str());
        if (o.disk)
            std::printf("  %9s", readableBytes(disk.count(r.id) ? disk.at(r.id) : 0).c_str());
        std::printf("\n");
    }
    if (o.disk) {
        int64_t files = 0;
        for (const auto& [id, bytes] : store.diskUse()) // every run's, the archived too
            files += bytes;
        std::printf("checkpoints and images: %s; the store file: %s (free space: entrena-cli clean)\n",
                    readableBytes(files).c_str(), readableBytes(store.storeFileBytes()).c_str());
    }
    return 0;
}

Runner declare(CLI::App& app)
{
    auto o = std::make_shared<RunsOptions>();
    declareDb(app, o->db);
    declareJson(app, o->json);
    text(app, "--status", "STATUS", o->status,
         "only runs of this status: running, finished, stopped, failed, diverged, interrupted, pruned");
    text(app, "--tag", "TAG", o->tag, "only runs with this tag");
    flag(app, "--all", o->all, "archived runs too");
    flag(app, "--disk", o->disk, "each run's disk use (checkpoints and images), and the store's in all");
    afterParse(app, [o] {
        static const std::set<std::string> statuses = {"running",  "finished",    "stopped", "failed",
                                                       "diverged", "interrupted", "pruned"};
        if (!o->status.empty() && !statuses.count(o->status))
            throw UsageError("--status must be one of running, finished, stopped, failed, diverged, interrupted, pruned; "
                             "got '" +
                                 o->status + "'",
                             "runs");
    });
    return [o](const Invocation&) { return runs(*o); };
}

} // namespace

CommandInfo runsCommand()
{
    return {"runs", "[--db FILE] [--json] [--status STATUS] [--tag TAG] [--all] [--disk]", "list the runs in the run store",
            "With --json: one JSON array of run objects (cli.md in the documentation lists their fields; with --disk each "
            "has disk_bytes).",
            &declare};
}

} // namespace entrena::cli
