#pragma once
// The baseline check: a run marked as its data set's baseline, and every other run measured
// against it — how much sooner it reaches the baseline's final validation accuracy, and how its
// final accuracy differs — so that a "faster" run that is really a worse model is flagged.

#include "entrena/store/RunStore.h"

#include <cmath>
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
    /// The smallest |deltaAccuracy| that is not chance at 95 % on the samples these accuracies were
    /// measured on (meaningfulDifference); none when a run does not say how many it evaluated.
    std::optional<double> meaningfulDelta;
    int64_t samples = 0; ///< the fewer of the two runs' evaluated samples (0: unknown)
    /// The trap: faster, but ending worse than the baseline.
    bool warn() const { return faster && worse; }
    /// The difference is smaller than chance would make it on so few samples.
    bool withinNoise() const { return deltaAccuracy && meaningfulDelta && std::abs(*deltaAccuracy) < *meaningfulDelta; }
};

/// The samples a run's accuracy of `split` ("test" or "validation") was measured on, from its
/// stored data (val_samples) and end-of-run evaluation; 0 when the store does not say.
int64_t evaluatedSamples(const RunRecord& run, const std::string& split);

/// Two accuracies measured on n1 and n2 samples: the smallest difference between them that chance
/// would make less than 5 % of the time, 1.96 · √(p1(1 − p1)/n1 + p2(1 − p2)/n2) (the normal
/// approximation to a difference of two binomial proportions; each p is kept within [1/n, 1 − 1/n]
/// so that a perfect score still has an interval). None when n1 or n2 is 0.
std::optional<double> meaningfulDifference(double p1, int64_t n1, double p2, int64_t n2);

/// Below this many evaluated samples the compare view and the baseline check suggest cross-validation
/// whenever a difference is within chance.
constexpr int64_t kFewSamples = 1000;

/// Time to an accuracy from a run's per-epoch series: the summed epoch times up to the first
/// epoch whose validation accuracy reaches `target` (none if none does). Epoch times count
/// training and validation, as the run spent them.
std::optional<double> secondsToAccuracy(const std::vector<MetricPoint>& valAccuracy, const std::vector<MetricPoint>& epochSeconds,
                                        double target);

/// Every run in `runs` whose data set has a baseline, compared with it. `tolerance` is in
/// accuracy (0.005: half a percentage point).
std::map<int64_t, BaselineComparison> compareWithBaselines(RunStore& store, const std::vector<RunRecord>& runs, double tolerance);

} // namespace entrena
