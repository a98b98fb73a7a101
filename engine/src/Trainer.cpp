#include "entrena/Trainer.h"

#include "BatchLoader.h"
#include "Dataset.h"
#include "Environment.h"
#include "Models.h"
#include "Optimizers.h"
#include "entrena/LrScheduler.h"
#include "entrena/RunStore.h"
#include "entrena/Runtime.h"

#include <torch/torch.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>

namespace entrena {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

struct Evaluation {
    double loss = 0;
    double accuracy = 0;
};

// Loss and accuracy over a whole split, in large batches, without gradients.
Evaluation evaluate(torch::nn::Sequential& model, const torch::Tensor& x, const torch::Tensor& y, torch::Device device)
{
    Evaluation e;
    const int64_t n = x.size(0);
    if (n == 0)
        return e;
    torch::NoGradGuard noGrad;
    model->eval();
    auto lossSum = torch::zeros({}, torch::TensorOptions(device).dtype(torch::kFloat64));
    auto correct = torch::zeros({}, torch::TensorOptions(device).dtype(torch::kInt64));
    constexpr int64_t kChunk = 1000;
    for (int64_t i = 0; i < n; i += kChunk) {
        auto xb = x.slice(0, i, std::min(n, i + kChunk)).to(device);
        auto yb = y.slice(0, i, std::min(n, i + kChunk)).to(device);
        auto logits = model->forward(xb);
        lossSum += torch::nn::functional::cross_entropy(
                       logits, yb, torch::nn::functional::CrossEntropyFuncOptions().reduction(torch::kSum))
                       .to(torch::kFloat64);
        correct += logits.argmax(1).eq(yb).sum();
    }
    model->train();
    e.loss = lossSum.item<double>() / double(n);
    e.accuracy = double(correct.item<int64_t>()) / double(n);
    return e;
}

// Fans the run's events out to the observer and the store.
class Recorder {
public:
    Recorder(TrainingObserver& observer, RunStore* store) : observer_(observer), store_(store) {}

    int64_t runId = 0;

    void step(const StepEvent& e)
    {
        observer_.onStep(e);
        if (store_) {
            store_->addMetric(runId, "train_loss", e.step, e.epoch, e.loss);
            store_->addMetric(runId, "lr", e.step, e.epoch, e.lr);
            store_->addMetric(runId, "samples_per_s", e.step, e.epoch, e.samplesPerSec);
            store_->addMetric(runId, "memory_bytes", e.step, e.epoch, double(e.memoryBytes));
        }
    }

    void epoch(const EpochEvent& e, int64_t step)
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

    void notice(const NoticeEvent& e)
    {
        observer_.onNotice(e);
        if (store_)
            store_->addEvent(runId, e.step, e.kind, e.message);
    }

private:
    TrainingObserver& observer_;
    RunStore* store_;
};

// Model and optimizer state in one file, written to a temporary name and renamed, so that a
// checkpoint on disk is always whole.
int64_t saveCheckpoint(const fs::path& file, torch::nn::Sequential& model, torch::optim::Optimizer& optimizer,
                       int64_t step, int epoch)
{
    fs::create_directories(file.parent_path());
    torch::serialize::OutputArchive archive;
    torch::serialize::OutputArchive modelArchive, optimizerArchive;
    model->save(modelArchive);
    optimizer.save(optimizerArchive);
    archive.write("model", modelArchive);
    archive.write("optimizer", optimizerArchive);
    archive.write("step", torch::tensor(step));
    archive.write("epoch", torch::tensor(int64_t(epoch)));
    const fs::path tmp = file.string() + ".tmp";
    archive.save_to(tmp.string());
    fs::rename(tmp, file);
    return int64_t(fs::file_size(file));
}

std::string describeDevice(const torch::Device& device, int threads)
{
    if (device.is_cuda())
        return "cuda:" + std::to_string(device.index());
    return "cpu (" + std::to_string(threads) + (threads == 1 ? " thread)" : " threads)");
}

} // namespace

Trainer::Trainer(RunConfig config) : config_(std::move(config)) {}

RunResult Trainer::run(TrainingObserver& observer, const StopToken& stop, RunStore* store,
                       const std::string& checkpointDir)
{
    const auto started = Clock::now();
    const RunConfig& c = config_;
    RunResult result;
    EndEvent& end = result.end;
    Recorder rec(observer, store);
    std::optional<double> finalTrainLoss;
    int64_t step = 0;

    const int threads = applyThreadCount(c.devices.threads);
    if (store)
        rec.runId = result.runId = store->createRun(c.name, c.toJson(), environmentJson(threads));

    try {
        torch::Device device(torch::kCPU);
        if (c.devices.type == "cuda") {
            if (!torch::cuda::is_available())
                throw std::runtime_error("devices.type is 'cuda' but no CUDA device is available (this LibTorch is "
                                         "built for CPU only, or no GPU is present); use devices.type 'cpu'");
            const int64_t id = c.devices.ids.empty() ? 0 : c.devices.ids.front();
            if (id >= int64_t(torch::cuda::device_count()))
                throw std::runtime_error("devices.ids names cuda:" + std::to_string(id) + " but only " +
                                         std::to_string(torch::cuda::device_count()) + " CUDA devices exist");
            device = torch::Device(torch::kCUDA, c10::DeviceIndex(id));
        }
        torch::manual_seed(c.seed);

        const DataSplits data = loadData(c.data, c.seed);
        auto model = makeModel(c.model, data.channels(), data.height(), data.width(), data.classes);
        model->to(device);
        auto optimizer = makeOptimizer(c.optimizer, model->parameters());

        const int64_t micro = (data.trainX.size(0) + c.data.batchSize - 1) / c.data.batchSize;
        const int64_t stepsPerEpoch = (micro + c.train.accumulate - 1) / c.train.accumulate;
        int64_t totalSteps = stepsPerEpoch * c.train.epochs;
        if (c.train.maxSteps > 0)
            totalSteps = std::min(totalSteps, c.train.maxSteps);
        LrScheduler scheduler(c.scheduler, c.optimizer.lr, c.train.epochs);

        StartEvent s;
        s.runId = result.runId;
        s.name = c.name;
        s.device = describeDevice(device, threads);
        s.epochs = c.train.epochs;
        s.stepsPerEpoch = stepsPerEpoch;
        s.totalSteps = totalSteps;
        observer.onStart(s);

        double trainSeconds = 0;
        int64_t samplesSeen = 0;
        double bestVal = -1;
        bool stopped = false;
        bool stepLimit = false;
        int epochsDone = 0;
        model->train();

        for (int epoch = 1; epoch <= c.train.epochs && !stopped && !stepLimit; ++epoch) {
            const auto epochStart = Clock::now();
            BatchLoader loader(data.trainX, data.trainY, c.data.batchSize, c.seed, epoch, c.data.workers, device);
            // Running sums stay on the device; they are read once per log interval and epoch.
            auto epochLossSum = torch::zeros({}, torch::TensorOptions(device).dtype(torch::kFloat64));
            int64_t epochSamples = 0;
            auto logStart = Clock::now();
            int64_t logSamples = 0;
            double epochLr = scheduler.lr();

            while (true) {
                if (stop.stopRequested()) {
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
                if (group.empty())
                    break;
                int64_t groupSamples = 0;
                for (const auto& b : group)
                    groupSamples += b.x.size(0);

                const double lr = scheduler.lr();
                epochLr = lr;
                setLearningRate(*optimizer, lr);
                optimizer->zero_grad();
                torch::Tensor stepLoss = torch::zeros({}, torch::TensorOptions(device).dtype(torch::kFloat32));
                for (auto& b : group) {
                    auto loss = torch::nn::functional::cross_entropy(model->forward(b.x), b.y);
                    const double weight = double(b.x.size(0)) / double(groupSamples);
                    (loss * weight).backward();
                    stepLoss += loss.detach() * weight;
                }
                if (c.train.gradClip > 0)
                    torch::nn::utils::clip_grad_norm_(model->parameters(), c.train.gradClip);
                optimizer->step();
                scheduler.stepBatch();
                ++step;
                epochLossSum += stepLoss.to(torch::kFloat64) * double(groupSamples);
                epochSamples += groupSamples;
                logSamples += groupSamples;
                samplesSeen += groupSamples;

                if (step % c.train.logEvery == 0 || step == totalSteps) {
                    StepEvent e;
                    e.step = step;
                    e.epoch = epoch;
                    e.loss = stepLoss.item<double>();
                    e.lr = lr;
                    e.samplesPerSec = double(logSamples) / std::max(1e-9, secondsSince(logStart));
                    e.memoryBytes = residentMemoryBytes();
                    if (!std::isfinite(e.loss))
                        throw std::runtime_error("the training loss became " + std::to_string(e.loss) + " at step " +
                                                 std::to_string(step) + "; lower optimizer.lr or set train.grad_clip");
                    rec.step(e);
                    logStart = Clock::now();
                    logSamples = 0;
                }
                if (c.train.maxSteps > 0 && step >= c.train.maxSteps) {
                    stepLimit = true;
                    break;
                }
            }
            trainSeconds += secondsSince(epochStart);
            if (stopped && epochSamples == 0)
                break;

            const Evaluation val = evaluate(model, data.valX, data.valY, device);
            EpochEvent e;
            e.epoch = epoch;
            e.trainLoss = epochSamples ? epochLossSum.item<double>() / double(epochSamples) : 0.0;
            e.valLoss = val.loss;
            e.valAccuracy = val.accuracy;
            finalTrainLoss = e.trainLoss;
            epochsDone = epoch;
            const bool hasVal = data.valX.size(0) > 0;
            if (hasVal)
                bestVal = std::max(bestVal, val.accuracy);

            if (!stopped) {
                const std::string& m = c.scheduler.metric;
                const double metric = m == "val_accuracy" ? val.accuracy : m == "train_loss" || !hasVal ? e.trainLoss : val.loss;
                const double before = scheduler.lr();
                if (scheduler.stepEpoch(metric)) {
                    char msg[160];
                    std::snprintf(msg, sizeof msg, "%s stopped improving: learning rate %.6g -> %.6g", m.c_str(), before,
                                  scheduler.lr());
                    rec.notice({"lr_reduced", step, epoch, msg});
                }
            }
            e.lr = epochLr;
            e.seconds = secondsSince(epochStart);
            rec.epoch(e, step);

            if (!checkpointDir.empty() && store) {
                const bool last = stopped || stepLimit || epoch == c.train.epochs;
                const bool periodic = c.train.checkpointEvery > 0 && epoch % c.train.checkpointEvery == 0;
                if (last || periodic) {
                    const fs::path file = fs::path(checkpointDir) / ("run-" + std::to_string(result.runId)) /
                                           ("epoch-" + std::to_string(epoch) + ".pt");
                    CheckpointRecord cp;
                    cp.step = step;
                    cp.epoch = epoch;
                    cp.path = file.string();
                    cp.metric = val.accuracy;
                    cp.isBest = hasVal && val.accuracy >= bestVal;
                    cp.bytes = saveCheckpoint(file, model, *optimizer, step, epoch);
                    store->addCheckpoint(result.runId, cp);
                    rec.notice({"checkpoint", step, epoch, "saved " + file.string()});
                }
            }
        }

        end.status = stopped ? RunStatus::Stopped : RunStatus::Finished;
        end.bestValAccuracy = bestVal;
        if (!stopped && epochsDone > 0)
            end.testAccuracy = evaluate(model, data.testX, data.testY, device).accuracy;
        end.samplesPerSec = trainSeconds > 0 ? double(samplesSeen) / trainSeconds : 0;
    } catch (const c10::Error& e) {
        end.status = RunStatus::Failed;
        end.error = e.what_without_backtrace();
    } catch (const std::exception& e) {
        end.status = RunStatus::Failed;
        end.error = e.what();
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
