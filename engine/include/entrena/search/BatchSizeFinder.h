#pragma once
// The batch-size finder: the largest batch a training step fits in memory, found as Lightning's
// `scale_batch_size(mode="binsearch")` does — double from a start until a trial fails, then
// binary search between the last size that fitted and the first that did not — each trial a few
// real training steps on a fresh model. Unlike Lightning's, it runs for a multi-device run: it
// tries every device the configuration names and reports the smallest of their sizes.

#include "entrena/config/Config.h"
#include "entrena/train/Events.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace entrena {

struct BatchSizeOptions {
    int64_t start = 16; ///< the first size tried
    int64_t max = 0;    ///< the largest size tried (0: the training set's size)
    int trialSteps = 3; ///< optimizer steps per trial (the first allocates the optimizer's state)
    /// Called as each trial starts (device, batch size), for progress while a large trial runs.
    std::function<void(const std::string&, int64_t)> trying;
};

struct BatchTrial {
    std::string device;
    int64_t batchSize = 0;
    bool fits = false;
    int64_t peakBytes = 0; ///< the trial's peak tensor memory on the device
    std::string why;       ///< why it did not fit
};

struct BatchSizeResult {
    int64_t batchSize = 0;    ///< the largest size that fits on every device
    int64_t peakBytes = 0;    ///< the memory a step of that size used (on the device that set it)
    int64_t budgetBytes = 0;  ///< what "fits" was measured against (0: the device's own memory)
    std::string budgetSource; ///< "train.memory_budget_mb", "available memory" or "device memory"
    bool hitMax = false;      ///< every size up to `max` fitted
    int64_t trainSamples = 0; ///< the training set's size (a batch of it is one step an epoch)
    std::vector<BatchTrial> trials;
    std::vector<std::pair<std::string, int64_t>> perDevice;
};

/// The batch to train with, given the largest that fits (`fits`) and the training set's size: the
/// largest power of two that fits, at most 4,096 and leaving at least 50 optimizer steps an epoch
/// (a batch of the whole set is one step an epoch, and far larger batches need a retuned learning
/// rate). Never above `fits`, at least 1.
int64_t suggestedBatchSize(int64_t fits, int64_t trainSamples);

/// Runs the search for `config`. The budget is train.memory_budget_mb when set; otherwise, on a
/// GPU, the device's memory (a trial fails when LibTorch runs out of it), and on the CPU, the
/// memory the system reports available. `progress` is called after each trial. Throws
/// std::runtime_error when not even one sample fits, ConfigError for a bad configuration.
BatchSizeResult findBatchSize(const RunConfig& config, const BatchSizeOptions& options, const StopToken& stop,
                              const std::function<void(const BatchTrial&)>& progress = {});

} // namespace entrena
