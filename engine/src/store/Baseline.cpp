#include "entrena/store/Baseline.h"

#include "entrena/config/Registry.h"

#include "store/Sqlite.h"

#include <algorithm>
#include <nlohmann/json.hpp>

using entrena::sqlite::Statement;
using entrena::sqlite::Transaction;

namespace entrena {

std::string datasetKey(const std::string& configJson)
{
    const auto config = nlohmann::json::parse(configJson, nullptr, /*allow_exceptions=*/false);
    if (!config.is_object())
        return "?";
    const auto data = config.value("data", nlohmann::json::object());
    std::string key = data.value("dataset", std::string(toString(DataSpec{}.dataset)));
    // A table is its file: two CSV files are two data sets.
    if (const auto kind = fromString<DatasetKind>(key); kind && registryEntry(*kind).pathIsFile)
        key += ":" + data.value("path", std::string());
    if (const int64_t limit = data.value("train_limit", int64_t(0)); limit > 0)
        key += ", train_limit " + std::to_string(limit);
    return key;
}

void RunStore::setBaseline(int64_t runId)
{
    requireWritable("mark a baseline");
    const auto run = findRun(std::to_string(runId));
    if (!run)
        throw StoreError("no run " + std::to_string(runId) + " to mark as a baseline");
    if (run->status != RunStatus::Finished || !run->bestValAccuracy)
        throw StoreError("run " + std::to_string(runId) +
                         " cannot be a baseline: only a finished run with a validation "
                         "accuracy can (this one is " +
                         toString(run->status) + ")");
    Transaction t(db_);
    Statement clear(db_, "DELETE FROM baselines WHERE run=?1 OR dataset=?2");
    clear.bind(1, runId).bind(2, datasetKey(run->configJson)).step();
    Statement s(db_, "INSERT INTO baselines (dataset, run) VALUES (?, ?)");
    s.bind(1, datasetKey(run->configJson)).bind(2, runId).step();
    t.commit();
}

void RunStore::clearBaseline(int64_t runId)
{
    requireWritable("clear a baseline");
    Statement s(db_, "DELETE FROM baselines WHERE run=?");
    s.bind(1, runId).step();
}

std::map<std::string, int64_t> RunStore::baselines()
{
    std::map<std::string, int64_t> out;
    Statement s(db_, "SELECT dataset, run FROM baselines");
    while (s.step())
        out[s.text(0)] = s.integer(1);
    return out;
}

std::optional<double> secondsToAccuracy(const std::vector<MetricPoint>& valAccuracy, const std::vector<MetricPoint>& epochSeconds,
                                        double target)
{
    std::map<int, double> seconds;
    for (const auto& p : epochSeconds)
        seconds[p.epoch] = p.value;
    double total = 0;
    int epoch = 0;
    for (const auto& p : valAccuracy) {
        for (int e = epoch + 1; e <= p.epoch; ++e) {
            const auto it = seconds.find(e);
            if (it == seconds.end())
                return std::nullopt; // a gap in the record: no honest time
            total += it->second;
        }
        epoch = std::max(epoch, p.epoch);
        if (p.value >= target)
            return total;
    }
    return std::nullopt;
}

int64_t evaluatedSamples(const RunRecord& run, const std::string& split)
{
    if (split == "validation") {
        const auto data = nlohmann::json::parse(run.dataJson, nullptr, false);
        if (data.is_object() && data.contains("val_samples") && data["val_samples"].is_number_integer())
            return data["val_samples"].get<int64_t>();
    }
    const EvaluationReport e = evaluationFromJson(run.evaluationJson);
    if (e.split != split)
        return 0;
    int64_t n = 0;
    for (const ClassScore& s : e.perClass)
        n += s.support;
    return n;
}

std::optional<double> meaningfulDifference(double p1, int64_t n1, double p2, int64_t n2)
{
    if (n1 <= 0 || n2 <= 0)
        return std::nullopt;
    const auto variance = [](double p, int64_t n) {
        const double edge = std::min(0.5, 1.0 / double(n));
        p = std::clamp(p, edge, 1.0 - edge);
        return p * (1.0 - p) / double(n);
    };
    return 1.96 * std::sqrt(variance(p1, n1) + variance(p2, n2));
}

std::map<int64_t, BaselineComparison> compareWithBaselines(RunStore& store, const std::vector<RunRecord>& runs, double tolerance)
{
    std::map<int64_t, BaselineComparison> out;
    const auto baselines = store.baselines();
    if (baselines.empty())
        return out;
    struct Reference {
        RunRecord run;
        double target = 0;
        std::optional<double> seconds;
    };
    std::map<int64_t, std::optional<Reference>> references; // baseline run -> what it reached
    const auto reference = [&](int64_t id) -> const std::optional<Reference>& {
        auto it = references.find(id);
        if (it != references.end())
            return it->second;
        std::optional<Reference> r;
        if (const auto run = store.findRun(std::to_string(id))) {
            const auto acc = store.metrics(id, "val_accuracy");
            if (!acc.empty()) {
                r = Reference{*run, acc.back().value, std::nullopt};
                r->seconds = secondsToAccuracy(acc, store.metrics(id, "epoch_seconds"), r->target);
            }
        }
        return references.emplace(id, std::move(r)).first->second;
    };

    for (const RunRecord& run : runs) {
        const auto b = baselines.find(datasetKey(run.configJson));
        if (b == baselines.end())
            continue;
        const auto& ref = reference(b->second);
        if (!ref)
            continue;
        BaselineComparison c;
        c.baselineRun = b->second;
        c.isBaseline = run.id == b->second;
        c.targetAccuracy = ref->target;
        c.baselineSeconds = ref->seconds;
        const auto acc = store.metrics(run.id, "val_accuracy");
        c.runSeconds = c.isBaseline ? ref->seconds : secondsToAccuracy(acc, store.metrics(run.id, "epoch_seconds"), ref->target);
        if (c.baselineSeconds && c.runSeconds && *c.runSeconds > 0)
            c.speedup = *c.baselineSeconds / *c.runSeconds;
        std::optional<std::pair<double, double>> accuracies; // this run's, the baseline's
        if (run.testAccuracy && ref->run.testAccuracy) {
            c.accuracyKind = "test";
            accuracies = std::pair{*run.testAccuracy, *ref->run.testAccuracy};
        } else if (!acc.empty()) {
            c.accuracyKind = "validation";
            accuracies = std::pair{acc.back().value, ref->target};
        }
        if (accuracies) {
            c.deltaAccuracy = accuracies->first - accuracies->second;
            const int64_t n = evaluatedSamples(run, c.accuracyKind), nRef = evaluatedSamples(ref->run, c.accuracyKind);
            c.samples = std::min(n, nRef);
            c.meaningfulDelta = meaningfulDifference(accuracies->first, n, accuracies->second, nRef);
        }
        if (!c.isBaseline) {
            const bool quicker = run.seconds && ref->run.seconds && *run.seconds < *ref->run.seconds;
            const bool higherThroughput =
                run.samplesPerSec && ref->run.samplesPerSec && *run.samplesPerSec > *ref->run.samplesPerSec;
            c.faster = c.speedup ? *c.speedup > 1.0 : (quicker || higherThroughput);
            c.worse = c.deltaAccuracy && *c.deltaAccuracy < -tolerance;
        }
        out[run.id] = c;
    }
    return out;
}

} // namespace entrena
