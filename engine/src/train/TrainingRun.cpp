#include "train/TrainingRun.h"

#include "data/Holdout.h"
#include "data/ImageWrite.h"
#include "dist/DistGroup.h"
#include "entrena/config/Registry.h"
#include "entrena/model/ModelSummary.h"
#include "entrena/system/Runtime.h"
#include "export/CheckpointChoice.h"
#include "model/Models.h"
#include "optim/FusedSgd.h"
#include "optim/Optimizers.h"
#include "system/DeviceChoice.h"
#include "train/MlpStep.h"
#include "train/PathTrial.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

namespace entrena {
namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point t0)
{
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

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

std::string describeDevice(const torch::Device& device, int threads)
{
    if (device.is_cuda())
        return "cuda:" + std::to_string(device.index());
    return "cpu (" + std::to_string(threads) + (threads == 1 ? " thread)" : " threads)");
}

/// The value of the schedule's watched metric (scheduler.metric) for an epoch.
double watchedMetric(Metric metric, const EpochEvent& e, bool hasVal)
{
    if (metric == Metric::ValAccuracy)
        return e.valAccuracy;
    return metric == Metric::TrainLoss || !hasVal ? e.trainLoss : e.valLoss;
}

} // namespace

TrainingRun::TrainingRun(const RunConfig& config, TrainingObserver& observer, const StopToken& stop, Recorder& recorder,
                         RunStore* store, bool checkpoints, const ResumePoint* resume, DistGroup* ranks, int threads)
    : config_(config)
    , observer_(observer)
    , stop_(stop)
    , recorder_(recorder)
    , store_(store)
    , checkpoints_(checkpoints)
    , resume_(resume)
    , ranks_(ranks)
    , threads_(threads)
    , rank_(ranks ? ranks->rank() : 0)
    , world_(ranks ? ranks->worldSize() : 1)
{
}

TrainingRun::~TrainingRun() = default;

void TrainingRun::setUp()
{
    device_ = chooseDevice(config_.devices, ranks_ ? ranks_->env().localRank : 0);
    torch::manual_seed(config_.seed);
    data_ = loadData(config_.data, config_.seed);
    if (config_.data.balance != Balance::None) {
        // Checked (two classes at least) for either mode; the sampler draws by each sample's weight.
        classWeights_ = balancedClassWeights(data_.trainY, data_.classes);
        if (config_.data.balance == Balance::Sampler) {
            sampleWeights_ = balancedSampleWeights(data_.trainY, data_.classes);
            classWeights_ = torch::Tensor();
        }
    }
    // With a memory budget, tensor memory is metered from here on (the data set, loaded above, is
    // not part of a step's memory); the scope ends before the data is freed.
    budget_ = memoryBudgetBytes(config_.train.memoryBudgetMb);
    if (budget_)
        meterScope_.emplace(std::make_shared<MemoryMeter>(device_.type()));
    buildModel();
    // This rank's shard of each epoch, in micro-batches, then optimizer steps.
    const int64_t shardRows = (data_.trainX.size(0) + world_ - 1) / world_;
    const int64_t micro = (shardRows + config_.data.batchSize - 1) / config_.data.batchSize;
    stepsPerEpoch_ = (micro + config_.train.accumulate - 1) / config_.train.accumulate;
    totalSteps_ = stepsPerEpoch_ * config_.train.epochs;
    if (config_.train.maxSteps > 0)
        totalSteps_ = std::min(totalSteps_, config_.train.maxSteps);
    scheduler_.emplace(config_.scheduler, config_.optimizer.lr, config_.train.epochs, totalSteps_);
    restore();
}

void TrainingRun::buildModel()
{
    const ModelSpec& spec = config_.model;
    model_ = Model::buildOn(device_, spec, data_.channels(), data_.height(), data_.width(), data_.classes);
    model_->checkShapes(device_, data_.channels(), data_.height(), data_.width(), data_.classes);
    channelsLast_ = prefersChannelsLast(spec);
    optimizer_ = makeOptimizer(config_.optimizer, model_->parameters());
    for (auto& [name, t] : model_->namedTensors())
        if (!t.requires_grad())
            buffers_.push_back(t);
    if (ranks_) {
        std::vector<torch::Tensor> state;
        for (auto& [name, t] : model_->namedTensors())
            state.push_back(t);
        ranks_->broadcast(state); // every rank starts from rank 0's weights
        reducer_ = std::make_unique<GradReducer>(*ranks_, model_->parameters(), int64_t(config_.devices.bucketMb * 1024 * 1024));
    }
}

void TrainingRun::restore()
{
    if (!resume_)
        return;
    state_ = readCheckpoint(resume_->checkpoint.path, resume_->checkpoint.checksum, *model_, *optimizer_);
    applyOptimizerOptions(*optimizer_, config_.optimizer);
    scheduler_->restore(state_.scheduler);
}

void TrainingRun::announce()
{
    StartEvent s;
    s.runId = recorder_.runId;
    s.name = config_.name;
    s.device = describeDevice(device_, threads_);
    s.worldSize = world_;
    s.epochs = config_.train.epochs;
    s.stepsPerEpoch = stepsPerEpoch_;
    s.totalSteps = totalSteps_;
    s.precision = toString(config_.train.precision);
    for (const auto& p : model_->parameters())
        s.parameters += p.numel();
    // Any built-in model on any data (a table is [N, 1, 1, F]): a CSV model's MFU was reported as 0.
    if (!model_->isScript())
        s.flopsPerSample =
            summarizeModel(config_.model, data_.channels(), data_.height(), data_.width(), data_.classes).flopsPerSample;
    flopsPerSample_ = s.flopsPerSample;
    s.classes = data_.classNames;
    s.inputShape = data_.inputShape();
    s.balance = toString(config_.data.balance);
    if (classWeights_.defined()) {
        const auto w = classWeights_.to(torch::kFloat64).contiguous();
        s.classWeights.assign(w.data_ptr<double>(), w.data_ptr<double>() + w.numel());
    }
    s.folds = config_.data.folds;
    s.fold = config_.data.folds > 1 ? config_.data.fold : 0;
    s.trainSamples = data_.trainY.size(0);
    s.valSamples = data_.valY.size(0);
    observer_.onStart(s);
    if (resume_)
        recorder_.notice({"resumed", state_.step, state_.epoch, "resumed from " + resume_->checkpoint.path});
}

void TrainingRun::recordData()
{
    if (store_ && recorder_.runId > 0) {
        nlohmann::json info = {{"classes", data_.classNames},
                               {"input_shape", data_.inputShape()},
                               {"normalization", nlohmann::json::parse(data_.normalizationJson())},
                               {"train_samples", data_.trainY.size(0)},
                               {"val_samples", data_.valY.size(0)}};
        if (classWeights_.defined()) {
            const auto w = classWeights_.to(torch::kFloat64).contiguous();
            info["class_weights"] = std::vector<double>(w.data_ptr<double>(), w.data_ptr<double>() + w.numel());
        }
        store_->setRunData(recorder_.runId, info.dump());
    }
    if (data_.skipped.empty())
        return;
    std::string files;
    for (size_t i = 0; i < data_.skipped.size() && i < 10; ++i)
        files += (i ? "; " : "") + data_.skipped[i].path + " (" + data_.skipped[i].reason + ")";
    const size_t n = data_.skipped.size();
    recorder_.notice(
        {"data_warning", 0, state_.epoch,
         std::to_string(n) +
             (n == 1 ? " image file could not be read and was skipped: " : " image files could not be read and were skipped: ") +
             files + (n > 10 ? "; and " + std::to_string(n - 10) + " more" : "")});
}

void TrainingRun::buildParts()
{
    const TrainSpec& t = config_.train;
    scaler_.scale = state_.lossScale;
    scaler_.goodSteps = state_.lossScaleGoodSteps;
    augment_ = Augment{config_.data.augmentCrop, config_.data.augmentFlip, channelsLast_};
    clock_.emplace(device_);
    step_.emplace(makeLossFn(*model_, device_, t, config_.data.task, classWeights_), *optimizer_, device_, config_.data.batchSize,
                  t.accumulate, state_.microSplit, meterScope_ ? &meterScope_->meter() : nullptr, budget_, reducer_.get());
    // A memory budget measures autograd's steps (TrainStep::useMlpStep says why); the hand-written
    // step has no class weights.
    if (!meterScope_ && !classWeights_.defined())
        step_->useMlpStep(MlpStep::make(*model_, device_, t, config_.data.task, reducer_ != nullptr || ranks_ != nullptr));
    oom_.emplace(t, ranks_ != nullptr, state_, recorder_);
    // On a GPU, and across ranks, losses are read at log steps only: no synchronisation per step.
    guard_.emplace(t, !device_.is_cuda() && !ranks_, *model_, *optimizer_, device_, state_);
    checkpointer_.emplace(checkpoints_ ? store_ : nullptr, config_.train.keepCheckpoints, *model_, *optimizer_, *scheduler_,
                          state_, recorder_);
    evaluator_.emplace(*model_, device_, channelsLast_, config_.data.task, ranks_, buffers_);
    earlyStopper_.emplace(t, state_);
    reporter_.emplace(recorder_, *clock_, device_, t.precision, world_, flopsPerSample_, *step_, reducer_.get(),
                      meterScope_.has_value());
    sync_.emplace(ranks_, device_, stop_);
    injectNan_ = injectedNanSteps();
    epochsDone_ = state_.epoch - 1;
    choosePaths();
}

void TrainingRun::choosePaths()
{
    // A data-parallel run's ranks measure the same number of steps, add up their times and ignore the
    // cache, so that they all keep the same path: their updates must stay identical.
    const auto forced = PathChoice::forcedPaths();
    paths_.emplace(forced, ranks_ ? 8 : 0);
    if (ranks_)
        paths_->setAgreement([this](std::vector<double>& medians) {
            auto t = torch::tensor(medians, torch::kFloat64).to(device_);
            ranks_->allreduceSum({t});
            t = t.cpu();
            std::copy(t.data_ptr<double>(), t.data_ptr<double>() + t.numel(), medians.begin());
        });
    std::vector<PathChoice::Path> candidates;
    // The hand-written step takes a step of one micro-batch (TrainStep::run).
    if (step_->hasMlpStep() && config_.train.accumulate == 1)
        candidates.push_back({"mlp_step", StepPart::Compute, [this](bool own) { step_->preferMlpStep(own); }});
    // The fused blocks take channels-last fp32 on the CPU (PoolRelu.h); elsewhere they never run.
    if (device_.is_cpu() && channelsLast_ && registryEntry(config_.train.precision).ownFp32Paths() && model_->hasOwnBlocks())
        candidates.push_back({"fused_blocks", StepPart::Compute, [this](bool own) { model_->setOwnBlocks(own); }});
    // A TorchScript module's convolutions channels-last, as the built-in ones run: its weights, and
    // then the batches, where channelsLastDenied() finds nothing against it; a forced layout that
    // cannot be taken is recorded as such, not dropped. A resumed run keeps the layout it trained in:
    // its optimizer's state (momentum) is stored in it, and another CPU may measure the other way.
    PathChoice::Path layout{"channels_last", StepPart::Compute, [this](bool own) {
                                model_->setChannelsLast(own);
                                channelsLast_ = own;
                                augment_.channelsLast = own;
                            }};
    const std::string layoutDenied = channelsLastDenied();
    if (layoutDenied.empty() && resume_ && !paths_->forced(layout.name))
        paths_->addKnown(layout, resume_->channelsLast, 0, 0, "resumed");
    else if (layoutDenied.empty())
        candidates.push_back(layout);
    else if (const auto f = forced.find(layout.name); f != forced.end() && f->second && model_->isScript())
        paths_->addDenied(layout.name, layout.part, layoutDenied);
    auto* sgd = dynamic_cast<FusedSgd*>(optimizer_.get());
    if (sgd && device_.is_cpu() && sgd->fuses())
        candidates.push_back({"fused_sgd", StepPart::Optimizer, [sgd](bool own) { sgd->setOnePass(own); }});
    measurePaths(*paths_, candidates,
                 {*step_, *model_, *optimizer_, device_, [this] { return firstBatch(); }, ranks_ == nullptr, !meterScope_,
                  pathSignature(*model_, config_)},
                 [this](const OomRetry& r) { (*oom_)(r, *step_); });
    recordPaths();
}

std::string TrainingRun::channelsLastDenied()
{
    // Not under a memory budget (its fitting is made in one layout) nor across ranks (their gradient
    // buckets keep the layout they were made with); and only where the module gives the same scores
    // in that layout (Model::runsChannelsLast).
    if (!device_.is_cpu())
        return "only on the CPU";
    if (meterScope_)
        return "not under a memory budget";
    if (ranks_)
        return "not across data-parallel ranks";
    if (!model_->runsChannelsLast(device_, data_.channels(), data_.height(), data_.width()))
        return "the module does not give the same scores channels-last (a view of an activation?)";
    return {};
}

Batch TrainingRun::firstBatch() const
{
    BatchLoader loader(data_.trainX, data_.trainY, config_.data.batchSize, config_.seed, state_.epoch, 0, device_, 0, augment_,
                       Shard{rank_, world_}, sampleWeights_);
    auto b = loader.next();
    return b ? *b : Batch{};
}

void TrainingRun::recordPaths()
{
    if (store_ && recorder_.runId > 0 && rank_ == 0)
        store_->setRunEnvironmentValue(recorder_.runId, "paths", paths_->json());
}

void TrainingRun::run(EndEvent& end)
{
    setUp();
    announce();
    recordData();
    buildParts();
    model_->train(true);
    Interrupt how = Interrupt::None;
    for (int epoch = state_.epoch; epoch <= config_.train.epochs; ++epoch) {
        how = trainEpoch(epoch);
        if (how != Interrupt::None)
            break;
    }
    finish(end, how);
}

TrainingRun::Interrupt TrainingRun::trainEpoch(int epoch)
{
    const auto epochStart = Clock::now();
    const double secondsBefore = state_.trainSeconds;
    if (state_.batchInEpoch == 0) { // not resumed inside this epoch
        state_.epochLossSum = 0;
        state_.epochSamples = 0;
    }
    BatchLoader loader(data_.trainX, data_.trainY, config_.data.batchSize, config_.seed, epoch, config_.data.workers, device_,
                       state_.batchInEpoch, augment_, Shard{rank_, world_}, sampleWeights_);
    // Running sums stay on the device; they are read once per log interval and epoch.
    auto epochLoss = torch::full({}, state_.epochLossSum, torch::TensorOptions(device_).dtype(torch::kFloat64));
    reporter_->beginInterval();
    double epochLr = scheduler_->lr();
    Interrupt interrupt = Interrupt::None;
    while (trainStep(loader, epoch, epochLoss, epochLr, interrupt)) {
    }
    state_.trainSeconds = secondsBefore + secondsSince(epochStart);
    dataWait_ += loader.waitSeconds();
    state_.epochLossSum = epochLoss.item<double>();
    double lossSum = state_.epochLossSum, samples = double(state_.epochSamples);
    if (interrupt == Interrupt::Diverged)
        return interrupt;
    sync_->sumEpoch(lossSum, samples);
    if (interrupt == Interrupt::Stopped) {
        checkpointer_->stoppedInEpoch(epoch);
        return interrupt;
    }
    const bool earlyStop = endEpoch(epoch, lossSum, samples, secondsSince(epochStart), epochLr);
    return interrupt == Interrupt::None && earlyStop ? Interrupt::EarlyStopped : interrupt;
}

bool TrainingRun::trainStep(BatchLoader& loader, int epoch, torch::Tensor& epochLoss, double& epochLr, Interrupt& interrupt)
{
    if (sync_->shouldStop()) {
        interrupt = Interrupt::Stopped;
        return false;
    }
    std::vector<Batch> group;
    for (int a = 0; a < config_.train.accumulate; ++a) {
        auto b = loader.next();
        if (!b)
            break;
        group.push_back(std::move(*b));
    }
    clock_->mark(&PhaseTimes::data);
    if (group.empty())
        return false;
    int64_t groupSamples = 0;
    for (const auto& b : group)
        groupSamples += b.x.size(0);

    const double lr = scheduler_->lr() * state_.lrScale;
    epochLr = lr;
    setLearningRate(*optimizer_, lr);
    if (const double m = scheduler_->momentum(); m >= 0)
        setMomentum(*optimizer_, config_.optimizer.kind, m);
    clock_->mark(&PhaseTimes::optimizer);
    const bool scaled = registryEntry(config_.train.precision).scalesLoss;
    torch::Tensor loss =
        step_->run(group, scaled ? scaler_.scale : 1.0, *clock_, [this](const OomRetry& r) { (*oom_)(r, *step_); });
    // From here to the step's end counts as the optimizer's part.
    if (injectNan_.erase(state_.step + 1)) // ENTRENA_TEST_NAN_AT_STEPS, once each: a transient fault
        loss = loss * std::nan("");
    const int64_t logEvery = config_.train.logEvery;
    // Epochs shorter than log_every (a small table) log each epoch's last step too: else a run of a
    // few dozen steps logged one point, or none, and its charts stayed empty.
    const bool epochEnds = state_.batchInEpoch + int64_t(group.size()) >= loader.batches();
    const bool logStep =
        (state_.step + 1) % logEvery == 0 || state_.step + 1 == totalSteps_ || (stepsPerEpoch_ < logEvery && epochEnds);
    // Data-parallel, at log steps: every rank's loss, stop request and memory, in one collective.
    // The loss reported and guarded is the global batch's.
    double globalLoss = 0;
    std::vector<int64_t> rankMemory;
    if (ranks_ && logStep)
        globalLoss = sync_->exchangeAtLog(loss.item<double>(), rankMemory);
    if (guard_->checks(logStep)) {
        const double value = ranks_ ? globalLoss : loss.item<double>();
        const auto rollback = guard_->check(value, state_.step + 1);
        if (rollback || guard_->diverged()) {
            state_.batchInEpoch += int64_t(group.size()); // the bad batch is skipped, not counted as a step
            if (guard_->diverged()) {
                interrupt = Interrupt::Diverged;
                return false;
            }
            recorder_.notice({"rollback", state_.step + 1, epoch, rollback->message});
            clock_->mark(&PhaseTimes::optimizer);
            return true;
        }
    }
    takeStep();
    state_.batchInEpoch += int64_t(group.size());
    epochLoss += loss.to(torch::kFloat64) * double(groupSamples);
    state_.epochSamples += groupSamples;
    state_.samplesSeen += groupSamples;
    reporter_->countStep(groupSamples);
    clock_->mark(&PhaseTimes::optimizer);
    if (logStep)
        reporter_->report(state_.step, epoch, ranks_ ? globalLoss : loss.item<double>(), lr, std::move(rankMemory));
    if (config_.train.maxSteps > 0 && state_.step >= config_.train.maxSteps) {
        interrupt = Interrupt::StepLimit;
        return false;
    }
    return true;
}

void TrainingRun::takeStep()
{
    bool stepTaken = true;
    if (registryEntry(config_.train.precision).scalesLoss) {
        stepTaken = scaler_.unscaleAndCheck(model_->parameters());
        scaler_.update(stepTaken);
        state_.lossScale = scaler_.scale;
        state_.lossScaleGoodSteps = scaler_.goodSteps;
    }
    if (stepTaken) {
        if (config_.train.gradClip > 0)
            torch::nn::utils::clip_grad_norm_(model_->parameters(), config_.train.gradClip);
        optimizer_->step();
    }
    scheduler_->stepBatch();
    ++state_.step;
    guard_->stepTaken(state_.step, config_.train.logEvery);
}

bool TrainingRun::endEpoch(int epoch, double lossSum, double samples, double seconds, double lr)
{
    const bool hasVal = data_.valX.size(0) > 0;
    const Evaluation val = (*evaluator_)(data_.valX, data_.valY);
    EpochEvent e;
    e.epoch = epoch;
    e.trainLoss = samples > 0 ? lossSum / samples : 0.0;
    e.valLoss = val.loss;
    e.valAccuracy = val.accuracy;
    finalTrainLoss_ = e.trainLoss;
    epochsDone_ = epoch;
    const bool isBest = hasVal && val.accuracy > state_.bestVal;
    if (hasVal)
        state_.bestVal = std::max(state_.bestVal, val.accuracy);

    const Metric watched = config_.scheduler.metric;
    const double before = scheduler_->lr();
    if (scheduler_->stepEpoch(watchedMetric(watched, e, hasVal))) {
        char msg[160];
        std::snprintf(msg, sizeof msg, "%s stopped improving: learning rate %.6g -> %.6g", toString(watched), before,
                      scheduler_->lr());
        recorder_.notice({"lr_reduced", state_.step, epoch, msg});
    }
    e.lr = lr;
    e.seconds = seconds;
    e.step = state_.step;
    recorder_.epoch(e, state_.step);
    // Not when train.max_steps cut the first epoch short: that is not an epoch's worth of steps. (A
    // divergence rollback also leaves the epoch with fewer steps, and there the verdict matters most.)
    const bool cutShort = config_.train.maxSteps > 0 && state_.step >= config_.train.maxSteps && state_.step < stepsPerEpoch_;
    if (!cutShort)
        if (const auto why = learningCheck_.epochEnded(epoch, e.trainLoss, val.accuracy, hasVal, data_.classes))
            recorder_.notice({"not_learning", state_.step, epoch, *why});

    std::optional<std::string> earlyStop;
    if (hasVal && (earlyStop = earlyStopper_->epochEnded(val.loss, val.accuracy)))
        recorder_.notice({"early_stop", state_.step, epoch, *earlyStop});

    // The next state starts the next epoch.
    state_.epoch = epoch + 1;
    state_.batchInEpoch = 0;
    state_.epochLossSum = 0;
    state_.epochSamples = 0;
    const bool stepLimit = config_.train.maxSteps > 0 && state_.step >= config_.train.maxSteps;
    const bool last = stepLimit || earlyStop || epoch == config_.train.epochs;
    checkpointer_->epochEnded(epoch, val.accuracy, isBest, last, config_.train.checkpointEvery);
    return earlyStop.has_value();
}

void TrainingRun::finish(EndEvent& end, Interrupt how)
{
    const bool diverged = how == Interrupt::Diverged, stopped = how == Interrupt::Stopped;
    end.status = diverged ? RunStatus::Diverged : stopped ? RunStatus::Stopped : RunStatus::Finished;
    if (diverged)
        end.error = guard_->divergedWhy();
    end.bestValAccuracy = state_.bestVal;
    if (!stopped && !diverged && epochsDone_ > 0) {
        evaluateClasses(end);
        scoreBestWeights(end);
    }
    end.samplesPerSec = state_.trainSeconds > 0 ? double(state_.samplesSeen * world_) / state_.trainSeconds : 0;
    end.trainSeconds = state_.trainSeconds;
    end.dataWaitSeconds = dataWait_;
    end.loggingSeconds = reporter_->loggingSeconds();
}

void TrainingRun::scoreBestWeights(EndEvent& end)
{
    // test_accuracy is the figure of the weights predict, Try it and export use unless told otherwise:
    // the best checkpoint's. The last weights' figure stays beside it where they differ. (Data-parallel
    // runs score on every rank together; only rank 0 has the store: they keep the last weights' figure.)
    if (end.testAccuracy < 0 || !store_ || !checkpoints_ || ranks_)
        return;
    const auto best = chooseCheckpoint(*store_, recorder_.runId, "best");
    if (!best || best->step == state_.step)
        return;
    std::vector<torch::Tensor> last;
    for (const auto& [name, t] : model_->namedTensors())
        last.push_back(t.detach().clone());
    double scored = -1;
    try {
        loadModelWeights(best->path, best->checksum, *model_);
        const Confusion c = evaluator_->confusion(data_.testX, data_.testY, data_.classes, 0);
        scored = double(c.counts.trace().item<int64_t>()) / double(std::max<int64_t>(1, data_.testX.size(0)));
    } catch (const std::exception&) {
        // A best checkpoint that cannot be read (removed, damaged): the last weights' figure stands.
    }
    torch::NoGradGuard noGrad; // the run ends with its last weights, whatever happened above
    size_t i = 0;
    for (const auto& [name, t] : model_->namedTensors())
        t.copy_(last[i++]);
    if (scored < 0)
        return;
    if (scored != end.testAccuracy)
        end.testAccuracyLast = end.testAccuracy;
    end.testAccuracy = scored;
}

void TrainingRun::evaluateClasses(EndEvent& end)
{
    const bool test = data_.testX.size(0) > 0;
    const Samples& x = test ? data_.testX : data_.valX;
    const torch::Tensor& y = test ? data_.testY : data_.valY;
    const std::vector<std::string>& files = test ? data_.testFiles : data_.valFiles;
    if (x.size(0) == 0)
        return;
    const bool images = registryEntry(config_.data.dataset).images;
    Confusion c = evaluator_->confusion(x, y, data_.classes, images ? 12 : 0);
    end.evaluation = reportOf(c.counts, data_.classNames, test ? "test" : "validation");
    if (test) // the test accuracy is the confusion matrix's diagonal: no second pass over the split
        end.testAccuracy = double(c.counts.trace().item<int64_t>()) / double(std::max<int64_t>(1, x.size(0)));
    // Each wrong example names its original file (image folders); its picture is written beside the
    // run's checkpoints when there is a store to keep it.
    const bool keepPictures = store_ && checkpoints_;
    std::filesystem::path dir;
    if (keepPictures) {
        dir = store_->runFolder(recorder_.runId);
        std::filesystem::create_directories(dir);
    }
    for (size_t i = 0; i < c.wrong.size(); ++i) {
        WrongExample w = c.wrong[i];
        if (size_t(w.index) < files.size())
            w.file = files[size_t(w.index)];
        if (keepPictures) {
            torch::Tensor pixels = x.range(w.index, w.index + 1)[0];
            if (pixels.scalar_type() != torch::kUInt8) // grey IDX images, normalised over all pixels
                pixels = pixels.mul(data_.std).add(data_.mean).mul(255.0).round().clamp(0, 255).to(torch::kUInt8);
            w.image = (dir / ("wrong-" + std::to_string(i + 1) + ".png")).string();
            writePng(w.image, pixels);
        }
        end.evaluation.wrong.push_back(w);
    }
}

} // namespace entrena
