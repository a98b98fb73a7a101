#pragma once
// The samples behind a run's confusion matrix (docs/evaluation.md, "From a cell to its samples"):
// the split that the end of a run evaluated, loaded again as the run loaded it and classified by
// the run's last weights, so that a cell (a true class and a predicted one) opens as the samples
// in it, each with its original file or line. Plain C++: the GUI includes it.

#include "entrena/export/Predict.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace entrena {

class RunStore;
class StopToken;

/// One sample of the evaluated split, as the run's model classifies it.
struct ReviewedSample {
    int64_t index = 0; ///< in the evaluated split (what a wrong example's "index" counts)
    int64_t trueClass = 0;
    int64_t predicted = 0;
    double confidence = 0; ///< the probability of the predicted class
    std::string file;      ///< image folders: the file it was read from ("" otherwise)
    int64_t line = 0;      ///< CSV tables: its line in the file, the header being line 1 (0 otherwise)
};

class SplitReview {
public:
    /// Loads run `runId`'s data as it trained (its configuration and seed), takes the split its end
    /// evaluated (test, or validation without one) and classifies it with the last checkpoint (the
    /// weights that evaluation scored), images normalised as the run recorded. Throws
    /// PredictInputError when there is no such run, it evaluated nothing, its data cannot be read
    /// again, or its classes or split are no longer those of its matrix; CheckpointError when it
    /// kept no checkpoint; std::runtime_error when `stop` asks it to stop.
    static SplitReview ofRun(RunStore& store, int64_t runId, const StopToken* stop = nullptr);

    SplitReview(SplitReview&&) noexcept;
    SplitReview& operator=(SplitReview&&) noexcept;
    ~SplitReview();

    const std::string& split() const; ///< "test" or "validation"
    const std::vector<std::string>& classes() const;
    /// The split's confusion counts as classified now: rows the true class, columns the predicted.
    const std::vector<std::vector<int64_t>>& confusion() const;
    /// Samples that now land in another cell than the run's recorded matrix says, or that it did
    /// not count or counted and are gone (0 when they agree): data changed since, or another
    /// device's rounding.
    int64_t disagreements() const;
    /// Samples of the split that could not be read again (a file damaged or deleted since); they
    /// are in no cell.
    int64_t unreadable() const;
    /// "run 3 ('digits'), last checkpoint (epoch 5, step 940)".
    const std::string& description() const;
    /// The parts of it, for a GUI that words it in its own language.
    const std::string& runName() const;
    int64_t checkpointEpoch() const;
    int64_t checkpointStep() const;

    bool table() const;
    const std::string& tableFile() const;                 ///< tables: the CSV file the lines are in
    const std::vector<std::string>& featureNames() const; ///< tables: the columns (empty without a header)

    /// Every sample whose true class is `trueClass` and predicted class `predicted`, most confident first.
    std::vector<ReviewedSample> cell(int64_t trueClass, int64_t predicted) const;
    /// Image data: sample `index` as the model saw it (after resizing, before normalisation).
    ModelView picture(int64_t index) const;
    /// Tables: sample `index`'s feature values as read from the file (in featureNames order).
    std::vector<double> features(int64_t index) const;

private:
    struct Impl;
    explicit SplitReview(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

} // namespace entrena
