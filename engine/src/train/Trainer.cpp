#include "entrena/train/Trainer.h"

#include "dist/DistGroup.h"
#include "entrena/config/Registry.h"
#include "entrena/store/RunStore.h"
#include "entrena/system/Runtime.h"
#include "model/Models.h"
#include "system/DeviceChoice.h"
#include "system/Environment.h"
#include "train/Precision.h"
#include "train/TrainingRun.h"

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <torch/torch.h>

namespace entrena {
namespace {

using Clock = std::chrono::steady_clock;

/// The ranks a stored run trained on (its environment's world_size; 1 before there was one).
int storedWorldSize(const std::string& environmentJson)
{
    try {
        const auto j = nlohmann::json::parse(environmentJson);
        return j.value("world_size", 1);
    } catch (const std::exception&) {
        return 1;
    }
}

/// The checkpoint a stopped or interrupted run continues from; throws ResumeError when there is
/// none it can use.
ResumePoint resumePointOf(const RunRecord& run, RunStore& store)
{
    const std::string id = std::to_string(run.id);
    if (run.status == RunStatus::Running)
        throw ResumeError("run " + id + " is still running in another process");
    if (run.status == RunStatus::Finished)
        throw ResumeError("run " + id + " has finished; there is nothing to resume");
    // A pruned trial (a sweep stopped it early) continues to its configured epochs.
    if (const int world = storedWorldSize(run.environmentJson); world > 1)
        throw ResumeError("run " + id + " trained on " + std::to_string(world) +
                          " data-parallel ranks, and resuming those is not supported in this version (one process "
                          "would train with a different global batch); its checkpoints export as usual");
    const auto checkpoints = store.checkpoints(run.id);
    if (checkpoints.empty())
        throw ResumeError("run " + id + " has no checkpoint to resume from; start it again instead");
    ResumePoint point;
    point.runId = run.id;
    // The latest written (a population-based sweep may give a trial another trial's state, at a
    // step of that trial's).
    point.checkpoint = checkpoints.back();
    const std::string& path = point.checkpoint.path;
    if (!std::filesystem::exists(path))
        throw ResumeError("run " + id + "'s latest checkpoint '" + path +
                          "' is missing (deleted by hand?); it cannot be resumed");
    if (!point.checkpoint.checksum.empty() && fileChecksum(path) != point.checkpoint.checksum)
        throw ResumeError("run " + id + "'s latest checkpoint '" + path +
                          "' is damaged (its checksum does not match); it cannot be resumed");
    return point;
}

} // namespace

Trainer::Trainer(RunConfig config)
    : config_(std::move(config))
{
}

RunResult Trainer::run(TrainingObserver& observer, const StopToken& stop, RunStore* store, bool checkpoints)
{
    if (!rank_ || !rank_->distributed())
        return execute(observer, stop, store, checkpoints, nullptr, nullptr);
    checkDevicesForRanks(config_, rank_->localWorldSize);
    torch::Device device = torch::kCPU;
    try {
        device = chooseDevice(config_.devices, rank_->localRank);
    } catch (const std::exception& e) {
        throw DistributedError(e.what());
    }
    const auto timeout = std::chrono::milliseconds(int64_t(config_.devices.timeoutS * 1000));
    // Hashed as resolved: ranks on CPUs that resolve `auto` differently must not train together; nor
    // ranks told to take different paths of Entrena's own.
    const auto group = DistGroup::join(*rank_, rankFingerprint(withEffectivePrecision(config_)), device, timeout);
    const bool leader = group->rank() == 0;
    return execute(observer, stop, leader ? store : nullptr, leader && checkpoints, nullptr, group.get());
}

RunResult Trainer::resume(const std::string& idOrName, TrainingObserver& observer, const StopToken& stop, RunStore& store)
{
    const auto run = store.findRun(idOrName);
    if (!run)
        throw ResumeError("no run '" + idOrName + "' in " + store.path() + "; `entrena-cli runs` lists them");
    ResumePoint point = resumePointOf(*run, store);
    RunConfig config;
    try {
        config = RunConfig::fromJson(run->configJson);
    } catch (const ConfigError& e) {
        throw ResumeError("run " + std::to_string(run->id) + "'s stored configuration is no longer valid: " + e.what());
    }
    // A run goes on in the precision it started in (its environment says), on whatever CPU resumes it.
    if (registryEntry(config.train.precision).perMachine) {
        try {
            const auto environment = nlohmann::json::parse(run->environmentJson);
            if (const auto started = fromString<Precision>(environment.value("precision", std::string())))
                config.train.precision = *started;
        } catch (const std::exception&) {
        }
    }
    point.channelsLast = trainedChannelsLast(config.model, run->environmentJson);
    return Trainer(config).execute(observer, stop, &store, true, &point, nullptr);
}

RunResult Trainer::execute(TrainingObserver& observer, const StopToken& stop, RunStore* store, bool checkpoints,
                           const ResumePoint* resume, DistGroup* ranks)
{
    const auto started = Clock::now();
    RunResult result;
    EndEvent& end = result.end;
    Recorder recorder(observer, store);
    // A data-parallel rank shares this machine's cores with the other local ranks unless
    // devices.threads says otherwise.
    const int world = ranks ? ranks->worldSize() : 1;
    const int localRanks = ranks ? ranks->env().localWorldSize : 1;
    const int threads = applyThreadCount(ranks && config_.devices.threads == 0 ? std::max(1, physicalCoreCount() / localRanks)
                                                                               : config_.devices.threads);
    if (store && resume) {
        store->reopenRun(resume->runId, resume->checkpoint.step);
        recorder.runId = result.runId = resume->runId;
    }
    // `auto` precision becomes what this machine trains in; the stored configuration keeps `auto`
    // (another machine resolves it anew), the run's environment says what it was here.
    const RunConfig effective = withEffectivePrecision(config_);
    if (store && !resume) {
        auto environment = nlohmann::json::parse(environmentJson(threads, world));
        environment["precision"] = toString(effective.train.precision);
        recorder.runId = result.runId = store->createRun(config_.name, config_.toJson(), environment.dump());
        if (trial_)
            store->setTrial(result.runId, trial_->first, trial_->second);
    }

    std::optional<double> finalTrainLoss;
    bool peerFailed = false; // data-parallel: the run failed because another rank did
    try {
        TrainingRun training(effective, observer, stop, recorder, store, checkpoints, resume, ranks, threads);
        training.run(end);
        finalTrainLoss = training.finalTrainLoss();
    } catch (const CommError& e) {
        end.status = RunStatus::Failed; // another rank's failure, already explained
        end.error = e.what();
        peerFailed = true;
    } catch (const c10::Error& e) {
        end.status = RunStatus::Failed;
        end.error = e.what_without_backtrace();
    } catch (const std::exception& e) {
        end.status = RunStatus::Failed;
        end.error = e.what();
    }
    if (ranks && end.status == RunStatus::Failed) {
        // This rank's own failure is left in the store for the others to name; then the group is
        // abandoned, as its collectives may never complete.
        if (!peerFailed) {
            ranks->reportFailure(end.error);
            end.error = "rank " + std::to_string(ranks->rank()) + ": " + end.error;
        }
        ranks->abandon();
    }
    end.seconds = std::chrono::duration<double>(Clock::now() - started).count();
    if (store) {
        try {
            store->finishRun(result.runId, end.status, end, finalTrainLoss);
        } catch (const std::exception& e) {
            if (end.error.empty())
                end.error = e.what();
            end.status = RunStatus::Failed;
        }
    }
    observer.onEnd(end);
    return result;
}

} // namespace entrena
