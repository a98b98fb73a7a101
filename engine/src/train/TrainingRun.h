#pragma once
// One run of Trainer: sets up what it trains with (data, model, optimizer, schedule, a restored
// checkpoint), then loops epochs → steps, calling the parts that own the rest:
//
//   Checkpointer     when and how checkpoints are written
//   DivergenceGuard  rolls back a NaN or spiking loss, or ends the run diverged
//   OomRecovery      lets TrainStep retry a step that ran out of memory with smaller pieces
//   StepReporter     the `step` event: throughput, time split, utilisation, memory
//   Evaluator        validation and test (across the ranks of a data-parallel run)
//   EarlyStopper     ends the run when validation stops improving
//   RankSync         what data-parallel ranks agree on besides gradients (loss, stop, sums)
//   LearningCheck    says when the first epoch ends where guessing would (`not_learning`)
//
// docs/architecture.md draws the whole picture.

#include "data/BatchLoader.h"
#include "data/Dataset.h"
#include "entrena/store/RunStore.h"
#include "entrena/train/Trainer.h"
#include "store/CheckpointFile.h"
#include "system/MemoryMeter.h"
#include "train/Checkpointer.h"
#include "train/DivergenceGuard.h"
#include "train/EarlyStopper.h"
#include "train/Evaluator.h"
#include "train/LearningCheck.h"
#include "train/OomRecovery.h"
#include "train/PathChoice.h"
#include "train/PhaseClock.h"
#include "train/Precision.h"
#include "train/RankSync.h"
#include "train/Recorder.h"
#include "train/StepReporter.h"
#include "train/TrainStep.h"

#include <memory>
#include <optional>
#include <set>

namespace entrena {

class DistGroup;
class GradReducer;

/// Where a resumed run continues: its record and the checkpoint to load.
struct ResumePoint {
    int64_t runId = 0;
    CheckpointRecord checkpoint;
    bool channelsLast = false; ///< a TorchScript module's layout when it stopped (model/Models.h: trainedChannelsLast)
};

class TrainingRun {
public:
    /// `threads`: LibTorch's, already applied; `ranks`: set in a data-parallel run.
    TrainingRun(const RunConfig& config, TrainingObserver& observer, const StopToken& stop, Recorder& recorder, RunStore* store,
                bool checkpoints, const ResumePoint* resume, DistGroup* ranks, int threads);
    ~TrainingRun();

    /// Trains to the end; fills `end` (status, accuracies, times). Throws on failure.
    void run(EndEvent& end);
    /// The last finished epoch's training loss, for the store's summary.
    std::optional<double> finalTrainLoss() const { return finalTrainLoss_; }

private:
    void setUp();
    void buildModel();
    void restore();
    void announce();
    /// The data set's part of the record: class names, input shape, normalisation (the store), and
    /// the files it could not read (a `data_warning`).
    void recordData();
    void buildParts();
    /// Which of Entrena's own paths this run takes: each that applies is measured against ATen's ops
    /// before the first step, or taken from this machine's cache, or forced (train/PathChoice.h).
    void choosePaths();
    /// Why a TorchScript module's convolutions cannot run channels-last here; empty where they can.
    std::string channelsLastDenied();
    /// The first batch of the epoch the run starts in, as training will see it.
    Batch firstBatch() const;
    /// The paths' choice into the run's environment (`paths`).
    void recordPaths();

    /// How an epoch's step loop ended.
    enum class Interrupt { None, Stopped, StepLimit, EarlyStopped, Diverged };
    Interrupt trainEpoch(int epoch);
    /// One optimizer step over up to train.accumulate micro-batches; false when the epoch is over.
    bool trainStep(BatchLoader& loader, int epoch, torch::Tensor& epochLoss, double& epochLr, Interrupt& interrupt);
    void takeStep();
    /// Validation, schedule, early stop and checkpoint after a whole epoch; true: stop the run.
    bool endEpoch(int epoch, double lossSum, double samples, double seconds, double lr);
    void finish(EndEvent& end, Interrupt how);
    /// What the model gets wrong on the test split (validation without one), with thumbnails of
    /// the most confidently wrong images beside the checkpoints.
    void evaluateClasses(EndEvent& end);
    /// The test accuracy of the best checkpoint's weights where they are not the last (see EndEvent).
    void scoreBestWeights(EndEvent& end);

    const RunConfig& config_;
    TrainingObserver& observer_;
    const StopToken& stop_;
    Recorder& recorder_;
    RunStore* store_;
    bool checkpoints_;
    const ResumePoint* resume_;
    DistGroup* ranks_;
    int threads_;
    int rank_ = 0;
    int world_ = 1;

    torch::Device device_ = torch::kCPU;
    DataSplits data_;
    std::optional<int64_t> budget_;
    std::optional<MemoryMeterScope> meterScope_;
    std::optional<Model> model_;
    bool channelsLast_ = false;
    std::unique_ptr<torch::optim::Optimizer> optimizer_;
    std::unique_ptr<GradReducer> reducer_;
    std::vector<torch::Tensor> buffers_; ///< the model's tensors that are not trained
    int64_t stepsPerEpoch_ = 0;
    int64_t totalSteps_ = 0;
    std::optional<LrScheduler> scheduler_;
    TrainingState state_;
    double flopsPerSample_ = 0;
    LossScaler scaler_;
    Augment augment_;
    torch::Tensor classWeights_;  ///< balance: weights, one per class (else undefined)
    torch::Tensor sampleWeights_; ///< balance: sampler, one per training sample (else undefined)

    std::optional<PhaseClock> clock_;
    std::optional<TrainStep> step_;
    std::optional<OomRecovery> oom_;
    std::optional<DivergenceGuard> guard_;
    std::optional<Checkpointer> checkpointer_;
    std::optional<Evaluator> evaluator_;
    std::optional<EarlyStopper> earlyStopper_;
    std::optional<StepReporter> reporter_;
    std::optional<RankSync> sync_;
    std::optional<PathChoice> paths_;
    LearningCheck learningCheck_;

    std::set<int64_t> injectNan_; ///< test builds: steps whose loss becomes NaN once
    double dataWait_ = 0;
    int epochsDone_ = 0;
    std::optional<double> finalTrainLoss_;
};

} // namespace entrena
