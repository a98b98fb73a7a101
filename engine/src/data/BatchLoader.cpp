#include "data/BatchLoader.h"

#include <chrono>
#include <cstring>

namespace entrena {

BatchLoader::BatchLoader(Samples x, torch::Tensor y, int64_t batchSize, uint64_t seed, int64_t epoch, int workers,
                         torch::Device device, int64_t firstBatch, Augment augment, Shard shard, torch::Tensor sampleWeights)
    : x_(std::move(x))
    , y_(std::move(y))
    , augment_(augment)
    , shard_(shard)
    , seed_(seed)
    , epoch_(epoch)
    , batchSize_(batchSize)
    , device_(device)
{
    order_ = shardOrder(epochOrder(x_.size(0), seed, epoch, sampleWeights), shard);
    const int64_t n = order_.size(0);
    batches_ = (n + batchSize_ - 1) / batchSize_;
    y_ = y_.contiguous();
    nextIndex_ = std::min(firstBatch, batches_);
    if (workers > 0) {
        // Gathering float rows in memory is a memcpy: one thread keeps up. Images (decoded, or
        // normalised from their uint8 pixels) take all the workers.
        const int threads = x_.isImages() ? workers : 1;
        depth_ = std::max(2, workers);
        const int64_t first = nextIndex_;
        for (int t = 0; t < threads; ++t)
            workers_.emplace_back([this, first, t, threads] { produce(first + t, threads); });
    }
}

torch::Tensor BatchLoader::epochOrder(int64_t n, uint64_t seed, int64_t epoch, const torch::Tensor& sampleWeights)
{
    auto gen = at::detail::createCPUGenerator(seed * 1000003ULL + uint64_t(epoch) + 1);
    if (sampleWeights.defined() && n > 0)
        return torch::multinomial(sampleWeights.to(torch::kFloat64), n, /*replacement=*/true, gen).contiguous();
    return torch::randperm(n, gen, torch::kInt64);
}

torch::Tensor shardOrder(const torch::Tensor& order, Shard shard)
{
    if (shard.world <= 1)
        return order;
    const int64_t n = order.size(0);
    const int64_t total = (n + shard.world - 1) / shard.world * shard.world;
    auto padded = order;
    while (padded.size(0) < total)
        padded = torch::cat({padded, order.slice(0, 0, std::min(n, total - padded.size(0)))});
    return padded.slice(0, shard.rank, total, shard.world).contiguous();
}

BatchLoader::~BatchLoader()
{
    {
        std::lock_guard<std::mutex> lock(mutex_);
        quit_ = true;
    }
    changed_.notify_all();
    for (auto& w : workers_)
        w.join();
}

Batch BatchLoader::gather(int64_t index) const
{
    const int64_t begin = index * batchSize_;
    const int64_t end = std::min(begin + batchSize_, order_.size(0));
    const int64_t* idx = order_.data_ptr<int64_t>() + begin;
    Batch b{augment_.any() ? x_.gather(idx, end - begin) : x_.gatherInput(idx, end - begin),
            Samples(y_).gather(idx, end - begin)};
    if (augment_.any()) {
        // Each batch has its own generator, so augmentation is the same whichever thread gathers
        // it and however a run was interrupted and resumed.
        // Ranks draw apart (batch `index` of rank r is global batch index * world + r).
        const uint64_t global = uint64_t(index) * uint64_t(shard_.world) + uint64_t(shard_.rank);
        auto gen = at::detail::createCPUGenerator((seed_ * 1000003ULL + uint64_t(epoch_)) * 1000033ULL + global);
        const int64_t n = b.x.size(0), h = b.x.size(2), w = b.x.size(3);
        if (augment_.crop > 0) {
            const int64_t p = augment_.crop;
            const auto padded = torch::constant_pad_nd(b.x, {p, p, p, p}, 0.0);
            const auto dy = torch::randint(0, 2 * p + 1, {n, 1, 1}, gen, torch::kInt64);
            const auto dx = torch::randint(0, 2 * p + 1, {n, 1, 1}, gen, torch::kInt64);
            const auto rows = torch::arange(h, torch::kInt64).view({1, h, 1}) + dy;
            const auto cols = torch::arange(w, torch::kInt64).view({1, 1, w}) + dx;
            const auto batch = torch::arange(n, torch::kInt64).view({n, 1, 1});
            using torch::indexing::Slice;
            // Advanced indices around a slice: the result is [N, H, W, C].
            b.x = padded.index({batch, Slice(), rows, cols}).permute({0, 3, 1, 2}).contiguous();
        }
        if (augment_.flip) {
            const auto flip = torch::rand({n, 1, 1, 1}, gen) < 0.5;
            b.x = torch::where(flip, b.x.flip({3}), b.x);
        }
    }
    b.x = x_.input(b.x); // uint8 pixels (augmented) → the normalised float the model takes; floats pass
    if (augment_.channelsLast)
        b.x = b.x.contiguous(torch::MemoryFormat::ChannelsLast);
    if (device_.is_cuda()) {
        b.x = b.x.pin_memory().to(device_, /*non_blocking=*/true);
        b.y = b.y.pin_memory().to(device_, /*non_blocking=*/true);
    }
    return b;
}

void BatchLoader::produce(int64_t first, int64_t stride)
{
    at::ThreadLocalStateGuard state(state_);
    try {
        for (int64_t i = first; i < batches_; i += stride) {
            {
                std::unique_lock<std::mutex> lock(mutex_);
                changed_.wait(lock, [&] { return quit_ || i < nextIndex_ + depth_; });
                if (quit_)
                    return;
            }
            Batch b = gather(i);
            std::lock_guard<std::mutex> lock(mutex_);
            ready_.emplace(i, std::move(b));
            changed_.notify_all();
        }
    } catch (...) {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!error_)
            error_ = std::current_exception();
        changed_.notify_all();
    }
}

std::optional<Batch> BatchLoader::next()
{
    if (nextIndex_ >= batches_)
        return std::nullopt;
    const auto t0 = std::chrono::steady_clock::now();
    if (workers_.empty()) {
        Batch b = gather(nextIndex_++);
        waitSeconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        return b;
    }

    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [this] { return ready_.count(nextIndex_) || error_; });
    waitSeconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const auto it = ready_.find(nextIndex_);
    if (it == ready_.end())
        std::rethrow_exception(error_);
    Batch b = std::move(it->second);
    ready_.erase(it);
    ++nextIndex_;
    changed_.notify_all();
    return b;
}

} // namespace entrena
