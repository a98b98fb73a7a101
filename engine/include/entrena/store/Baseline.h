#pragma once
// The baseline check: a run marked as its data set's baseline, and every other run measured
// against it — how much sooner it reaches the baseline's final validation accuracy, and how its
// final accuracy differs — so that a "faster" run that is really a worse model is flagged.

#include "entrena/store/RunStore.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace entrena {

/// The data set a run's configuration trains on, as baselines group runs: `data.dataset`, with
/// the file for CSV data and the size of a subset (`train_limit`), since times and accuracies on
/// different data do not compare.
std::string datasetKey(const std::string& configJson);

struct BaselineComparison {
    int64_t baselineRun = 0;
    bool isBaseline = false;
    double targetAccuracy = 0;             ///< the baseline's final validation accuracy
    std::optional<double> baselineSeconds; ///< training time the baseline took to reach it
    std::optional<double> runSeconds;      ///< training time this run took (none: never reached it)
    std::optional<double> speedup;         ///< baselineSeconds / runSeconds
    std::optional<double> deltaAccuracy;   ///< final accuracy minus the baseline's (a fraction)
    std::string accuracyKind;              ///< "test" when both runs have one, else "validation"
    bool faster = false;                   ///< sooner to the target, or, never reaching it, quicker or higher throughput
    bool worse = false;                    ///< deltaAccuracy below -tolerance
    /// The trap: faster, but ending worse than the baseline.
    bool warn() const { return faster && worse; }
};

/// Time to an accuracy from a run's per-epoch series: the summed epoch times up to the first
/// epoch whose validation accuracy reaches `target` (none if none does). Epoch times count
/// training and validation, as the run spent them.
std::optional<double> secondsToAccuracy(const std::vector<MetricPoint>& valAccuracy, const std::vector<MetricPoint>& epochSeconds,
                                        double target);

/// Every run in `runs` whose data set has a baseline, compared with it. `tolerance` is in
/// accuracy (0.005: half a percentage point).
std::map<int64_t, BaselineComparison> compareWithBaselines(RunStore& store, const std::vector<RunRecord>& runs, double tolerance);

} // namespace entrena
