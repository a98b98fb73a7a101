#include "data/BatchLoader.h"

#include <chrono>
#include <cstring>

namespace entrena {

BatchLoader::BatchLoader(torch::Tensor x, torch::Tensor y, int64_t batchSize, uint64_t seed, int64_t epoch,
                         int workers, torch::Device device, int64_t firstBatch, Augment augment, Shard shard)
    : x_(std::move(x))
    , y_(std::move(y))
    , augment_(augment)
    , shard_(shard)
    , seed_(seed)
    , epoch_(epoch)
    , batchSize_(batchSize)
    , device_(device)
{
    order_ = shardOrder(epochOrder(x_.size(0), seed, epoch), shard);
    const int64_t n = order_.size(0);
    batches_ = (n + batchSize_ - 1) / batchSize_;
    x_ = x_.contiguous();
    y_ = y_.contiguous();
    nextIndex_ = std::min(firstBatch, batches_);
    if (workers > 0) {
        depth_ = size_t(std::max(2, workers));
        worker_ = std::thread([this] { produce(); });
    }
}

torch::Tensor BatchLoader::epochOrder(int64_t n, uint64_t seed, int64_t epoch)
{
    auto gen = at::detail::createCPUGenerator(seed * 1000003ULL + uint64_t(epoch) + 1);
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
    if (worker_.joinable()) {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            quit_ = true;
        }
        changed_.notify_all();
        worker_.join();
    }
}

namespace {

// Rows of a contiguous CPU tensor copied one by one on this thread. index_select would fan out
// over the OpenMP pool and compete with the training thread's kernels for the same cores.
torch::Tensor gatherRows(const torch::Tensor& src, const int64_t* idx, int64_t n)
{
    auto sizes = src.sizes().vec();
    sizes[0] = n;
    auto out = torch::empty(sizes, src.options());
    const size_t rowBytes = size_t(src.numel() / std::max<int64_t>(1, src.size(0))) * src.element_size();
    const auto* from = static_cast<const char*>(src.data_ptr());
    auto* to = static_cast<char*>(out.data_ptr());
    for (int64_t i = 0; i < n; ++i)
        std::memcpy(to + size_t(i) * rowBytes, from + size_t(idx[i]) * rowBytes, rowBytes);
    return out;
}

} // namespace

Batch BatchLoader::gather(int64_t index) const
{
    const int64_t begin = index * batchSize_;
    const int64_t end = std::min(begin + batchSize_, order_.size(0));
    const int64_t* idx = order_.data_ptr<int64_t>() + begin;
    Batch b{gatherRows(x_, idx, end - begin), gatherRows(y_, idx, end - begin)};
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
    if (augment_.channelsLast)
        b.x = b.x.contiguous(torch::MemoryFormat::ChannelsLast);
    if (device_.is_cuda()) {
        b.x = b.x.pin_memory().to(device_, /*non_blocking=*/true);
        b.y = b.y.pin_memory().to(device_, /*non_blocking=*/true);
    }
    return b;
}

void BatchLoader::produce()
{
    at::ThreadLocalStateGuard state(state_);
    try {
        for (int64_t i = nextIndex_; i < batches_; ++i) {
            Batch b = gather(i);
            std::unique_lock<std::mutex> lock(mutex_);
            changed_.wait(lock, [this] { return quit_ || ready_.size() < depth_; });
            if (quit_)
                return;
            ready_.push_back(std::move(b));
            ++produced_;
            changed_.notify_all();
        }
    } catch (...) {
        std::lock_guard<std::mutex> lock(mutex_);
        error_ = std::current_exception();
        changed_.notify_all();
    }
}

std::optional<Batch> BatchLoader::next()
{
    if (nextIndex_ >= batches_)
        return std::nullopt;
    const auto t0 = std::chrono::steady_clock::now();
    if (!worker_.joinable()) {
        Batch b = gather(nextIndex_++);
        waitSeconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        return b;
    }

    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [this] { return !ready_.empty() || error_; });
    waitSeconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (ready_.empty() && error_)
        std::rethrow_exception(error_);
    Batch b = std::move(ready_.front());
    ready_.pop_front();
    ++nextIndex_;
    changed_.notify_all();
    return b;
}

} // namespace entrena
