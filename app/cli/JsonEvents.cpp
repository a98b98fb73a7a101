#include "JsonEvents.h"

#include <cmath>
#include <nlohmann/json.hpp>

namespace entrena::cli {
namespace {

using nlohmann::json;

// JSON has no NaN or infinity: a value that is not finite is written as null.
json number(double v)
{
    return std::isfinite(v) ? json(v) : json(nullptr);
}
json measured(double v)
{
    return v >= 0 ? number(v) : json(nullptr);
}

} // namespace

void JsonEvents::write(const std::string& line)
{
    std::fputs(line.c_str(), out_);
    std::fputc('\n', out_);
    std::fflush(out_);
}

void JsonEvents::onStart(const StartEvent& e)
{
    json j{{"event", "start"},
           {"run_id", e.runId},
           {"name", e.name},
           {"world_size", e.worldSize},
           {"device", e.device},
           {"epochs", e.epochs},
           {"total_steps", e.totalSteps},
           {"parameters", e.parameters},
           {"flops_per_sample", e.flopsPerSample},
           {"precision", e.precision},
           {"classes", e.classes},
           {"input_shape", e.inputShape},
           {"train_samples", e.trainSamples},
           {"val_samples", e.valSamples},
           {"balance", e.balance}};
    if (!e.classWeights.empty())
        j["class_weights"] = e.classWeights;
    if (e.folds > 1) {
        j["folds"] = e.folds;
        j["fold"] = e.fold;
    }
    write(j.dump());
}

void JsonEvents::onStep(const StepEvent& e)
{
    json j{{"event", "step"},
           {"step", e.step},
           {"epoch", e.epoch},
           {"loss", number(e.loss)},
           {"lr", number(e.lr)},
           {"samples_per_s", number(e.samplesPerSec)},
           {"memory_bytes", e.memoryBytes}};
    if (e.deviceAllocated >= 0) {
        j["device_allocated_bytes"] = e.deviceAllocated;
        j["device_reserved_bytes"] = e.deviceReserved;
        j["device_peak_bytes"] = e.devicePeak;
        j["device_total_bytes"] = e.deviceTotal;
    }
    if (e.deviceUsed >= 0)
        j["device_used_bytes"] = e.deviceUsed;
    if (e.deviceUtilization >= 0)
        j["device_utilization"] = e.deviceUtilization;
    const PhaseTimes& p = e.phases;
    j["step_seconds"] = number(e.stepSeconds);
    j["timing"] = {{"data", number(p.data)},           {"forward", number(p.forward)}, {"backward", number(p.backward)},
                   {"optimizer", number(p.optimizer)}, {"comm", number(p.comm)},       {"logging", number(p.logging)}};
    j["mfu"] = measured(e.mfu);
    if (e.stepPeakBytes >= 0)
        j["step_peak_bytes"] = e.stepPeakBytes;
    if (!e.rankMemoryBytes.empty())
        j["rank_memory_bytes"] = e.rankMemoryBytes;
    if (e.commBusySeconds >= 0)
        j["comm_busy_seconds"] = number(e.commBusySeconds);
    write(j.dump());
}

void JsonEvents::onEpoch(const EpochEvent& e)
{
    write(json{{"event", "epoch"},
               {"epoch", e.epoch},
               {"step", e.step},
               {"train_loss", number(e.trainLoss)},
               {"val_loss", number(e.valLoss)},
               {"val_accuracy", number(e.valAccuracy)},
               {"lr", number(e.lr)},
               {"seconds", number(e.seconds)}}
              .dump());
}

void JsonEvents::onNotice(const NoticeEvent& e)
{
    write(json{{"event", e.kind}, {"step", e.step}, {"epoch", e.epoch}, {"message", e.message}}.dump());
    // What the person must act on goes to stderr too, where a script's log of stdout does not hide it.
    if (e.kind == "data_warning" || e.kind == "not_learning")
        std::fprintf(stderr, "entrena-cli: %s: %s\n", e.kind.c_str(), e.message.c_str());
}

void JsonEvents::onEnd(const EndEvent& e)
{
    json j{{"event", "end"},
           {"status", toString(e.status)},
           {"test_accuracy", measured(e.testAccuracy)},
           {"best_val_accuracy", measured(e.bestValAccuracy)},
           {"seconds", number(e.seconds)},
           {"samples_per_s", number(e.samplesPerSec)},
           {"train_seconds", number(e.trainSeconds)},
           {"data_wait_seconds", number(e.dataWaitSeconds)},
           {"logging_seconds", number(e.loggingSeconds)},
           {"error", e.error.empty() ? json(nullptr) : json(e.error)}};
    if (e.testAccuracyLast >= 0) // the last weights, where they are not the best checkpoint's
        j["test_accuracy_last"] = e.testAccuracyLast;
    if (!e.evaluation.empty()) {
        // What the model gets wrong: rows the true class, columns the predicted, in `classes` order.
        const json report = json::parse(evaluationToJson(e.evaluation));
        j["evaluated"] = report["split"];
        j["classes"] = report["classes"];
        j["confusion"] = report["confusion"];
        j["per_class"] = report["per_class"];
        // Image data: the most confidently wrong samples, each with its original file where it has one.
        if (!report["wrong"].empty())
            j["wrong"] = report["wrong"];
    }
    write(j.dump());
}

} // namespace entrena::cli
