#pragma once
// What a training run tells the outside world while it runs. Plain C++: the GUI includes it.

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace entrena {

/// A run's status as stored and as reported in the `end` event.
enum class RunStatus { Running, Finished, Stopped, Failed, Diverged, Interrupted, Pruned };

const char* toString(RunStatus status);
RunStatus runStatusFromString(const std::string& text); ///< unknown text: Failed

struct StartEvent {
    int64_t runId = 0; ///< 0 when the run is not stored
    std::string name;
    int worldSize = 1;
    std::string device;
    int epochs = 0;
    int64_t stepsPerEpoch = 0; ///< optimizer steps per epoch
    int64_t totalSteps = 0;    ///< optimizer steps the run will take if not stopped
    int64_t parameters = 0;
    double flopsPerSample = 0; ///< forward FLOPs per sample (0: not estimated)
    std::string precision;     ///< what it trains in: fp32, bf16 or fp16 (`auto` resolved)
    std::vector<std::string> classes; ///< the class names, in label order
    std::vector<int64_t> inputShape;  ///< one sample: [C, H, W] (tables: [1, 1, features])
    std::string balance = "none";     ///< data.balance
    std::vector<double> classWeights; ///< balance: weights, the loss's weight of each class
    int folds = 0, fold = 0;          ///< cross-validation: data.folds and the fold held out (folds 0: none)
    int64_t trainSamples = 0, valSamples = 0; ///< the split's sizes
};

/// Seconds spent in each part of training steps.
struct PhaseTimes {
    double data = 0;      ///< waiting for the next batch
    double forward = 0;
    double backward = 0;
    double optimizer = 0; ///< the rest of the step: unscaling, clipping, the divergence check, the update, the schedule
    double comm = 0;      ///< gradient all-reduce not hidden behind backward (several devices)
    double logging = 0;   ///< reporting steps: events, the run store
    double sum() const { return data + forward + backward + optimizer + comm + logging; }
};

struct StepEvent {
    int64_t step = 0; ///< optimizer steps from 1
    int epoch = 0;    ///< from 1
    double loss = 0;  ///< this step's training loss over the global batch
    double lr = 0;    ///< the learning rate this step applied
    double samplesPerSec = 0;
    int64_t memoryBytes = 0; ///< the process's resident memory
    // CUDA runs: the caching allocator's bytes on the training device (-1 on CPU).
    int64_t deviceAllocated = -1;
    int64_t deviceReserved = -1;
    int64_t devicePeak = -1;
    int64_t deviceTotal = -1;
    // CUDA runs where NVIDIA's management library is present (-1 otherwise).
    int64_t deviceUsed = -1;    ///< memory in use on the device by every process
    int deviceUtilization = -1; ///< percent of the time the device was busy
    // Where the time went: seconds per step, means over the steps since the last step event.
    // `stepSeconds` is measured as a whole (wall time / steps); the parts are measured each on its
    // own, so what they leave out of it is time no part accounts for.
    double stepSeconds = 0;
    PhaseTimes phases;
    double mfu = -1; ///< model-FLOP utilisation against the machine's GEMM rate, 0..1 (-1: unknown)
    int64_t stepPeakBytes = -1; ///< with train.memory_budget_mb: the largest tensor memory of a step
    // Data-parallel runs:
    std::vector<int64_t> rankMemoryBytes; ///< each rank's memory (device allocated on CUDA, resident on CPU)
    double commBusySeconds = -1; ///< per step, the gradient all-reduce's whole time, hidden or not (phases.comm: not hidden)
};

struct EpochEvent {
    int epoch = 0; ///< from 1
    double trainLoss = 0;
    double valLoss = 0;
    double valAccuracy = 0;
    double lr = 0; ///< the rate the epoch's last step applied
    double seconds = 0;
    int64_t step = 0; ///< optimizer steps done when the epoch ended (where its means belong on a step axis)
};

/// Anything else worth recording: "checkpoint", "lr_reduced", …
struct NoticeEvent {
    std::string kind;
    int64_t step = 0;
    int epoch = 0;
    std::string message;
};

/// A class's figures over the evaluated split.
struct ClassScore {
    std::string name;
    double precision = 0; ///< of the samples predicted as this class, the share that are (0 when none are)
    double recall = 0;    ///< of the samples of this class, the share predicted as it
    int64_t support = 0;  ///< samples of this class
};

/// A sample the model got wrong with high confidence: where its picture is, and what happened.
struct WrongExample {
    int64_t index = 0;     ///< in the evaluated split
    int64_t trueClass = 0;
    int64_t predicted = 0;
    double confidence = 0; ///< the softmax probability of the (wrong) prediction
    std::string image;     ///< a PNG of it beside the run's checkpoints ("" when not written)
    std::string file;      ///< the original image file ("" when the samples have none: IDX, CIFAR-10)
};

/// What the model gets wrong, at the end of a run: on the test split, or validation without one.
struct EvaluationReport {
    std::string split; ///< "test" or "validation" ("" when nothing was evaluated)
    std::vector<std::string> classes;
    std::vector<std::vector<int64_t>> confusion; ///< rows: true class, columns: predicted, in `classes` order
    std::vector<ClassScore> perClass;
    std::vector<WrongExample> wrong; ///< image data: the most confidently wrong, most confident first
    bool empty() const { return confusion.empty(); }
    /// The confusion matrix's diagonal over its total (< 0 when empty).
    double accuracy() const
    {
        int64_t right = 0, all = 0;
        for (size_t i = 0; i < confusion.size(); ++i)
            for (size_t j = 0; j < confusion[i].size(); ++j) {
                all += confusion[i][j];
                right += i == j ? confusion[i][j] : 0;
            }
        return all > 0 ? double(right) / double(all) : -1;
    }
};

/// The report as the `end` event, the store and `export --metrics json` write it:
/// {"split", "classes", "confusion", "per_class": [{"class", "precision", "recall", "support"}],
/// "wrong": [{"index", "true", "predicted", "confidence", "image", "file"}]}; "" for an empty report
/// ("file" only where the samples have files).
std::string evaluationToJson(const EvaluationReport& report);
/// The report from that JSON ("" or damaged text: an empty report).
EvaluationReport evaluationFromJson(const std::string& json);

struct EndEvent {
    RunStatus status = RunStatus::Finished;
    /// Of the weights predict, Try it and export use by default: the best checkpoint's where the run
    /// kept one, else the last. < 0: not measured.
    double testAccuracy = -1;
    double testAccuracyLast = -1; ///< of the last weights, where they are not the best checkpoint's (< 0: the same)
    double bestValAccuracy = -1; ///< < 0: not measured
    double seconds = 0;
    double samplesPerSec = 0;
    double trainSeconds = 0;    ///< time in the training loop (without validation and test)
    double dataWaitSeconds = 0; ///< of which waiting for the next batch
    double loggingSeconds = 0;  ///< of which reporting steps (events, store)
    std::string error;
    EvaluationReport evaluation; ///< a run that finished: the confusion matrix and per-class figures
};

/// Receives a run's events on the training thread. Implementations must return quickly
/// (append to a queue and return): the trainer waits for them.
class TrainingObserver {
public:
    virtual ~TrainingObserver() = default;
    virtual void onStart(const StartEvent&) {}
    virtual void onStep(const StepEvent&) {}
    virtual void onEpoch(const EpochEvent&) {}
    virtual void onNotice(const NoticeEvent&) {}
    virtual void onEnd(const EndEvent&) {}
};

/// A cooperative stop request, checked by the trainer between steps.
class StopToken {
public:
    void requestStop() { stop_.store(true, std::memory_order_relaxed); }
    bool stopRequested() const { return stop_.load(std::memory_order_relaxed); }

private:
    std::atomic<bool> stop_{false};
};

} // namespace entrena
