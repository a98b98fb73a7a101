#include "charts/RunHistory.h"

#include "charts/LiveCharts.h"
#include "entrena/store/RunStore.h"

#include <QVector>

#include <map>

namespace entrena::ui {

int showRunHistory(LiveCharts* charts, const std::string& dbPath, int64_t runId)
{
    try {
        RunStore store(dbPath);
        const auto checkpoints = store.checkpoints(runId);
        if (checkpoints.empty())
            return 0;
        int64_t until = 0; // the resume starts from the latest checkpoint; what follows it is redone
        for (const auto& c : checkpoints)
            until = std::max(until, c.step);
        std::map<int64_t, StepEvent> steps;
        const auto read = [&](const char* key, auto set) {
            for (const MetricPoint& m : store.metrics(runId, key)) {
                if (m.step > until)
                    continue;
                StepEvent& e = steps[m.step];
                e.step = m.step;
                e.epoch = m.epoch;
                set(e, m.value);
            }
        };
        read("train_loss", [](StepEvent& e, double v) { e.loss = v; });
        read("lr", [](StepEvent& e, double v) { e.lr = v; });
        read("memory_bytes", [](StepEvent& e, double v) { e.memoryBytes = int64_t(v); });
        QVector<StepEvent> history;
        for (const auto& [step, e] : steps)
            history.push_back(e);
        if (!history.isEmpty())
            charts->addSteps(history);
        // Epochs: their train-loss means, validation loss and accuracy, at the epoch's last step.
        std::map<int, std::pair<int64_t, EpochEvent>> epochs;
        const auto readEpoch = [&](const char* key, auto set) {
            for (const MetricPoint& m : store.metrics(runId, key)) {
                if (m.step > until)
                    continue;
                auto& [step, e] = epochs[m.epoch];
                step = m.step;
                e.epoch = m.epoch;
                set(e, m.value);
            }
        };
        readEpoch("epoch_train_loss", [](EpochEvent& e, double v) { e.trainLoss = v; });
        readEpoch("val_loss", [](EpochEvent& e, double v) { e.valLoss = v; });
        readEpoch("val_accuracy", [](EpochEvent& e, double v) { e.valAccuracy = v; });
        for (const auto& [epoch, entry] : epochs)
            charts->addEpoch(entry.second, entry.first);
        return int(history.size() + epochs.size());
    } catch (const std::exception&) {
        return 0; // the history is a courtesy: the resume itself reports any problem with the store
    }
}

} // namespace entrena::ui
