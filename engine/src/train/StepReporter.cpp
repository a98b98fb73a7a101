#include "train/StepReporter.h"

#include "dist/DistGroup.h"
#include "system/GemmCeiling.h"
#include "system/ProcessMemory.h"
#include "train/Recorder.h"
#include "train/TrainStep.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace entrena {
namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point t0)
{
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

PhaseTimes perStep(PhaseTimes t, int64_t steps)
{
    const double n = double(std::max<int64_t>(1, steps));
    for (double* part : {&t.data, &t.forward, &t.backward, &t.optimizer, &t.comm, &t.logging})
        *part /= n;
    return t;
}

void addDeviceMemory(StepEvent& e, const torch::Device& device)
{
    e.memoryBytes = residentMemoryBytes();
    if (!device.is_cuda())
        return;
    const DeviceMemory m = cudaMemory(device.index());
    e.deviceAllocated = m.allocated;
    e.deviceReserved = m.reserved;
    e.devicePeak = m.peak;
    e.deviceTotal = m.total;
    e.deviceUsed = m.used;
    e.deviceUtilization = m.utilization;
}

} // namespace

StepReporter::StepReporter(Recorder& recorder, PhaseClock& clock, const torch::Device& device, Precision precision, int world,
                           double flopsPerSample, TrainStep& step, GradReducer* reducer, bool metered)
    : recorder_(recorder)
    , clock_(clock)
    , device_(device)
    , precision_(precision)
    , world_(world)
    , flopsPerSample_(flopsPerSample)
    , step_(step)
    , reducer_(reducer)
    , metered_(metered)
{
    if (flopsPerSample_ > 0)
        ceiling_ = gemmCeiling(device_, precision_);
}

void StepReporter::beginInterval()
{
    start_ = Clock::now();
    samples_ = 0;
    steps_ = 0;
    clock_.begin();
}

void StepReporter::measureUtilisation(StepEvent& e)
{
    if (ceiling_ <= 0)
        return;
    const double achieved = 3.0 * flopsPerSample_ * e.samplesPerSec; // forward + 2x backward
    if (achieved > ceiling_ && !ceilingChecked_) {
        ceilingChecked_ = true;
        ceiling_ = gemmCeiling(device_, precision_, achieved);
    }
    if (ceiling_ > 0) // a utilisation is a fraction of what was measured: at most 1
        e.mfu = std::min(1.0, achieved / ceiling_);
}

void StepReporter::report(int64_t step, int epoch, double loss, double lr, std::vector<int64_t> rankMemory)
{
    StepEvent e;
    e.step = step;
    e.epoch = epoch;
    e.loss = loss;
    e.lr = lr;
    const double wall = secondsSince(start_);
    e.samplesPerSec = double(samples_ * world_) / std::max(1e-9, wall); // every rank's
    e.rankMemoryBytes = std::move(rankMemory);
    if (reducer_)
        e.commBusySeconds = reducer_->takeBusySeconds() / double(std::max<int64_t>(1, steps_));
    e.stepSeconds = wall / double(steps_);
    e.phases = perStep(clock_.collect(), steps_);
    measureUtilisation(e);
    if (metered_)
        e.stepPeakBytes = step_.takePeakBytes();
    addDeviceMemory(e, device_);
    if (!std::isfinite(e.loss))
        throw std::runtime_error("the training loss became " + std::to_string(e.loss) + " at step " + std::to_string(step) +
                                 "; lower optimizer.lr or set train.grad_clip");
    // The next interval starts here: this report's cost is part of its steps' time.
    start_ = Clock::now();
    clock_.begin();
    recorder_.step(e);
    clock_.mark(&PhaseTimes::logging);
    logging_ += secondsSince(start_);
    samples_ = 0;
    steps_ = 0;
}

} // namespace entrena
