#pragma once
// Run configuration: the public contract of docs/configuration.md.
// Plain C++ only: this header is included by the GUI, which must not see LibTorch.

#include "entrena/config/Choices.h"
#include "entrena/config/ParamBlock.h"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace entrena {

/// A configuration that cannot be used. The message names the key and what to do.
class ConfigError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// `data`: where samples come from and how they are batched.
struct DataSpec {
    DatasetKind dataset = DatasetKind::FashionMnist;
    Task task = Task::Classification;                       ///< what is learned from the labels
    std::string path = "/usr/share/datasets/fashion-mnist"; ///< IDX: the folder; csv: the training file
    std::string testPath;                                   ///< csv: the test file ("": no test set)
    std::string labelColumn = "label";                      ///< csv: the label column's header name, or its 0-based index
    bool header = true;                                     ///< csv: the first row names the columns
    int augmentCrop = 0;                                    ///< random crop after zero-padding by this many pixels (0: off)
    bool augmentFlip = false;                               ///< random horizontal flip
    double valFraction = 0.1;                               ///< share of the training file held out for validation, [0, 0.9]
    int folds = 0;                                          ///< k-fold cross-validation: folds of the training data (0: off)
    int fold = 0;                                           ///< the fold held out for validation, [0, folds)
    bool stratify = true;                                   ///< folds keep every class's share
    Balance balance = Balance::None;                        ///< unbalanced classes: none | weights | sampler
    int64_t batchSize = 128;                                ///< samples per micro-batch
    int workers = 2;                                        ///< background threads preparing batches (0: on the training thread)
    int64_t trainLimit = 0;                                 ///< use only the first N training samples (0: all)
    int64_t testLimit = 0;                                  ///< use only the first N test samples (0: all)
    // image-folder:
    std::vector<int64_t> imageSize; ///< [H, W] (or one number: square) every image is resized to; empty: as stored
    int channels = 0;               ///< 1 or 3; 0: 3 when any image has colour
    double cacheMb = 0;             ///< decoded images kept in memory up to this (0: half the memory available)
};

/// `model`: the network.
struct ModelSpec {
    ModelArch arch = ModelArch::Cnn;
    std::string path;                         ///< torchscript: the saved module (torch.jit.script(m).save(path))
    std::vector<int64_t> hidden = {256, 128}; ///< mlp: widths of the hidden layers
    std::vector<int64_t> channels = {32, 64}; ///< cnn: channels of the conv blocks; resnet: of its stages
    int64_t blocks = 1;                       ///< resnet: residual blocks per stage
    double dropout = 0.0;
    /// The keys of an entry registered from outside the engine, by name (entrena/config/ParamBlock.h).
    ParamBlock params;
    /// A key of the block: its value, else the entry's default. Throws std::logic_error for a key no
    /// entry declares.
    OptionValue param(const std::string& key) const;
};

/// `optimizer`: PyTorch's names and meanings.
struct OptimizerSpec {
    OptimizerKind kind = OptimizerKind::Sgd; ///< `name` in the file
    double lr = 0.05;
    double momentum = 0.9;
    bool nesterov = true;
    double dampening = 0.0;
    double weightDecay = 5e-4;
    double beta1 = 0.9;
    double beta2 = 0.999;
    double eps = 1e-8;
    double alpha = 0.99;   ///< rmsprop
    bool centered = false; ///< rmsprop
    /// The keys of an entry registered from outside the engine, by name (entrena/config/ParamBlock.h).
    ParamBlock params;
    /// A key of the block: its value, else the entry's default. Throws std::logic_error for a key no
    /// entry declares.
    OptionValue param(const std::string& key) const;
};

/// `scheduler`: PyTorch's scheduler names, parameter names and semantics.
struct SchedulerSpec {
    SchedulerKind kind = SchedulerKind::ReduceOnPlateau; ///< `name` in the file
    int64_t warmupSteps = 0;                             ///< linear warm-up over the first N optimizer steps
    // step / multistep / exponential
    int64_t stepSize = 10;
    std::vector<int64_t> milestones;
    double gamma = 0.1;
    // cosine
    int64_t tMax = 0; ///< 0: the run's number of epochs
    double etaMin = 0.0;
    // one_cycle (stepped per optimizer step)
    double maxLr = 0.0;     ///< 0: optimizer.lr
    int64_t totalSteps = 0; ///< 0: the run's optimizer steps
    double pctStart = 0.3;
    AnnealStrategy annealStrategy = AnnealStrategy::Cos;
    double divFactor = 25.0;
    double finalDivFactor = 1e4;
    bool threePhase = false;
    bool cycleMomentum = true;
    double baseMomentum = 0.85;
    double maxMomentum = 0.95;
    // reduce_on_plateau
    Metric metric = Metric::ValLoss;
    PlateauMode mode = PlateauMode::Min;
    double factor = 0.5;
    int64_t patience = 3;
    double threshold = 1e-4;
    ThresholdMode thresholdMode = ThresholdMode::Rel;
    int64_t cooldown = 0;
    double minLr = 0.0;
    double eps = 1e-8;
    /// The keys of an entry registered from outside the engine, by name (entrena/config/ParamBlock.h).
    ParamBlock params;
    /// A key of the block: its value, else the entry's default. Throws std::logic_error for a key no
    /// entry declares.
    OptionValue param(const std::string& key) const;
};

/// `train`: the loop.
struct TrainSpec {
    int epochs = 5;
    int64_t maxSteps = 0;  ///< stop after N optimizer steps (0: no limit)
    double gradClip = 0.0; ///< clip the gradient norm to this (0: off)
    int accumulate = 1;    ///< micro-batches per optimizer step
    Precision precision = Precision::Fp32;
    int64_t logEvery = 50;
    int checkpointEvery = 1; ///< epochs between checkpoints (0: only the last)
    int keepCheckpoints = 1; ///< checkpoints kept besides the best: the latest N (0: every one)
    double labelSmoothing = 0.0;
    int64_t earlyStopPatience = 0;            ///< epochs without improvement before stopping (0: off)
    Metric earlyStopMetric = Metric::ValLoss; ///< val_loss | val_accuracy
    double earlyStopMinDelta = 0.0;
    // The divergence guard: on a non-finite loss, or one above spike × the median of the last 50
    // steps, go back to the last snapshot (taken every snapshotEvery good steps), multiply the
    // learning rate by rollbackLrFactor and go on; after maxRollbacks, end the run `diverged`.
    bool divergenceGuard = true;
    double divergenceSpike = 0.0; ///< 0: only non-finite losses count
    int64_t snapshotEvery = 100;
    double rollbackLrFactor = 0.5;
    int maxRollbacks = 3;
    // OOM recovery: a step that runs out of device memory is retried with the micro-batch halved
    // and accumulation doubled (the same samples, the same effective batch and schedule). A
    // budget > 0 counts a step whose measured peak tensor memory goes over it as out of memory,
    // on any device: the way to cap a run below what the device has, and to test this on a CPU.
    bool oomRecovery = true;
    double memoryBudgetMb = 0.0;
};

/// `devices`: where the work runs.
struct DeviceSpec {
    DeviceType type = DeviceType::Cpu;
    std::vector<int64_t> ids;
    int threads = 0; ///< CPU threads (0: the number of physical cores, shared among the local ranks)
    // Data-parallel runs (several ranks):
    double bucketMb = 25; ///< gradients are all-reduced in buckets of this size, during backward
    double timeoutS = 60; ///< a rank that fails or stalls stops the others within this time
};

/// The whole run configuration. Every field has a default; unknown keys and out-of-range
/// values are errors naming the key.
struct RunConfig {
    std::string name = "run";
    uint64_t seed = 1;
    DataSpec data;
    ModelSpec model;
    OptimizerSpec optimizer;
    SchedulerSpec scheduler;
    TrainSpec train;
    DeviceSpec devices;

    /// Parses JSON text, applies `key.path=value` overrides, validates. Throws ConfigError.
    static RunConfig fromJson(const std::string& text, const std::vector<std::string>& overrides = {});
    /// Reads a file, then as fromJson. Throws ConfigError (also for a missing file).
    static RunConfig fromFile(const std::string& path, const std::vector<std::string>& overrides = {});
    /// The configuration as JSON, with only the keys that apply (indent < 0: one line).
    std::string toJson(int indent = -1) const;
    /// Throws ConfigError naming the first bad key.
    void validate() const;
};

} // namespace entrena
