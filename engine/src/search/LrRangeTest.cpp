#include "search/LrRangeTest.h"

#include "data/BatchLoader.h"
#include "entrena/config/Registry.h"
#include "optim/Optimizers.h"
#include "train/Snapshot.h"

#include <cmath>
#include <stdexcept>

namespace entrena {

LrFinderResult rangeTest(Model& model, torch::optim::Optimizer& optimizer, const DataSplits& data, const RunConfig& c,
                         const torch::Device& device, const LrFinderOptions& o, const StopToken& stop,
                         const std::function<void(int, double, double)>& progress)
{
    if (!(o.startLr > 0) || !(o.endLr > o.startLr) || o.steps < 5)
        throw std::runtime_error("the learning-rate range must grow from a positive start (got " + std::to_string(o.startLr) +
                                 " to " + std::to_string(o.endLr) + " over " + std::to_string(o.steps) +
                                 " steps); give e.g. 1e-6 to 10 over 100 steps");
    // Snapshot: every parameter and buffer, the optimizer's state and rates. Restored however
    // the sweep ends (the Lightning finder's best-known bug was not doing so).
    Snapshot snapshot;
    snapshot.take(model, optimizer);
    const bool wasTraining = model.isScript() ? model.script().is_training() : model.sequential()->is_training();
    auto restore = [&] {
        snapshot.restore(model, optimizer, device);
        model.train(wasTraining);
    };

    LrFinderResult r;
    try {
        model.train(true);
        // The task's plain loss (no smoothing, no class weights), as the curve has always been.
        const TaskEntry& task = registryEntry(c.data.task);
        const TrainSpec plain;
        // Its own loader on its own seed: the run's data order is not touched.
        int64_t epoch = 1;
        auto loader = std::make_unique<BatchLoader>(data.trainX, data.trainY, c.data.batchSize, c.seed + 7919, epoch, 0, device);
        double best = INFINITY;
        for (int i = 0; i < o.steps && !stop.stopRequested(); ++i) {
            const double lr = o.startLr * std::pow(o.endLr / o.startLr, double(i) / double(o.steps - 1));
            auto batch = loader->next();
            if (!batch) {
                loader =
                    std::make_unique<BatchLoader>(data.trainX, data.trainY, c.data.batchSize, c.seed + 7919, ++epoch, 0, device);
                batch = loader->next();
            }
            setLearningRate(optimizer, lr);
            optimizer.zero_grad();
            auto loss = task.trainLoss(model.forward(batch->x), batch->y, plain, at::Tensor());
            const double value = loss.item<double>();
            if (!std::isfinite(value)) {
                r.diverged = true;
                break;
            }
            loss.backward();
            optimizer.step();
            r.lrs.push_back(lr);
            r.losses.push_back(value);
            r.smoothed = smoothLosses(r.losses, o.beta);
            if (progress)
                progress(i + 1, lr, value);
            best = std::min(best, r.smoothed.back());
            if (i >= 5 && r.smoothed.back() > o.divergeFactor * best) {
                r.diverged = true;
                break;
            }
        }
    } catch (...) {
        restore();
        throw;
    }
    restore();
    // The live curve (above) only decides when to stop; the finished one is read without lag.
    r.smoothed = smoothFinishedSweep(r.losses);
    if (r.lrs.size() >= 5)
        r.suggestion = suggestLearningRate(r.lrs, r.smoothed);
    return r;
}

} // namespace entrena
