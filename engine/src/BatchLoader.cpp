#include "BatchLoader.h"

#include <chrono>

namespace entrena {

BatchLoader::BatchLoader(torch::Tensor x, torch::Tensor y, int64_t batchSize, uint64_t seed, int64_t epoch,
                         int workers, torch::Device device)
    : x_(std::move(x))
    , y_(std::move(y))
    , batchSize_(batchSize)
    , device_(device)
{
    const int64_t n = x_.size(0);
    batches_ = (n + batchSize_ - 1) / batchSize_;
    auto gen = at::detail::createCPUGenerator(seed * 1000003ULL + uint64_t(epoch) + 1);
    order_ = torch::randperm(n, gen, torch::kInt64);
    if (workers > 0) {
        depth_ = size_t(std::max(2, workers));
        worker_ = std::thread([this] { produce(); });
    }
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

Batch BatchLoader::gather(int64_t index) const
{
    const int64_t begin = index * batchSize_;
    const int64_t end = std::min(begin + batchSize_, x_.size(0));
    const auto idx = order_.slice(0, begin, end);
    Batch b{x_.index_select(0, idx), y_.index_select(0, idx)};
    if (device_.is_cuda()) {
        b.x = b.x.pin_memory().to(device_, /*non_blocking=*/true);
        b.y = b.y.pin_memory().to(device_, /*non_blocking=*/true);
    }
    return b;
}

void BatchLoader::produce()
{
    try {
        // Gathering is memory-bound; one intra-op thread keeps it from competing with training.
        at::set_num_threads(1);
        for (int64_t i = 0; i < batches_; ++i) {
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
    if (!worker_.joinable())
        return gather(nextIndex_++);

    const auto t0 = std::chrono::steady_clock::now();
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
