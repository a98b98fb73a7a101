#pragma once
// An experiment as its views need it, read from the store in one go (on the job runner's thread):
// its trials with their values, status and metric, the metric's points against wall time, and
// population-based training's exploits (who copied whom, when).

#include "entrena/experiment/CrossValidation.h"
#include "entrena/experiment/SearchSpace.h"
#include "entrena/store/RunStore.h"
#include "entrena/experiment/MetricRegistry.h"

#include <QList>
#include <QString>
#include <optional>
#include <string>
#include <vector>

namespace entrena::ui {

struct TrialRow {
    int64_t runId = 0;
    int trial = -1;
    RunStatus status = RunStatus::Running;
    std::vector<std::string> values; ///< one per parameter of the space, as JSON ("" when unknown)
    std::optional<double> metric;    ///< its best value of the experiment's metric
    int epochs = 0;                  ///< epochs with a value of the metric
    std::vector<MetricPoint> points; ///< the metric per epoch, with wall time
    int64_t parentRun = 0;           ///< pbt: the run it last copied
};

/// pbt: trial `trial` (run `runId`) took the weights of `sourceRun` at `step`.
struct ExploitRow {
    int64_t step = 0;
    int64_t runId = 0;
    int trial = -1;
    int64_t sourceRun = 0;
    int sourceTrial = -1;
    QString changes; ///< "optimizer.lr 0.01 -> 0.012; …" as the sweep recorded it
};

struct ExperimentData {
    ExperimentRecord experiment;
    std::vector<std::pair<std::string, Distribution>> params;
    std::vector<TrialRow> trials;     ///< by trial number
    std::vector<ExploitRow> exploits; ///< by step
    double startWall = 0;             ///< seconds since the Unix epoch when its first trial started
    std::optional<CrossValidationSummary> cv; ///< a cross-validation: its figures' mean ± sd over the folds
    int trialFolds = 0; ///< sweep --cv: each trial's folds; its row is their mean (0: one run a trial)

    bool higherIsBetter() const { return metricOrDefault(experiment.metric).higherIsBetter; }
    /// The index in `trials` of the best trial (none: no trial has a value yet).
    std::optional<std::size_t> best() const;
    int count(RunStatus status) const;
    const TrialRow* trialOfRun(int64_t runId) const;

    /// Throws std::runtime_error when the store has no such experiment.
    static ExperimentData load(RunStore& store, int64_t experimentId);
};

/// A value as a person reads it: a number with four significant digits, anything else as its JSON.
QString valueText(const std::string& json);
/// A trial's values on one line: "optimizer.lr 0.0123, data.batch_size 64".
QString paramsText(const TrialParams& params);

} // namespace entrena::ui
