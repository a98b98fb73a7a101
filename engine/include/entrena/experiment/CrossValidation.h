#pragma once
// k-fold cross-validation (docs/experiments.md, "Cross-validation"): a configuration trained once per
// fold, each fold held out for validation in turn (data.folds, data.fold), as the trials of one
// experiment. It is a grid sweep over data.fold (and the seed, when repeated), so it runs, stops,
// resumes, shards across a job array and imports exactly as sweeps do. Plain C++ (the GUI includes it).

#include "entrena/experiment/Sweep.h"

#include <optional>
#include <string>
#include <vector>

namespace entrena {

struct ExperimentRecord;
class RunStore;

struct CrossValidationSettings {
    int folds = 5;
    bool stratify = true; ///< every fold keeps each class's share
    int repeat = 1;       ///< repeats with seeds seed, seed + 1, …: each deals its own folds
    int parallel = 0;     ///< folds at once (0: as a sweep's default)
    std::string name;     ///< "": "<configuration's name> <k>-fold"
    int shard = 0, shards = 1;
};

/// The sweep that cross-validates `base`. Throws ConfigError (SpaceError) naming the problem:
/// fewer than 2 folds, or a configuration that cannot be folded.
SweepPlan planCrossValidation(const RunConfig& base, const CrossValidationSettings& settings, int cores);

/// Loads the data as fold 0 would and deals the folds, so that too many folds for a class (or a
/// balance mode on one class) is said before anything is stored. Throws ConfigError with the reason.
void checkCrossValidationData(const RunConfig& folded);

/// The class with the fewest training samples: the most stratified folds the data allows. For a
/// person's message when checkCrossValidationData refuses (it loads the data again). Nothing when the
/// data cannot be loaded or has no classes.
struct SmallestClass {
    std::string name;
    int64_t samples = 0;
};
std::optional<SmallestClass> smallestClass(const RunConfig& config);

/// True when the experiment is a cross-validation (its space holds data.fold).
bool isCrossValidation(const ExperimentRecord& experiment);

/// One figure over the folds.
struct FoldFigure {
    /// best_val_accuracy | final_val_loss | test_accuracy | final_train_loss | macro_recall (the mean of
    /// the classes' recall on each fold's evaluated split) | recall:CLASS (one class's)
    std::string key;
    std::vector<double> values; ///< one per fold that has it, in trial order
    double mean = 0;
    double sd = 0; ///< the sample standard deviation (n − 1); 0 for one value
};

struct CrossValidationSummary {
    int folds = 0;    ///< data.folds
    int repeats = 1;
    int runs = 0;     ///< trials stored
    int finished = 0; ///< of them, finished
    int expected() const { return folds * repeats; } ///< fold runs when complete
    std::vector<FoldFigure> figures;
    const FoldFigure* find(const std::string& key) const;
};

/// The folds' figures as stored: each figure's mean and sd over the finished trials.
CrossValidationSummary summarizeCrossValidation(RunStore& store, const ExperimentRecord& experiment);

/// A cross-validated trial's metric per epoch from its folds' (one series a fold): their mean at each
/// epoch all of them reached. The one rule the sweep's driver, `experiments` and the workbench share.
std::vector<double> foldMeans(const std::vector<std::vector<double>>& folds);

/// An experiment's trials as its sweep valued them: a trial's value is the best, over epochs, of its
/// run's metric, or (sweep --cv) of its folds' mean at each epoch all of them reached.
struct TrialsSummary {
    int trialFolds = 0; ///< sweep --cv: folds a trial (0: one run a trial)
    int trials = 0;
    int pruned = 0;     ///< trials pruned
    std::optional<double> best;
    int64_t bestRun = 0; ///< the best trial's (first) run
};
TrialsSummary summarizeTrials(RunStore& store, const ExperimentRecord& experiment);

/// "0.8512 ± 0.0123": a figure for a person.
std::string meanPlusMinus(const FoldFigure& figure, int decimals = 4);

} // namespace entrena
