#pragma once

#include "data/Samples.h"

#include <ATen/ThreadLocalState.h>
#include <condition_variable>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <torch/torch.h>

namespace entrena {

/// Image augmentation applied to whole training batches.
struct Augment {
    int crop = 0;              ///< zero-pad by this many pixels, then crop back at a random offset per sample
    bool flip = false;         ///< flip each sample left-right with probability 1/2
    bool channelsLast = false; ///< hand batches over in NHWC memory order (not augmentation, but done here too)
    bool any() const { return crop > 0 || flip; }
};

/// This rank's part of every epoch (data-parallel runs): the DistributedSampler rule. The shuffled
/// order, the same on every rank, is padded by repeating its start to a multiple of `world`; rank r
/// takes positions r, r + world, r + 2 world, … So the ranks' parts are disjoint (but for the
/// padding), equal in size, and together the whole epoch.
struct Shard {
    int rank = 0;
    int world = 1;
};

/// The sample indices of `shard`'s part of an epoch order over `n` samples.
torch::Tensor shardOrder(const torch::Tensor& order, Shard shard);

struct Batch {
    torch::Tensor x;
    torch::Tensor y;
};

/// Batches one epoch of samples by index, in an order fixed by (seed, epoch), so that the same
/// seed gives the same batches on any run. With `workers` > 0 the batches are gathered on a
/// background thread while the previous one trains; images decoded on the fly (Samples on disk)
/// are decoded on `workers` threads, each making whole batches, handed over in order.
/// Augmentation works on the stored pixels; the batch is normalised last (Samples::input).
class BatchLoader {
public:
    /// `firstBatch` skips the epoch's first batches (resuming inside an epoch).
    BatchLoader(Samples x, torch::Tensor y, int64_t batchSize, uint64_t seed, int64_t epoch, int workers, torch::Device device,
                int64_t firstBatch = 0, Augment augment = {}, Shard shard = {}, torch::Tensor sampleWeights = {});

    /// The shuffled order of epoch `epoch` over `n` samples, as every rank computes it. With
    /// `sampleWeights` (data.balance sampler) the epoch is n draws with replacement, each sample
    /// drawn in proportion to its weight: the WeightedRandomSampler rule.
    static torch::Tensor epochOrder(int64_t n, uint64_t seed, int64_t epoch, const torch::Tensor& sampleWeights = {});
    ~BatchLoader();
    BatchLoader(const BatchLoader&) = delete;
    BatchLoader& operator=(const BatchLoader&) = delete;

    int64_t batches() const { return batches_; }
    /// The next batch, or nothing at the end of the epoch.
    std::optional<Batch> next();

    /// Seconds the caller spent inside next() so far: waiting for a prefetched batch, or
    /// gathering it when there is no worker.
    double waitSeconds() const { return waitSeconds_; }

private:
    Batch gather(int64_t index) const;
    void produce(int64_t first, int64_t stride);

    Samples x_;
    torch::Tensor y_, order_;
    Augment augment_;
    Shard shard_;
    uint64_t seed_;
    int64_t epoch_;
    int64_t batchSize_;
    int64_t batches_;
    int64_t nextIndex_ = 0;
    torch::Device device_;
    double waitSeconds_ = 0;

    // Prefetch: batches made ahead by background threads (each takes every stride-th batch), which
    // run with the creating thread's LibTorch state (its memory meter, when one is installed).
    // A thread waits while its next batch is more than depth_ ahead of the one handed over.
    at::ThreadLocalState state_;
    int64_t depth_ = 0;
    std::vector<std::thread> workers_;
    std::mutex mutex_;
    std::condition_variable changed_;
    std::map<int64_t, Batch> ready_;
    bool quit_ = false;
    std::exception_ptr error_;
};

} // namespace entrena
