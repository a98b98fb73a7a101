#include "train/Checkpointer.h"

#include "entrena/store/AtomicFile.h"
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
    WrittenCheckpoint w;
    try {
        w = writeCheckpoint(file.string(), model_, optimizer_, state_);
    } catch (const DiskFullError&) {
        throw DiskFullError(diskFullMessage(file.string()) + ": the checkpoint of step " + std::to_string(state_.step) +
                            " was not written. " + resumeHint());
    }
    store_->addCheckpoint(recorder_.runId, {state_.step, epoch, file.string(), metric, isBest, w.bytes, w.checksum});
    recorder_.notice({"checkpoint", state_.step, epoch, "saved " + file.string()});
    if (keep_ > 0) // train.keep_checkpoints: the best and the latest stay, as the run goes
        store_->pruneCheckpoints(recorder_.runId, keep_);
    lastSavedStep_ = state_.step;
}

std::string Checkpointer::resumeHint() const
{
    const std::string run = std::to_string(recorder_.runId);
    std::vector<CheckpointRecord> kept;
    try {
        kept = store_->checkpoints(recorder_.runId);
    } catch (const std::exception&) {
        // The store may be on the same full disk: its rows are still readable, but say nothing false.
    }
    if (kept.empty())
        return "Free space on that disk or choose another store; run " + run + " has no checkpoint to resume from.";
    return "Free space on that disk or choose another store, then resume run " + run + " from its last good checkpoint (step " +
           std::to_string(kept.back().step) + "): Resume in the runs list, or entrena-cli train --resume " + run + ".";
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
