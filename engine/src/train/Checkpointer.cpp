#include "train/Checkpointer.h"

#include "entrena/store/RunStore.h"
#include "train/Recorder.h"

#include <cmath>
#include <filesystem>

namespace entrena {

Checkpointer::Checkpointer(RunStore* store, int keep, Model& model, torch::optim::Optimizer& optimizer, LrScheduler& scheduler,
                           TrainingState& state, Recorder& recorder)
    : store_(store)
    , keep_(keep)
    , model_(model)
    , optimizer_(optimizer)
    , scheduler_(scheduler)
    , state_(state)
    , recorder_(recorder)
{
}

void Checkpointer::save(int epoch, double metric, bool isBest, const std::string& fileName)
{
    if (!store_)
        return;
    state_.scheduler = scheduler_.state();
    const auto file = std::filesystem::path(store_->runFolder(recorder_.runId)) / fileName;
    const WrittenCheckpoint w = writeCheckpoint(file.string(), model_, optimizer_, state_);
    store_->addCheckpoint(recorder_.runId, {state_.step, epoch, file.string(), metric, isBest, w.bytes, w.checksum});
    recorder_.notice({"checkpoint", state_.step, epoch, "saved " + file.string()});
    if (keep_ > 0) // train.keep_checkpoints: the best and the latest stay, as the run goes
        store_->pruneCheckpoints(recorder_.runId, keep_);
    lastSavedStep_ = state_.step;
}

void Checkpointer::epochEnded(int epoch, double valAccuracy, bool isBest, bool last, int checkpointEvery)
{
    const bool periodic = checkpointEvery > 0 && epoch % checkpointEvery == 0;
    if (last || periodic)
        save(epoch, valAccuracy, isBest, "epoch-" + std::to_string(epoch) + ".pt");
    else if (isBest)
        save(epoch, valAccuracy, true, "best-epoch-" + std::to_string(epoch) + ".pt");
}

void Checkpointer::stoppedInEpoch(int epoch)
{
    // No validation of a partial epoch: the metric is unknown.
    if (state_.step != lastSavedStep_)
        save(epoch, std::nan(""), false, "step-" + std::to_string(state_.step) + ".pt");
}

} // namespace entrena
