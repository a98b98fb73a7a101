#include "entrena/train/Trainer.h"

#include "system/DeviceChoice.h"
#include "data/BatchLoader.h"
#include "store/Checkpoint.h"
#include "data/Dataset.h"
#include "dist/DistGroup.h"
#include "system/Environment.h"
#include "train/Evaluate.h"
#include "system/GemmCeiling.h"
#include "system/MemoryMeter.h"
#include "model/Model.h"
#include "model/Models.h"
#include "optim/Optimizers.h"
#include "train/Snapshot.h"
#include "train/PhaseClock.h"
#include "train/Recorder.h"
#include "train/Precision.h"
#include "train/TrainStep.h"
#include "entrena/optim/LrScheduler.h"
#include "entrena/model/ModelSummary.h"
#include "entrena/store/RunStore.h"
#include "entrena/system/Runtime.h"

#include <nlohmann/json.hpp>
#include <torch/torch.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <set>
#include <sstream>
#include <vector>
#include <filesystem>

namespace entrena {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

/// Steps whose loss the tests turn into NaN once (ENTRENA_TEST_NAN_AT_STEPS=30,60): the way to
/// make a real run diverge on cue, as one bad batch would. Compiled only into test builds
/// (ENTRENA_TEST_HOOKS); a release build has no such variable.
std::set<int64_t> injectedNanSteps()
{
    std::set<int64_t> steps;
#ifdef ENTRENA_TEST_HOOKS
    if (const char* v = std::getenv("ENTRENA_TEST_NAN_AT_STEPS")) {
        std::stringstream in(v);
        std::string item;
        while (std::getline(in, item, ','))
            if (!item.empty())
                steps.insert(std::atoll(item.c_str()));
    }
#endif
    return steps;
}

/// Why a step's loss means the run is diverging ("" if it does not).
std::string divergenceReason(double loss, const std::deque<double>& recent, double spike)
{
    if (!std::isfinite(loss))
        return "the training loss became " + std::string(std::isnan(loss) ? "NaN" : "infinite");
    if (spike > 0 && recent.size() >= 20) {
        std::vector<double> v(recent.begin(), recent.end());
        std::nth_element(v.begin(), v.begin() + long(v.size() / 2), v.end());
        const double median = v[v.size() / 2];
        if (loss > spike * median) {
            char msg[160];
            std::snprintf(msg, sizeof msg, "the training loss jumped to %.4g, above %.3g x the median of the last %zu steps (%.4g)",
                          loss, spike, recent.size(), median);
            return msg;
        }
    }
    return {};
}

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

PhaseTimes perStep(PhaseTimes t, int64_t steps)
{
    const double n = double(std::max<int64_t>(1, steps));
    for (double* part : {&t.data, &t.forward, &t.backward, &t.optimizer, &t.comm, &t.logging})
        *part /= n;
    return t;
}

std::string describeDevice(const torch::Device& device, int threads)
{
    if (device.is_cuda())
        return "cuda:" + std::to_string(device.index());
    return "cpu (" + std::to_string(threads) + (threads == 1 ? " thread)" : " threads)");
}

} // namespace

struct Trainer::ResumePoint {
    int64_t runId = 0;
    CheckpointRecord checkpoint;
};

Trainer::Trainer(RunConfig config) : config_(std::move(config)) {}

RunResult Trainer::run(TrainingObserver& observer, const StopToken& stop, RunStore* store,
                       const std::string& checkpointDir)
{
    if (!rank_ || !rank_->distributed())
        return execute(observer, stop, store, checkpointDir, nullptr, nullptr);
    checkDevicesForRanks(config_, rank_->localWorldSize);
    torch::Device device = torch::kCPU;
    try {
        device = chooseDevice(config_.devices, rank_->localRank);
    } catch (const std::exception& e) {
        throw DistributedError(e.what());
    }
    const auto timeout = std::chrono::milliseconds(int64_t(config_.devices.timeoutS * 1000));
    const auto group = DistGroup::join(*rank_, configHash(config_), device, timeout);
    const bool leader = group->rank() == 0;
    return execute(observer, stop, leader ? store : nullptr, leader ? checkpointDir : std::string(), nullptr, group.get());
}

RunResult Trainer::resume(const std::string& idOrName, TrainingObserver& observer, const StopToken& stop,
                          RunStore& store, const std::string& checkpointDir)
{
    const auto run = store.findRun(idOrName);
    if (!run)
        throw ResumeError("no run '" + idOrName + "' in " + store.path() + "; `entrena-cli runs` lists them");
    if (run->status == RunStatus::Running)
        throw ResumeError("run " + std::to_string(run->id) + " is still running in another process");
    if (run->status == RunStatus::Finished)
        throw ResumeError("run " + std::to_string(run->id) + " has finished; there is nothing to resume");
    if (const int world = storedWorldSize(run->environmentJson); world > 1)
        throw ResumeError("run " + std::to_string(run->id) + " trained on " + std::to_string(world) +
                          " data-parallel ranks, and resuming those is not supported in this version (one process "
                          "would train with a different global batch); its checkpoints export as usual");
    const auto checkpoints = store.checkpoints(run->id);
    if (checkpoints.empty())
        throw ResumeError("run " + std::to_string(run->id) + " has no checkpoint to resume from; start it again instead");
    ResumePoint point;
    point.runId = run->id;
    point.checkpoint = checkpoints.front();
    for (const auto& c : checkpoints) {
        if (c.step >= point.checkpoint.step)
            point.checkpoint = c;
    }
    if (!fs::exists(point.checkpoint.path))
        throw ResumeError("run " + std::to_string(run->id) + "'s latest checkpoint '" + point.checkpoint.path +
                          "' is missing (deleted by hand?); it cannot be resumed");
    if (!point.checkpoint.checksum.empty() && fileChecksum(point.checkpoint.path) != point.checkpoint.checksum)
        throw ResumeError("run " + std::to_string(run->id) + "'s latest checkpoint '" + point.checkpoint.path +
                          "' is damaged (its checksum does not match); it cannot be resumed");
    RunConfig config;
    try {
        config = RunConfig::fromJson(run->configJson);
    } catch (const ConfigError& e) {
        throw ResumeError("run " + std::to_string(run->id) + "'s stored configuration is no longer valid: " + e.what());
    }
    return Trainer(config).execute(observer, stop, &store, checkpointDir, &point, nullptr);
}

RunResult Trainer::execute(TrainingObserver& observer, const StopToken& stop, RunStore* store,
                           const std::string& checkpointDir, const ResumePoint* resume, DistGroup* ranks)
{
    const auto started = Clock::now();
    const RunConfig& c = config_;
    RunResult result;
    EndEvent& end = result.end;
    Recorder rec(observer, store);
    std::optional<double> finalTrainLoss;
    TrainingState st;
    bool peerFailed = false; // data-parallel: the run failed because another rank did

    // A data-parallel run (ranks): this rank trains on its shard of every epoch; the ranks' cores
    // are shared among the ranks on this machine unless devices.threads says otherwise.
    const bool dp = ranks != nullptr;
    const int world = dp ? ranks->worldSize() : 1;
    const int rank = dp ? ranks->rank() : 0;
    const int localRank = dp ? ranks->env().localRank : 0;
    const int threads = applyThreadCount(
        dp && c.devices.threads == 0 ? std::max(1, physicalCoreCount() / ranks->env().localWorldSize) : c.devices.threads);
    if (store && resume) {
        store->reopenRun(resume->runId, resume->checkpoint.step);
        rec.runId = result.runId = resume->runId;
    } else if (store) {
        rec.runId = result.runId = store->createRun(c.name, c.toJson(), environmentJson(threads, world));
    }

    try {
        const torch::Device device = chooseDevice(c.devices, localRank);
        torch::manual_seed(c.seed);

        const DataSplits data = loadData(c.data, c.seed);
        // With a memory budget, tensor memory is metered from here on (the data set, loaded above,
        // is not part of a step's memory); the scope ends before the data is freed.
        const auto budget = memoryBudgetBytes(c.train.memoryBudgetMb);
        std::optional<MemoryMeterScope> meterScope;
        if (budget)
            meterScope.emplace(std::make_shared<MemoryMeter>(device.type()));
        Model model = Model::buildOn(device, c.model, data.channels(), data.height(), data.width(), data.classes);
        const bool channelsLast = prefersChannelsLast(c.model);
        auto optimizer = makeOptimizer(c.optimizer, model.parameters());
        std::vector<torch::Tensor> buffers; // a model's state that is not trained (batch-norm statistics)
        std::optional<GradReducer> reducer;
        if (dp) {
            std::vector<torch::Tensor> state;
            for (auto& [name, t] : model.namedTensors()) {
                state.push_back(t);
                if (!t.requires_grad())
                    buffers.push_back(t);
            }
            ranks->broadcast(state); // every rank starts from rank 0's weights
            reducer.emplace(*ranks, model.parameters(), int64_t(c.devices.bucketMb * 1024 * 1024));
        }

        const int64_t shardRows = (data.trainX.size(0) + world - 1) / world;
        const int64_t micro = (shardRows + c.data.batchSize - 1) / c.data.batchSize;
        const int64_t stepsPerEpoch = (micro + c.train.accumulate - 1) / c.train.accumulate;
        int64_t totalSteps = stepsPerEpoch * c.train.epochs;
        if (c.train.maxSteps > 0)
            totalSteps = std::min(totalSteps, c.train.maxSteps);
        LrScheduler scheduler(c.scheduler, c.optimizer.lr, c.train.epochs, totalSteps);
        const bool hasVal = data.valX.size(0) > 0;

        if (resume) {
            st = readCheckpoint(resume->checkpoint.path, resume->checkpoint.checksum, model, *optimizer);
            scheduler.restore(st.scheduler);
        }

        StartEvent s;
        s.runId = result.runId;
        s.name = c.name;
        s.device = describeDevice(device, threads);
        s.worldSize = world;
        s.epochs = c.train.epochs;
        s.stepsPerEpoch = stepsPerEpoch;
        s.totalSteps = totalSteps;
        for (const auto& p : model.parameters())
            s.parameters += p.numel();
        if (!model.isScript() && c.data.dataset != "csv")
            s.flopsPerSample = summarizeModel(c.model, data.channels(), data.height(), data.width(), data.classes).flopsPerSample;
        observer.onStart(s);
        double ceiling = s.flopsPerSample > 0 ? gemmCeiling(device, c.train.precision) : 0.0;
        bool ceilingChecked = false; // re-measured once if the run outdoes it
        if (resume)
            rec.notice({"resumed", st.step, st.epoch, "resumed from " + resume->checkpoint.path});

        // Saves the current state; `whole` marks a checkpoint at an epoch's end.
        int64_t lastSavedStep = -1;
        auto checkpoint = [&](int epoch, double metric, bool isBest, const std::string& fileName) {
            if (checkpointDir.empty() || !store)
                return;
            st.scheduler = scheduler.state();
            const fs::path file = fs::path(checkpointDir) / ("run-" + std::to_string(result.runId)) / fileName;
            const WrittenCheckpoint w = writeCheckpoint(file.string(), model, *optimizer, st);
            store->addCheckpoint(result.runId, {st.step, epoch, file.string(), metric, isBest, w.bytes, w.checksum});
            rec.notice({"checkpoint", st.step, epoch, "saved " + file.string()});
            lastSavedStep = st.step;
        };

        const auto loss = makeLossFn(model, device, c.train);
        const bool scaled = c.train.precision == "fp16";
        TrainStep trainStep(loss, *optimizer, device, c.data.batchSize, c.train.accumulate, st.microSplit,
                            meterScope ? &meterScope->meter() : nullptr, budget, reducer ? &*reducer : nullptr);
        const auto onOomRetry = [&](const OomRetry& r) {
            if (dp)
                throw std::runtime_error(r.cause + "; OOM recovery works on one device only: lower data.batch_size "
                                                   "(it is per rank)");
            if (!c.train.oomRecovery)
                throw std::runtime_error(r.cause + "; train.oom_recovery is off");
            st.microSplit = trainStep.split();
            rec.notice({"oom_retry", st.step + 1, st.epoch, r.describe()});
        };
        LossScaler scaler;
        scaler.scale = st.lossScale;
        scaler.goodSteps = st.lossScaleGoodSteps;
        const Augment augment{c.data.augmentCrop, c.data.augmentFlip, channelsLast};

        bool stopped = false, stepLimit = false, earlyStopped = false;
        double dataWait = 0, logging = 0;

        // The divergence guard (see TrainSpec): the last good state, the rate's multiplier after
        // rollbacks, and the recent losses a spike is measured against. On a GPU the loss is read
        // at the log interval only, so that guarding costs no synchronisation per step.
        const bool guard = c.train.divergenceGuard;
        const bool checkEveryStep = guard && !device.is_cuda() && !dp; // ranks check at log steps, on the global loss
        Snapshot good;
        if (guard) {
            good.take(model, *optimizer);
            good.step = st.step;
        }
        PhaseClock clock(device); // where each step's time goes (see PhaseClock)
        int rollbacks = 0;
        bool diverged = false;
        std::deque<double> recent;
        std::set<int64_t> injectNan = injectedNanSteps();
        int epochsDone = st.epoch - 1;
        bool agreedStop = false; // data-parallel: the ranks stop together, at a step they agree on
        // A split evaluated by all ranks, each on its part, with rank 0's buffers.
        const auto evaluateSplit = [&](const torch::Tensor& x, const torch::Tensor& y) {
            if (!dp)
                return evaluate(model, x, y, device, channelsLast);
            if (!buffers.empty())
                ranks->broadcast(buffers);
            const int64_t n = x.size(0), from = n * rank / world, to = n * (rank + 1) / world;
            const EvaluationSums mine = evaluateSums(model, x.slice(0, from, to), y.slice(0, from, to), device, channelsLast);
            auto sums = torch::tensor({mine.loss, mine.correct, mine.count}, torch::kFloat64);
            ranks->allreduceSum({sums});
            return EvaluationSums{sums[0].item<double>(), sums[1].item<double>(), sums[2].item<double>()}.mean();
        };
        model.train(true);

        for (int epoch = st.epoch; epoch <= c.train.epochs && !stopped && !stepLimit && !earlyStopped; ++epoch) {
            const auto epochStart = Clock::now();
            const double secondsBefore = st.trainSeconds;
            const bool continuing = st.batchInEpoch > 0; // resumed inside this epoch
            BatchLoader loader(data.trainX, data.trainY, c.data.batchSize, c.seed, epoch, c.data.workers, device,
                               st.batchInEpoch, augment, Shard{rank, world});
            if (!continuing) {
                st.epochLossSum = 0;
                st.epochSamples = 0;
            }
            // Running sums stay on the device; they are read once per log interval and epoch.
            auto epochLoss = torch::full({}, st.epochLossSum, torch::TensorOptions(device).dtype(torch::kFloat64));
            auto logStart = Clock::now();
            int64_t logSamples = 0, logSteps = 0;
            clock.begin(); // the parts of the steps since logStart
            double epochLr = scheduler.lr();

            while (!diverged) {
                if (dp ? agreedStop : stop.stopRequested()) {
                    stopped = true;
                    break;
                }
                // One optimizer step over up to `accumulate` micro-batches.
                std::vector<Batch> group;
                for (int a = 0; a < c.train.accumulate; ++a) {
                    auto b = loader.next();
                    if (!b)
                        break;
                    group.push_back(std::move(*b));
                }
                clock.mark(&PhaseTimes::data);
                if (group.empty())
                    break;
                int64_t groupSamples = 0;
                for (const auto& b : group)
                    groupSamples += b.x.size(0);

                const double lr = scheduler.lr() * st.lrScale;
                epochLr = lr;
                setLearningRate(*optimizer, lr);
                if (const double m = scheduler.momentum(); m >= 0)
                    setMomentum(*optimizer, m);
                clock.mark(&PhaseTimes::optimizer);
                torch::Tensor stepLoss = trainStep.run(group, scaled ? scaler.scale : 1.0, clock, onOomRetry);
                // From here to the step's end counts as the optimizer's part.
                if (injectNan.erase(st.step + 1)) // ENTRENA_TEST_NAN_AT_STEPS, once each: a transient fault
                    stepLoss = stepLoss * std::nan("");
                const bool logStep = (st.step + 1) % c.train.logEvery == 0 || st.step + 1 == totalSteps;
                // Data-parallel, at log steps: every rank's loss, stop request and memory, in one
                // collective. The loss reported and guarded is the global batch's.
                double globalLoss = 0;
                std::vector<int64_t> rankMemory;
                if (dp && logStep) {
                    const int64_t memory = device.is_cuda() ? cudaMemory(device.index()).allocated : residentMemoryBytes();
                    RankReports all = ranks->exchange(stepLoss.item<double>(), stop.stopRequested(), memory);
                    globalLoss = all.meanLoss;
                    agreedStop = agreedStop || all.anyStop;
                    rankMemory = std::move(all.memoryBytes);
                }
                if (checkEveryStep || (guard && logStep)) {
                    const double value = dp ? globalLoss : stepLoss.item<double>();
                    const std::string why = divergenceReason(value, recent, c.train.divergenceSpike);
                    if (!why.empty()) {
                        st.batchInEpoch += int64_t(group.size());
                        if (++rollbacks > c.train.maxRollbacks) {
                            diverged = true;
                            end.error = why + " at step " + std::to_string(st.step + 1) + ", after " +
                                        std::to_string(rollbacks - 1) +
                                        " rollback(s) with the learning rate cut each time; lower optimizer.lr, "
                                        "add a warm-up (scheduler.warmup_steps) or set train.grad_clip";
                            break;
                        }
                        good.restore(model, *optimizer, device);
                        st.lrScale *= c.train.rollbackLrFactor;
                        recent.clear();
                        char msg[200];
                        std::snprintf(msg, sizeof msg, "; back to step %lld, learning rate x%.4g", (long long)good.step,
                                      st.lrScale);
                        rec.notice({"rollback", st.step + 1, epoch, why + msg});
                        clock.mark(&PhaseTimes::optimizer);
                        continue; // the next batch; the bad one is not counted as a step
                    }
                    recent.push_back(value);
                    if (recent.size() > 50)
                        recent.pop_front();
                }
                bool stepTaken = true;
                if (scaled) {
                    stepTaken = scaler.unscaleAndCheck(model.parameters());
                    scaler.update(stepTaken);
                    st.lossScale = scaler.scale;
                    st.lossScaleGoodSteps = scaler.goodSteps;
                }
                if (stepTaken) {
                    if (c.train.gradClip > 0)
                        torch::nn::utils::clip_grad_norm_(model.parameters(), c.train.gradClip);
                    optimizer->step();
                }
                scheduler.stepBatch();
                ++st.step;
                ++logSteps;
                // A new good state, when this step's loss was checked and some steps have passed.
                if (guard && (checkEveryStep || st.step % c.train.logEvery == 0) && st.step - good.step >= c.train.snapshotEvery) {
                    good.take(model, *optimizer);
                    good.step = st.step;
                }
                st.batchInEpoch += int64_t(group.size());
                epochLoss += stepLoss.to(torch::kFloat64) * double(groupSamples);
                st.epochSamples += groupSamples;
                st.samplesSeen += groupSamples;
                logSamples += groupSamples;
                clock.mark(&PhaseTimes::optimizer);

                if (st.step % c.train.logEvery == 0 || st.step == totalSteps) {
                    StepEvent e;
                    e.step = st.step;
                    e.epoch = epoch;
                    e.loss = dp ? globalLoss : stepLoss.item<double>();
                    e.lr = lr;
                    const double wall = secondsSince(logStart);
                    e.samplesPerSec = double(logSamples * world) / std::max(1e-9, wall); // every rank's
                    e.rankMemoryBytes = std::move(rankMemory);
                    if (reducer)
                        e.commBusySeconds = reducer->takeBusySeconds() / double(std::max<int64_t>(1, logSteps));
                    e.stepSeconds = wall / double(logSteps);
                    e.phases = perStep(clock.collect(), logSteps);
                    if (ceiling > 0) {
                        const double achieved = 3.0 * s.flopsPerSample * e.samplesPerSec; // forward + 2x backward
                        if (achieved > ceiling && !ceilingChecked) {
                            ceilingChecked = true;
                            ceiling = gemmCeiling(device, c.train.precision, achieved);
                        }
                        if (ceiling > 0) // a utilisation is a fraction of what was measured: at most 1
                            e.mfu = std::min(1.0, achieved / ceiling);
                    }
                    if (meterScope)
                        e.stepPeakBytes = trainStep.takePeakBytes();
                    e.memoryBytes = residentMemoryBytes();
                    if (device.is_cuda()) {
                        const DeviceMemory m = cudaMemory(device.index());
                        e.deviceAllocated = m.allocated;
                        e.deviceReserved = m.reserved;
                        e.devicePeak = m.peak;
                        e.deviceTotal = m.total;
                        e.deviceUsed = m.used;
                        e.deviceUtilization = m.utilization;
                    }
                    if (!std::isfinite(e.loss))
                        throw std::runtime_error("the training loss became " + std::to_string(e.loss) + " at step " +
                                                 std::to_string(st.step) +
                                                 "; lower optimizer.lr or set train.grad_clip");
                    // The next interval starts here: this report's cost is part of its steps' time.
                    logStart = Clock::now();
                    clock.begin();
                    rec.step(e);
                    clock.mark(&PhaseTimes::logging);
                    logging += secondsSince(logStart);
                    logSamples = 0;
                    logSteps = 0;
                }
                if (c.train.maxSteps > 0 && st.step >= c.train.maxSteps) {
                    stepLimit = true;
                    break;
                }
            }
            st.trainSeconds = secondsBefore + secondsSince(epochStart);
            dataWait += loader.waitSeconds();
            st.epochLossSum = epochLoss.item<double>();
            double epochLossSum = st.epochLossSum, epochSamples = double(st.epochSamples);
            if (dp && !diverged) {
                auto sums = torch::tensor({epochLossSum, epochSamples, stop.stopRequested() ? 1.0 : 0.0}, torch::kFloat64);
                ranks->allreduceSum({sums});
                epochLossSum = sums[0].item<double>();
                epochSamples = sums[1].item<double>();
                agreedStop = agreedStop || sums[2].item<double>() > 0;
            }

            if (diverged)
                break;
            if (stopped) {
                // Mid-epoch: save where we are (no validation of a partial epoch), so that resume
                // continues at the next batch of this epoch.
                if (st.step != lastSavedStep)
                    checkpoint(epoch, std::nan(""), false, "step-" + std::to_string(st.step) + ".pt");
                break;
            }

            const Evaluation val = evaluateSplit(data.valX, data.valY);
            EpochEvent e;
            e.epoch = epoch;
            e.trainLoss = epochSamples > 0 ? epochLossSum / epochSamples : 0.0;
            e.valLoss = val.loss;
            e.valAccuracy = val.accuracy;
            finalTrainLoss = e.trainLoss;
            epochsDone = epoch;
            const bool isBest = hasVal && val.accuracy > st.bestVal;
            if (hasVal)
                st.bestVal = std::max(st.bestVal, val.accuracy);

            const std::string& m = c.scheduler.metric;
            const double metric = m == "val_accuracy" ? val.accuracy : (m == "train_loss" || !hasVal) ? e.trainLoss : val.loss;
            const double before = scheduler.lr();
            if (scheduler.stepEpoch(metric)) {
                char msg[160];
                std::snprintf(msg, sizeof msg, "%s stopped improving: learning rate %.6g -> %.6g", m.c_str(), before,
                              scheduler.lr());
                rec.notice({"lr_reduced", st.step, epoch, msg});
            }
            e.lr = epochLr;
            e.seconds = secondsSince(epochStart);
            rec.epoch(e, st.step);

            if (c.train.earlyStopPatience > 0 && hasVal) {
                const bool maxMode = c.train.earlyStopMetric == "val_accuracy";
                const double value = maxMode ? val.accuracy : val.loss;
                const bool improved = !st.earlyStarted || (maxMode ? value > st.earlyBest + c.train.earlyStopMinDelta
                                                                   : value < st.earlyBest - c.train.earlyStopMinDelta);
                if (improved) {
                    st.earlyBest = value;
                    st.earlyBadEpochs = 0;
                    st.earlyStarted = true;
                } else if (++st.earlyBadEpochs >= c.train.earlyStopPatience) {
                    earlyStopped = true;
                    rec.notice({"early_stop", st.step, epoch,
                                c.train.earlyStopMetric + " did not improve for " +
                                    std::to_string(st.earlyBadEpochs) + " epochs"});
                }
            }

            // The next state starts the next epoch.
            st.epoch = epoch + 1;
            st.batchInEpoch = 0;
            st.epochLossSum = 0;
            st.epochSamples = 0;
            const bool last = stepLimit || earlyStopped || epoch == c.train.epochs;
            const bool periodic = c.train.checkpointEvery > 0 && epoch % c.train.checkpointEvery == 0;
            if (last || periodic)
                checkpoint(epoch, val.accuracy, isBest, "epoch-" + std::to_string(epoch) + ".pt");
            else if (isBest)
                checkpoint(epoch, val.accuracy, true, "best-epoch-" + std::to_string(epoch) + ".pt");
        }

        end.status = diverged ? RunStatus::Diverged : stopped ? RunStatus::Stopped : RunStatus::Finished;
        end.bestValAccuracy = st.bestVal;
        if (!stopped && !diverged && epochsDone > 0 && data.testX.size(0) > 0)
            end.testAccuracy = evaluateSplit(data.testX, data.testY).accuracy;
        end.samplesPerSec = st.trainSeconds > 0 ? double(st.samplesSeen * world) / st.trainSeconds : 0;
        end.trainSeconds = st.trainSeconds;
        end.dataWaitSeconds = dataWait;
        end.loggingSeconds = logging;
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
        // This rank's own failure is left in the store for the others to name; then the group
        // is abandoned, as its collectives may never complete.
        if (!peerFailed) {
            ranks->reportFailure(end.error);
            end.error = "rank " + std::to_string(rank) + ": " + end.error;
        }
        ranks->abandon();
    }
    end.seconds = secondsSince(started);
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
