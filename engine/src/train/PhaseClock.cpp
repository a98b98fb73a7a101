#include "train/PhaseClock.h"

#ifdef ENTRENA_WITH_CUDA
#include <ATen/cuda/CUDAContext.h>
#include <ATen/cuda/CUDAEvent.h>
#endif

namespace entrena {

#ifdef ENTRENA_WITH_CUDA
struct PhaseClock::Events {
    c10::DeviceIndex device = 0;
    std::vector<std::unique_ptr<at::cuda::CUDAEvent>> pool; ///< reused from interval to interval
    std::vector<Part> parts;                                ///< parts[i] ends at pool[i + 1]
    std::size_t used = 0;

    void record()
    {
        if (used == pool.size())
            pool.push_back(std::make_unique<at::cuda::CUDAEvent>(cudaEventDefault)); // with timing
        pool[used++]->record(at::cuda::getCurrentCUDAStream(device));
    }
};
#else
struct PhaseClock::Events {};
#endif

PhaseClock::PhaseClock(const torch::Device& device)
    : cuda_(device.is_cuda())
{
#ifdef ENTRENA_WITH_CUDA
    if (cuda_) {
        events_ = std::make_unique<Events>();
        events_->device = device.index();
    }
#endif
    begin();
}

PhaseClock::~PhaseClock() = default;

void PhaseClock::begin()
{
    host_ = PhaseTimes{};
    last_ = std::chrono::steady_clock::now();
#ifdef ENTRENA_WITH_CUDA
    if (cuda_) {
        events_->used = 0;
        events_->parts.clear();
        events_->record();
    }
#endif
}

void PhaseClock::mark(Part part)
{
#ifdef ENTRENA_WITH_CUDA
    if (cuda_) {
        events_->parts.push_back(part);
        events_->record();
        return;
    }
#endif
    markAt(part, std::chrono::steady_clock::now());
}

void PhaseClock::markAt(Part part, std::chrono::steady_clock::time_point when)
{
#ifdef ENTRENA_WITH_CUDA
    if (cuda_) {
        mark(part);
        return;
    }
#endif
    host_.*part += std::chrono::duration<double>(when - last_).count();
    last_ = when;
}

PhaseTimes PhaseClock::collect()
{
    PhaseTimes out = host_;
#ifdef ENTRENA_WITH_CUDA
    if (cuda_) {
        Events& e = *events_;
        out = PhaseTimes{};
        e.pool[e.used - 1]->synchronize();
        for (std::size_t i = 0; i + 1 < e.used; ++i)
            out.*(e.parts[i]) += double(e.pool[i]->elapsed_time(*e.pool[i + 1])) / 1000.0;
        // The last event starts the next interval.
        std::swap(e.pool[0], e.pool[e.used - 1]);
        e.used = 1;
        e.parts.clear();
        return out;
    }
#endif
    host_ = PhaseTimes{};
    return out;
}

} // namespace entrena
