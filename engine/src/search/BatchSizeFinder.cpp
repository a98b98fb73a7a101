#include "entrena/search/BatchSizeFinder.h"

#include "data/BatchLoader.h"
#include "data/Dataset.h"
#include "search/LrRangeTest.h"
#include "system/DeviceChoice.h"
#include "system/MemoryMeter.h"
#include "model/Model.h"
#include "model/Models.h"
#include "optim/Optimizers.h"
#include "train/Precision.h"
#include "train/Snapshot.h"
#include "train/TrainStep.h"
#include "entrena/system/Runtime.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <torch/torch.h>

namespace entrena {
namespace {

/// MemAvailable from /proc/meminfo, in bytes (0 if unreadable).
int64_t availableMemory()
{
    std::ifstream in("/proc/meminfo");
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("MemAvailable:", 0) == 0) {
            std::istringstream fields(line.substr(13));
            int64_t kib = 0;
            fields >> kib;
            return kib * 1024;
        }
    }
    return 0;
}

std::string deviceName(const torch::Device& device)
{
    return device.is_cuda() ? "cuda:" + std::to_string(device.index()) : "cpu";
}

/// A few real training steps of a fresh model at batch size `b`, metered.
BatchTrial trial(const RunConfig& c, const DataSplits& data, const torch::Device& device, int64_t b,
                 const BatchSizeOptions& options, std::optional<int64_t> budget)
{
    BatchTrial t;
    t.device = deviceName(device);
    t.batchSize = b;
    auto meter = std::make_shared<MemoryMeter>(device.type());
    try {
        MemoryMeterScope scope(meter);
        torch::manual_seed(c.seed);
        Model model = Model::buildOn(device, c.model, data.channels(), data.height(), data.width(), data.classes);
        const bool channelsLast = prefersChannelsLast(c.model);
        auto optimizer = makeOptimizer(c.optimizer, model.parameters());
        model.train(true);
        const auto loss = makeLossFn(model, device, c.train, c.data.task);
        const Augment augment{c.data.augmentCrop, c.data.augmentFlip, channelsLast};
        Snapshot guardCopy; // the divergence guard keeps one on the device during training
        int64_t epoch = 1;
        auto loader = std::make_unique<BatchLoader>(data.trainX, data.trainY, b, c.seed, epoch, 0, device, 0, augment);
        for (int step = 0; step < options.trialSteps && t.why.empty(); ++step) {
            auto batch = loader->next();
            if (!batch) {
                loader = std::make_unique<BatchLoader>(data.trainX, data.trainY, b, c.seed, ++epoch, 0, device, 0, augment);
                batch = loader->next();
            }
            // As TrainStep does: gradients dropped, not zeroed, so the peak is training's.
            dropGradients(*optimizer);
            loss(batch->x, batch->y).backward();
            optimizer->step();
            if (step == 0 && c.train.divergenceGuard)
                guardCopy.take(model, *optimizer);
            if (budget && meter->peak() > *budget)
                t.why = "peak " + mebibytes(meter->peak()) + " over the budget of " + mebibytes(*budget);
        }
        t.peakBytes = meter->peak();
        t.fits = t.why.empty();
    } catch (const c10::Error& e) {
        if (!isOutOfMemory(e))
            throw;
        t.peakBytes = meter->peak();
        t.why = "out of device memory";
    }
    releaseCachedMemory(device);
    return t;
}

} // namespace

namespace {

BatchSizeResult search(const RunConfig& c, const BatchSizeOptions& options, const StopToken& stop,
                       const std::function<void(const BatchTrial&)>& progress)
{
    if (options.start < 1 || options.max < 0 || options.trialSteps < 1)
        throw std::invalid_argument("the batch-size finder needs start >= 1, max >= 0 and at least one step per trial");
    applyThreadCount(c.devices.threads);
    const DataSplits data = loadData(c.data, c.seed);

    std::vector<torch::Device> devices;
    if (c.devices.type == DeviceType::Cuda && c.devices.ids.size() > 1) {
        for (const int64_t id : c.devices.ids) {
            DeviceSpec one = c.devices;
            one.ids = {id};
            devices.push_back(chooseDevice(one));
        }
    } else {
        devices.push_back(chooseDevice(c.devices));
    }

    BatchSizeResult result;
    std::optional<int64_t> budget = memoryBudgetBytes(c.train.memoryBudgetMb);
    result.budgetSource = budget ? "train.memory_budget_mb" : devices.front().is_cuda() ? "device memory" : "available memory";
    if (!budget && !devices.front().is_cuda())
        budget = availableMemory();
    result.budgetBytes = budget.value_or(0);

    const int64_t n = data.trainX.size(0);
    result.trainSamples = n;
    const int64_t top = options.max > 0 ? std::min(options.max, n) : n;
    for (const torch::Device& device : devices) {
        std::map<int64_t, int64_t> peaks;
        const auto fits = [&](int64_t b) {
            if (stop.stopRequested())
                throw std::runtime_error("the batch-size search was stopped");
            if (options.trying)
                options.trying(deviceName(device), b);
            BatchTrial t = trial(c, data, device, b, options, budget);
            if (progress)
                progress(t);
            peaks[b] = t.peakBytes;
            result.trials.push_back(t);
            return t.fits;
        };
        int64_t low = 0, high = 0; // low fitted, high did not
        const int64_t first = std::clamp<int64_t>(options.start, 1, top);
        if (fits(first)) {
            low = first;
            while (low < top) {
                const int64_t next = std::min(low * 2, top);
                if (!fits(next)) {
                    high = next;
                    break;
                }
                low = next;
            }
        } else {
            high = first;
            while (high > 1 && low == 0) {
                const int64_t next = high / 2;
                if (fits(next))
                    low = next;
                else
                    high = next;
            }
            if (low == 0)
                throw std::runtime_error("not even one sample fits on " + deviceName(device) + " (" + result.trials.back().why +
                                         "): use a smaller model or train.precision bf16, or raise train.memory_budget_mb");
        }
        while (high > 0 && high - low > 1) {
            const int64_t mid = low + (high - low) / 2;
            (fits(mid) ? low : high) = mid;
        }
        if (high == 0)
            result.hitMax = true;
        result.perDevice.emplace_back(deviceName(device), low);
        if (result.batchSize == 0 || low < result.batchSize) {
            result.batchSize = low;
            result.peakBytes = peaks[low];
        }
    }
    return result;
}

} // namespace

int64_t suggestedBatchSize(int64_t fits, int64_t trainSamples)
{
    constexpr int64_t kLargest = 4096, kStepsPerEpoch = 50;
    int64_t cap = std::min(fits, kLargest);
    if (trainSamples > 0)
        cap = std::min(cap, std::max<int64_t>(1, trainSamples / kStepsPerEpoch));
    int64_t size = 1;
    while (size * 2 <= cap)
        size *= 2;
    return std::max<int64_t>(1, std::min(size, fits));
}

BatchSizeResult findBatchSize(const RunConfig& config, const BatchSizeOptions& options, const StopToken& stop,
                              const std::function<void(const BatchTrial&)>& progress)
{
    try {
        return search(withEffectivePrecision(config), options, stop, progress); // the steps training will take
    } catch (const c10::Error& e) {
        throw std::runtime_error(e.what_without_backtrace()); // the message, never LibTorch's backtrace
    }
}

} // namespace entrena
