// The keys every entry of a section shares, and those of the sections without entries (train,
// devices): read, written and listed through the same descriptions as the registries' keys.
#include "config/Keys.h"
#include "entrena/config/Registry.h"

namespace entrena {

using namespace keys;

const std::vector<OptionKey<RunConfig>>& topLevelKeys()
{
    static const std::vector<OptionKey<RunConfig>> k = {
        text<&RunConfig::name>("name", "the run's name in the store (need not be unique)",
                               shown(ENTRENA_LABEL("Registry", "Run name:"))),
        integer<&RunConfig::seed>("seed", 0, kInt64Max, "seeds weights, the validation split and every epoch's shuffle"),
    };
    return k;
}

const std::vector<OptionKey<DataSpec>>& dataKeys()
{
    using D = DataSpec;
    static const std::vector<OptionKey<DataSpec>> k = {
        choice<&D::task>("task", "what is learned from the labels: one of the tasks (their table)"),
        text<&D::path>("path", "the data set's folder (or file, for csv)"),
        integer<&D::augmentCrop>("augment_crop", 0, 64, "images: zero-pad by N pixels and crop back at a random offset (0: off)"),
        boolean<&D::augmentFlip>("augment_flip", "images: flip half the samples left-right"),
        number<&D::valFraction>("val_fraction", 0.0, 0.9, "share of the training data held out for validation"),
        integer<&D::folds>("folds", 0, 1000,
                           "k-fold cross-validation: deal the training data into N folds and hold out data.fold "
                           "(0: off, data.val_fraction holds out; 1 is refused)"),
        integer<&D::fold>("fold", 0, 999, "cross-validation: the fold held out for validation, 0 … data.folds − 1"),
        boolean<&D::stratify>("stratify", "cross-validation: every fold keeps each class's share of the samples"),
        choice<&D::balance>("balance",
                            "unbalanced classes: none; weights (the training loss weights each class by the inverse "
                            "of its frequency, as cross_entropy(weight=…)); sampler (each epoch draws every class "
                            "equally often, with replacement)",
                            shown(ENTRENA_LABEL("Registry", "Balance classes:"))),
        integer<&D::batchSize>("batch_size", 1, 1 << 20, "samples per micro-batch"),
        integer<&D::workers>("workers", 0, 64, "background threads gathering batches (0: on the training thread)"),
        integer<&D::trainLimit>("train_limit", 0, kBig, "use only the first N training samples (0: all)"),
        integer<&D::testLimit>("test_limit", 0, kBig, "use only the first N test samples (0: all)"),
    };
    return k;
}

const std::vector<OptionKey<ModelSpec>>& modelKeys()
{
    static const std::vector<OptionKey<ModelSpec>> k = {
        number<&ModelSpec::dropout>("dropout", 0.0, 0.95, "dropout after each hidden layer"),
    };
    return k;
}

const std::vector<OptionKey<OptimizerSpec>>& optimizerKeys()
{
    using O = OptimizerSpec;
    static const std::vector<OptionKey<OptimizerSpec>> k = {
        number<&O::lr>("lr", 0.0, kHuge, "the base learning rate, > 0"),
        number<&O::weightDecay>("weight_decay", 0.0, kHuge, "as PyTorch applies it (decoupled for adamw)"),
    };
    return k;
}

const std::vector<OptionKey<SchedulerSpec>>& schedulerKeys()
{
    static const std::vector<OptionKey<SchedulerSpec>> k = {
        integer<&SchedulerSpec::warmupSteps>("warmup_steps", 0, kBig,
                                             "linear warm-up: optimizer step s (from 0) uses lr × (s + 1) / warmup_steps"),
    };
    return k;
}

const std::vector<OptionKey<TrainSpec>>& trainKeys()
{
    using T = TrainSpec;
    static const std::vector<OptionKey<TrainSpec>> k = {
        integer<&T::epochs>("epochs", 1, 1'000'000, "passes over the training data"),
        integer<&T::maxSteps>("max_steps", 0, kBig, "stop after N optimizer steps (0: no limit)"),
        number<&T::gradClip>("grad_clip", 0.0, kHuge, "clip the gradient norm to this value (0: off)"),
        integer<&T::accumulate>("accumulate", 1, 1 << 16, "micro-batches per optimizer step"),
        choice<&T::precision>("precision", "what a step computes in: one of the precisions (their table)"),
        integer<&T::logEvery>("log_every", 1, kBig, "optimizer steps between step events"),
        integer<&T::checkpointEvery>("checkpoint_every", 0, 1'000'000, "epochs between checkpoints (0: only the last)"),
        integer<&T::keepCheckpoints>("keep_checkpoints", 0, 1'000'000,
                                     "checkpoints kept besides the best: the latest N (0: every one)"),
        number<&T::labelSmoothing>("label_smoothing", 0.0, 0.5, "as CrossEntropyLoss(label_smoothing=…)"),
        integer<&T::earlyStopPatience>("early_stop_patience", 0, 1'000'000, "stop after N epochs without improvement (0: off)"),
        choice<&T::earlyStopMetric>("early_stop_metric", "the figure early stopping watches", {}, {"val_loss", "val_accuracy"}),
        number<&T::earlyStopMinDelta>("early_stop_min_delta", 0.0, kHuge, "the smallest change that counts as an improvement"),
        boolean<&T::divergenceGuard>("divergence_guard", "roll back to the last good state when the loss goes bad"),
        number<&T::divergenceSpike>("divergence_spike", 0.0, kHuge,
                                    "also roll back when a loss exceeds this × the recent median (0: off)"),
        integer<&T::snapshotEvery>("snapshot_every", 1, kBig, "steps between in-memory snapshots"),
        number<&T::rollbackLrFactor>("rollback_lr_factor", 1e-6, 1.0, "the learning rate's multiplier after a rollback"),
        integer<&T::maxRollbacks>("max_rollbacks", 0, 1000, "rollbacks before the run ends diverged"),
        boolean<&T::oomRecovery>("oom_recovery", "retry a step that runs out of memory with half the micro-batch"),
        number<&T::memoryBudgetMb>("memory_budget_mb", 0.0, kHuge, "a cap on a step's tensor memory in MiB (0: none)"),
    };
    return k;
}

const std::vector<OptionKey<DeviceSpec>>& deviceKeys()
{
    using V = DeviceSpec;
    static const std::vector<OptionKey<DeviceSpec>> k = {
        choice<&V::type>("type", "cpu or cuda"),
        integers<&V::ids>("ids", 0, 1024, "the CUDA devices to use (several: one data-parallel rank each)"),
        integer<&V::threads>("threads", 0, 1024, "CPU threads (0: the physical cores, shared among local ranks)"),
        number<&V::bucketMb>("bucket_mb", 0.01, 1024.0, "data-parallel: gradient bucket size in MiB"),
        number<&V::timeoutS>("timeout_s", 1.0, 86400.0, "data-parallel: a failing or stalled rank stops the others within this"),
    };
    return k;
}

} // namespace entrena
