#pragma once
// The registries: one entry per data set, model architecture, optimizer and learning-rate
// schedule, holding everything about it: its name in files, its keys (with defaults, ranges,
// the form's labels, the documentation's lines), its label, and what builds or computes it.
// The configuration parser, toJson, the trainer, the GUI form, the docs table and
// `entrena-cli config-keys` all read these. Adding a schedule is one entry in
// engine/src/config/SchedulerRegistry.cpp plus its rate function; the rest follows.
//
// Plain C++ (the GUI includes it): LibTorch types are only named, never defined, here.

#include "entrena/config/Config.h"
#include "entrena/config/OptionKey.h"

#include <memory>
#include <vector>

namespace at {
class Tensor;
}
namespace torch::nn {
class Sequential;
}
namespace torch::optim {
class Optimizer;
class OptimizerOptions;
} // namespace torch::optim

namespace entrena {

struct DataSplits; // engine-private: the loaded tensors
struct DataShape;  // entrena/data/DataPreview.h
struct DataPreview;

/// A data set: where samples come from.
struct DatasetEntry {
    DatasetKind kind;
    const char* name;                      ///< in files: "fashion-mnist"
    const char* label;                     ///< in the GUI (English; the GUI translates it): "Fashion-MNIST"
    const char* doc;                       ///< the documentation's line
    bool images;                           ///< samples are images (augmentation applies, convolutional models fit)
    bool needsPath;                        ///< reads files from data.path
    bool pathIsFile;                       ///< data.path names a file (csv) rather than a folder
    bool ownValidation;                    ///< its files may hold a validation split (an image folder's val/)
    const char* defaultPath;               ///< where Debian puts it ("" when it has no place of its own)
    int64_t typicalSamples;                ///< training samples a preview assumes before the files are read
    std::vector<OptionKey<DataSpec>> keys; ///< keys of this data set only (data.test_path, …)
    /// Loads (or generates) the splits; throws std::runtime_error naming the file and problem.
    DataSplits (*load)(const DataSpec& spec, uint64_t seed);
    void (*check)(const DataSpec& spec) = nullptr; ///< rules beyond ranges (throws ConfigError); may be null
    /// The samples' shape and class names without loading them; null: loaded (a table's width
    /// depends on its label column). Throws std::runtime_error as `load` does.
    DataShape (*shape)(const DataSpec& spec) = nullptr;
    bool shapeReadsNoFile = false; ///< `shape` answers from constants (the form asks it on every edit)
    /// A preview (counts, a few pictures per class) without loading every sample; null: from the
    /// loaded samples.
    DataPreview (*preview)(const DataSpec& spec, int perClass, uint64_t seed) = nullptr;
    /// Reads the files into memory once, for trials forked from one process; null: nothing to keep.
    void (*preload)(const DataSpec& spec) = nullptr;
};

/// A model architecture.
struct ModelEntry {
    ModelArch arch;
    const char* name;
    const char* label;     ///< short, where runs are listed: "MLP"
    const char* longLabel; ///< where one is chosen: "MLP (fully connected)"
    const char* doc;
    bool needsImages;                       ///< convolutional: [C, H, W] inputs with some height and width
    std::vector<OptionKey<ModelSpec>> keys; ///< keys that shape this architecture
    void (*defaults)(ModelSpec& spec);      ///< its own defaults (resnet's channels); may be null
    void (*check)(const ModelSpec& spec);   ///< rules beyond ranges (throws ConfigError); may be null
    bool fromFile = false;                  ///< read from model.path (TorchScript), not built
    /// Builds it for inputs [N, channels, height, width] (engine/src/model); null when fromFile.
    torch::nn::Sequential (*make)(const ModelSpec& spec, int64_t channels, int64_t height, int64_t width,
                                  int64_t classes) = nullptr;
    /// Runs faster with channels-last (NHWC) tensors on oneDNN's kernels (measured 1.3–1.5× for
    /// the cnn on 2 cores); the model computes the same function either way.
    bool channelsLast = false;
    ParamBlock blockDefaults = {}; ///< the defaults of its keys kept in ModelSpec::params (blockKey)
};

using OptimizerFactory = std::unique_ptr<torch::optim::Optimizer> (*)(const OptimizerSpec& spec,
                                                                      const std::vector<at::Tensor>& parameters);

/// An optimizer: PyTorch's algorithm of the same name.
struct OptimizerEntry {
    OptimizerKind kind;
    const char* name;
    const char* label;                          ///< the algorithm's own name, the same in every language
    const char* pytorch;                        ///< "torch.optim.SGD"
    std::vector<OptionKey<OptimizerSpec>> keys; ///< keys beyond lr and weight_decay
    void (*defaults)(OptimizerSpec& spec);      ///< PyTorch's defaults where they differ; may be null
    void (*check)(const OptimizerSpec& spec);   ///< rules beyond ranges; may be null
    /// Whether a schedule that cycles momentum has one to cycle with these settings (SGD: only
    /// with momentum > 0; Adam: its beta1).
    bool (*cyclesMomentum)(const OptimizerSpec& spec);
    OptimizerFactory make; ///< defined where LibTorch is (engine/src/optim), as are the two below
    /// Sets a parameter group's options (momentum, betas, weight decay, …) from `spec`, all but the rate.
    void (*apply)(torch::optim::OptimizerOptions& group, const OptimizerSpec& spec);
    /// Sets a group's momentum (SGD, RMSprop) or beta1 (Adam, AdamW), as PyTorch's OneCycleLR does.
    void (*setMomentum)(torch::optim::OptimizerOptions& group, double momentum);
    ParamBlock blockDefaults = {}; ///< the defaults of its keys kept in OptimizerSpec::params (blockKey)
};

/// Where a schedule is: what its rate function reads.
struct ScheduleClock {
    double baseLr = 0;      ///< optimizer.lr
    int64_t step = 0;       ///< optimizer steps taken
    int64_t epochs = 0;     ///< epochs ended
    int totalEpochs = 0;    ///< the run's epochs
    int64_t cycleSteps = 0; ///< the steps a per-step schedule spans (one_cycle's total_steps)
    double plateauLr = 0;   ///< reduce_on_plateau: the rate after its reductions so far
};

/// A learning-rate schedule with PyTorch's semantics.
struct SchedulerEntry {
    SchedulerKind kind;
    const char* name;
    const char* label;
    const char* pytorch; ///< "StepLR"
    const char* doc;
    std::vector<OptionKey<SchedulerSpec>> keys; ///< keys beyond warmup_steps
    void (*check)(const RunConfig& config);     ///< rules beyond ranges (throws ConfigError); may be null
    /// The rate before warm-up, at `clock`.
    double (*rate)(const SchedulerSpec& spec, const ScheduleClock& clock);
    /// The momentum (SGD, RMSprop) or beta1 (Adam) it sets at `clock`, or a negative number to
    /// leave the optimizer's own; null: never sets one.
    double (*momentum)(const SchedulerSpec& spec, const ScheduleClock& clock) = nullptr;
    bool perStep = false;          ///< spans the run's optimizer steps (cycleSteps) rather than its epochs
    bool watchesMetric = false;    ///< reacts to an epoch's metric (reduce_on_plateau)
    ParamBlock blockDefaults = {}; ///< the defaults of its keys kept in SchedulerSpec::params (blockKey)
};

/// The numbers a step computes in, under a precision.
enum class ComputeType { Float32, BFloat16, Float16 };

/// A numeric precision for training (train.precision): what autocast computes in, and what else it
/// needs. Its cases were spread over the configuration's check, the step, the loss scaler, the fused
/// paths' conditions and the matrix-multiply ceiling; they read the entry now
/// (engine/src/train/PrecisionRegistry.cpp).
struct PrecisionEntry {
    Precision kind;
    const char* name;    ///< in files: "bf16"
    const char* label;   ///< the form's choice (English; the GUI translates it): "bf16 (autocast)"
    const char* tip;     ///< the choice's tooltip; may be null
    ComputeType compute; ///< what autocast computes in (Float32: no autocast)
    bool scalesLoss;     ///< dynamic loss scaling, as torch.cuda.amp.GradScaler (fp16's narrow range)
    bool needsCuda;      ///< refused on the CPU (a configuration error naming the entry)
    /// Decided for the machine and model when a run starts (auto), and resumed as it started.
    bool perMachine = false;
    /// Entrena's own fp32 paths (the MLP step, the fused blocks) may run under it.
    bool ownFp32Paths() const { return compute == ComputeType::Float32 && !perMachine; }
};

/// What a run learns from its labels (data.task): the loss it trains and evaluates with, and what its
/// labels are. Defined where LibTorch is (engine/src/train/TaskRegistry.cpp).
struct TaskEntry {
    Task kind;
    const char* name;  ///< in files: "classification"
    const char* label; ///< the form's choice (English; the GUI translates it)
    const char* doc;
    /// The training loss, a batch's mean: `output` the model's float32 output for a batch, `target` its
    /// labels, `classWeights` the per-class weights of data.balance "weights" (undefined: none).
    at::Tensor (*trainLoss)(const at::Tensor& output, const at::Tensor& target, const TrainSpec& train,
                            const at::Tensor& classWeights);
    /// The evaluation loss, summed over a batch (no smoothing, no weights: comparable between runs).
    at::Tensor (*summedLoss)(const at::Tensor& output, const at::Tensor& target);
    /// The labels name classes: accuracy, the confusion matrix, class balance, stratified folds, label
    /// smoothing, and Entrena's own MLP step (which computes softmax cross-entropy by hand) apply.
    bool classes;
};

const std::vector<DatasetEntry>& datasetRegistry();
const std::vector<ModelEntry>& modelRegistry();
const std::vector<OptimizerEntry>& optimizerRegistry();
const std::vector<SchedulerEntry>& schedulerRegistry();
const std::vector<PrecisionEntry>& precisionRegistry();
const std::vector<TaskEntry>& taskRegistry();

/// Add an entry from a file of its own, outside the engine: call before main (a static initializer
/// of that file, `const auto kind = registerScheduler(entry());`), so that every reader sees one
/// list; the file must be linked into the program (nothing references it). Each gets the next free
/// value of its enum, which is returned; its own keys live in the section's parameter block
/// (entrena/config/ParamBlock.h). Throws std::logic_error for a name already taken.
ModelArch registerModel(ModelEntry entry);
OptimizerKind registerOptimizer(OptimizerEntry entry);
SchedulerKind registerScheduler(SchedulerEntry entry);
/// A precision has no keys of its own: its entry's fields say what a step does under it.
Precision registerPrecision(PrecisionEntry entry);

const DatasetEntry& registryEntry(DatasetKind kind);
const ModelEntry& registryEntry(ModelArch arch);
const OptimizerEntry& registryEntry(OptimizerKind kind);
const SchedulerEntry& registryEntry(SchedulerKind kind);
const PrecisionEntry& registryEntry(Precision kind);
const TaskEntry& registryEntry(Task kind);

/// The keys every entry of a section shares, and the sections without entries.
const std::vector<OptionKey<RunConfig>>& topLevelKeys();      ///< name, seed
const std::vector<OptionKey<DataSpec>>& dataKeys();           ///< path, batch_size, …
const std::vector<OptionKey<ModelSpec>>& modelKeys();         ///< dropout
const std::vector<OptionKey<OptimizerSpec>>& optimizerKeys(); ///< lr, weight_decay
const std::vector<OptionKey<SchedulerSpec>>& schedulerKeys(); ///< warmup_steps
const std::vector<OptionKey<TrainSpec>>& trainKeys();
const std::vector<OptionKey<DeviceSpec>>& deviceKeys();

} // namespace entrena

namespace entrena {

/// One configuration key as `entrena-cli config-keys` and the documentation list it.
struct ConfigKeyInfo {
    std::string key;          ///< "scheduler.gamma"
    std::string defaultValue; ///< as JSON ("0.1", "\"cos\"", "[16,32,64]")
    std::string defaultDoc;   ///< the default in words when the value misleads ("" otherwise)
    std::string section;      ///< "scheduler"
    std::string entry;        ///< the entry it belongs to ("step"); "" for a key every entry has
    std::string doc;
};

/// Every key: the sections' own, then each entry's, in registry order. A key several entries
/// share (scheduler.gamma) is listed once per entry.
std::vector<ConfigKeyInfo> configKeyCatalog();

} // namespace entrena
