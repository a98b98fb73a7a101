#include "entrena/experiment/CrossValidation.h"

#include "data/Dataset.h"
#include "data/Holdout.h"
#include "entrena/experiment/SearchSpace.h"
#include "entrena/experiment/SweepMethodRegistry.h"
#include "entrena/store/RunStore.h"
#include "entrena/experiment/MetricRegistry.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>

namespace entrena {

using nlohmann::json;

SweepPlan planCrossValidation(const RunConfig& base, const CrossValidationSettings& s, int cores)
{
    if (s.folds < 2)
        throw SpaceError("--folds " + std::to_string(s.folds) + " is not cross-validation: use 2 or more folds");
    if (s.repeat < 1)
        throw SpaceError("--repeat needs 1 or more");
    RunConfig folded = base;
    folded.data.folds = s.folds;
    folded.data.fold = 0;
    folded.data.stratify = s.stratify;
    folded.validate();
    json space = json::object();
    if (s.repeat > 1) {
        json seeds = json::array();
        for (int r = 0; r < s.repeat; ++r)
            seeds.push_back(base.seed + uint64_t(r));
        space["seed"] = {{"choice", seeds}};
    }
    json folds = json::array();
    for (int k = 0; k < s.folds; ++k)
        folds.push_back(k);
    space["data.fold"] = {{"choice", folds}};
    SweepSettings settings;
    // Every fold once: the method that tries every combination of its choices.
    for (const SweepMethodEntry& m : sweepMethodRegistry())
        if (m.everyCombination && m.shardable) {
            settings.method = m.name;
            break;
        }
    settings.parallel = s.parallel;
    settings.metric = "val_accuracy";
    settings.name = !s.name.empty() ? s.name
                                    : base.name + " " + std::to_string(s.folds) + "-fold" +
                                          (s.repeat > 1 ? " ×" + std::to_string(s.repeat) : "");
    settings.shard = s.shard;
    settings.shards = s.shards;
    return planSweep(folded, space.dump(), settings, cores);
}

void checkCrossValidationData(const RunConfig& folded)
{
    try {
        const DataSplits d = loadData(folded.data, folded.seed);
        if (folded.data.balance != Balance::None)
            balancedClassWeights(d.trainY, d.classes);
    } catch (const ConfigError&) {
        throw;
    } catch (const std::exception& e) {
        throw ConfigError(e.what());
    }
}

std::optional<SmallestClass> smallestClass(const RunConfig& config)
{
    try {
        DataSpec whole = config.data; // every training sample, as the folds deal them
        whole.folds = 0;
        whole.valFraction = 0;
        const DataSplits d = loadData(whole, config.seed);
        const auto counts = torch::bincount(d.trainY.to(torch::kInt64)).contiguous();
        const int64_t* c = counts.data_ptr<int64_t>();
        std::optional<SmallestClass> least;
        for (int64_t k = 0; k < counts.numel(); ++k)
            if (c[k] > 0 && (!least || c[k] < least->samples))
                least = SmallestClass{size_t(k) < d.classNames.size() ? d.classNames[size_t(k)] : std::to_string(k), c[k]};
        return least;
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

bool isCrossValidation(const ExperimentRecord& e)
{
    const json space = json::parse(e.spaceJson, nullptr, false);
    return space.is_object() && space.contains("data.fold");
}

const FoldFigure* CrossValidationSummary::find(const std::string& key) const
{
    for (const auto& f : figures)
        if (f.key == key)
            return &f;
    return nullptr;
}

namespace {

FoldFigure figure(const std::string& key, const std::vector<double>& values)
{
    FoldFigure f;
    f.key = key;
    f.values = values;
    if (values.empty())
        return f;
    double sum = 0;
    for (double v : values)
        sum += v;
    f.mean = sum / double(values.size());
    if (values.size() > 1) {
        double sq = 0;
        for (double v : values)
            sq += (v - f.mean) * (v - f.mean);
        f.sd = std::sqrt(sq / double(values.size() - 1));
    }
    return f;
}

/// A fold's recall of each class that its evaluated split holds, and their mean (macro recall).
void addRecalls(const EvaluationReport& report, std::vector<double>& macro,
                std::vector<std::pair<std::string, std::vector<double>>>& perClass)
{
    double sum = 0;
    int classes = 0;
    for (const ClassScore& c : report.perClass) {
        if (c.support == 0)
            continue;
        sum += c.recall;
        ++classes;
        auto it = std::find_if(perClass.begin(), perClass.end(), [&](const auto& p) { return p.first == c.name; });
        if (it == perClass.end())
            it = perClass.insert(perClass.end(), {c.name, {}});
        it->second.push_back(c.recall);
    }
    if (classes > 0)
        macro.push_back(sum / classes);
}

} // namespace

CrossValidationSummary summarizeCrossValidation(RunStore& store, const ExperimentRecord& e)
{
    CrossValidationSummary s;
    const json base = json::parse(e.baseConfigJson, nullptr, false);
    if (base.is_object() && base.contains("data"))
        s.folds = base["data"].value("folds", 0);
    const json space = json::parse(e.spaceJson, nullptr, false);
    if (space.is_object() && space.contains("seed") && space["seed"].contains("choice"))
        s.repeats = int(space["seed"]["choice"].size());
    std::vector<double> valAcc, valLoss, testAcc, trainLoss, macroRecall;
    std::vector<std::pair<std::string, std::vector<double>>> classRecall; // in the classes' order
    for (const RunRecord& r : store.trialsOf(e.id)) {
        ++s.runs;
        if (r.status != RunStatus::Finished)
            continue;
        ++s.finished;
        addRecalls(evaluationFromJson(r.evaluationJson), macroRecall, classRecall);
        if (r.bestValAccuracy)
            valAcc.push_back(*r.bestValAccuracy);
        if (r.finalValLoss)
            valLoss.push_back(*r.finalValLoss);
        if (r.testAccuracy)
            testAcc.push_back(*r.testAccuracy);
        if (r.finalTrainLoss)
            trainLoss.push_back(*r.finalTrainLoss);
    }
    for (const auto& [key, values] : {std::pair{"best_val_accuracy", &valAcc}, std::pair{"final_val_loss", &valLoss},
                                      std::pair{"test_accuracy", &testAcc}, std::pair{"final_train_loss", &trainLoss}})
        if (!values->empty())
            s.figures.push_back(figure(key, *values));
    // The rare class's fate, which an accuracy hides on unbalanced data.
    if (!macroRecall.empty())
        s.figures.push_back(figure("macro_recall", macroRecall));
    for (const auto& [name, values] : classRecall)
        s.figures.push_back(figure("recall:" + name, values));
    return s;
}

std::vector<double> foldMeans(const std::vector<std::vector<double>>& folds)
{
    if (folds.empty())
        return {};
    size_t epochs = folds.front().size();
    for (const auto& f : folds)
        epochs = std::min(epochs, f.size());
    std::vector<double> means(epochs, 0.0);
    for (const auto& f : folds)
        for (size_t i = 0; i < epochs; ++i)
            means[i] += f[i] / double(folds.size());
    return means;
}

TrialsSummary summarizeTrials(RunStore& store, const ExperimentRecord& e)
{
    TrialsSummary s;
    try {
        s.trialFolds = SweepSettings::fromJson(e.settingsJson).cv;
    } catch (const std::exception&) {
        s.trialFolds = 0; // settings this version cannot read: one run a trial
    }
    const bool higher = metricOrDefault(e.metric).higherIsBetter;
    struct Trial {
        int64_t firstRun = 0;
        bool pruned = false;
        std::vector<std::vector<double>> series; ///< each run's metric per epoch
    };
    std::map<int64_t, Trial> trials;
    for (const RunRecord& r : store.trialsOf(e.id)) {
        Trial& t = trials[s.trialFolds > 0 ? r.trial : r.id];
        t.firstRun = t.firstRun ? std::min(t.firstRun, r.id) : r.id;
        t.pruned = t.pruned || r.status == RunStatus::Pruned;
        t.series.emplace_back();
        for (const MetricPoint& p : store.metrics(r.id, e.metric))
            t.series.back().push_back(p.value);
    }
    s.trials = int(trials.size());
    for (const auto& [key, t] : trials) {
        s.pruned += t.pruned;
        for (const double v : foldMeans(t.series)) { // one run a trial: its own series
            if (!s.best || (higher ? v > *s.best : v < *s.best)) {
                s.best = v;
                s.bestRun = t.firstRun;
            }
        }
    }
    return s;
}

std::string meanPlusMinus(const FoldFigure& f, int decimals)
{
    char text[96];
    std::snprintf(text, sizeof text, "%.*f ± %.*f", decimals, f.mean, decimals, f.sd);
    return text;
}

} // namespace entrena
