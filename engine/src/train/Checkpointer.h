#pragma once
// The run's checkpoints: when to write one (each epoch's end as train.checkpoint_every says, the
// last epoch, a new best, a stop mid-epoch) and writing it with its record in the store.

#include "store/CheckpointFile.h"

#include <string>

namespace entrena {

class Recorder;
class RunStore;

class Checkpointer {
public:
    /// No `store`: this process writes no checkpoints (a data-parallel rank > 0, or a run asked for
    /// none). They go to the run's folder in the store (RunStore::runFolder).
    /// After each save only the best and the latest `keep` stay (0: all; see RunStore::pruneCheckpoints).
    Checkpointer(RunStore* store, int keep, Model& model, torch::optim::Optimizer& optimizer, LrScheduler& scheduler, TrainingState& state,
                 Recorder& recorder);

    /// An epoch ended with `valAccuracy`: saves when it is the last, a periodic one, or a new best.
    void epochEnded(int epoch, double valAccuracy, bool isBest, bool last, int checkpointEvery);
    /// The run stopped inside `epoch`: saves where it is (unless just saved), so that resume
    /// continues at the next batch.
    void stoppedInEpoch(int epoch);

private:
    void save(int epoch, double metric, bool isBest, const std::string& fileName);
    /// What to do after a checkpoint could not be written: free space, then resume from the last one kept.
    std::string resumeHint() const;

    RunStore* store_;
    int keep_;
    Model& model_;
    torch::optim::Optimizer& optimizer_;
    LrScheduler& scheduler_;
    TrainingState& state_;
    Recorder& recorder_;
    int64_t lastSavedStep_ = -1;
};

} // namespace entrena
