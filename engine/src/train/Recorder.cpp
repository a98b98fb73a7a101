#include "train/Recorder.h"

#include "entrena/store/RunStore.h"

#include <string>

namespace entrena {

void Recorder::step(const StepEvent& e)
{
    observer_.onStep(e);
    if (store_) {
        store_->addMetric(runId, "train_loss", e.step, e.epoch, e.loss);
        store_->addMetric(runId, "lr", e.step, e.epoch, e.lr);
        store_->addMetric(runId, "samples_per_s", e.step, e.epoch, e.samplesPerSec);
        store_->addMetric(runId, "memory_bytes", e.step, e.epoch, double(e.memoryBytes));
        for (size_t r = 0; r < e.rankMemoryBytes.size(); ++r)
            store_->addMetric(runId, "memory_bytes_rank" + std::to_string(r), e.step, e.epoch, double(e.rankMemoryBytes[r]));
        if (e.commBusySeconds >= 0)
            store_->addMetric(runId, "time_comm_busy", e.step, e.epoch, e.commBusySeconds);
        if (e.deviceAllocated >= 0) {
            store_->addMetric(runId, "device_allocated_bytes", e.step, e.epoch, double(e.deviceAllocated));
            store_->addMetric(runId, "device_reserved_bytes", e.step, e.epoch, double(e.deviceReserved));
            store_->addMetric(runId, "device_peak_bytes", e.step, e.epoch, double(e.devicePeak));
        }
        if (e.deviceUsed >= 0)
            store_->addMetric(runId, "device_used_bytes", e.step, e.epoch, double(e.deviceUsed));
        if (e.deviceUtilization >= 0)
            store_->addMetric(runId, "device_utilization", e.step, e.epoch, double(e.deviceUtilization));
        const std::pair<const char*, double> times[] = {
            {"time_step", e.stepSeconds},         {"time_data", e.phases.data},           {"time_forward", e.phases.forward},
            {"time_backward", e.phases.backward}, {"time_optimizer", e.phases.optimizer}, {"time_comm", e.phases.comm},
            {"time_logging", e.phases.logging}};
        for (const auto& [key, value] : times)
            store_->addMetric(runId, key, e.step, e.epoch, value);
        if (e.mfu >= 0)
            store_->addMetric(runId, "mfu", e.step, e.epoch, e.mfu);
        if (e.stepPeakBytes >= 0)
            store_->addMetric(runId, "step_peak_bytes", e.step, e.epoch, double(e.stepPeakBytes));
    }
}

void Recorder::epoch(const EpochEvent& e, int64_t step)
{
    observer_.onEpoch(e);
    if (store_) {
        store_->addMetric(runId, "epoch_train_loss", step, e.epoch, e.trainLoss);
        store_->addMetric(runId, "val_loss", step, e.epoch, e.valLoss);
        store_->addMetric(runId, "val_accuracy", step, e.epoch, e.valAccuracy);
        store_->addMetric(runId, "epoch_seconds", step, e.epoch, e.seconds);
        store_->flush();
    }
}

void Recorder::notice(const NoticeEvent& e)
{
    observer_.onNotice(e);
    if (store_)
        store_->addEvent(runId, e.step, e.kind, e.message);
}

} // namespace entrena
