// `entrena-cli export` (docs/export.md): a run's weights (.pt, .safetensors) or its metrics (CSV, JSON).
#include "Commands.h"
#include "entrena/export/Export.h"
#include "entrena/store/AtomicFile.h"
#include "entrena/store/RunStore.h"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>

namespace entrena::cli {
namespace {

// Writes `text` to `path` through a temporary file and a rename: never a partial file.
void writeAtomically(const std::string& path, const std::string& text)
{
    AtomicFile file(path);
    file.write(text);
    file.commit();
}

} // namespace

int exportRun(const CliOptions& o)
{
    RunStore store(dbPath(o));
    const auto run = store.findRun(o.run);
    if (!run)
        throw UsageError("no run '" + o.run + "' in " + store.path() + "; `entrena-cli runs` lists them", "export");
    if (!o.checkpoint.empty()) {
        const ExportResult r = exportCheckpoint(store, run->id, o.checkpoint, o.out);
        std::printf("wrote %s (%s, %d tensors, from %s)\n", r.file.c_str(), r.format.c_str(), r.tensors, r.checkpoint.c_str());
        if (r.testAccuracy >= 0)
            std::printf("test accuracy of the exported weights: %.2f%%\n", r.testAccuracy * 100.0);
        std::printf("wrote %s (configuration, metrics, normalisation)\n", r.sidecar.c_str());
        return 0;
    }
    std::ostringstream text;
    text.precision(17);
    if (o.metrics == "csv") {
        // Long form, one row per stored value: exactly what the store holds.
        text << "key,step,epoch,wall_time,value\n";
        for (const auto& key : store.metricKeys(run->id)) {
            for (const auto& m : store.metrics(run->id, key))
                text << key << ',' << m.step << ',' << m.epoch << ',' << m.wallTime << ',' << m.value << '\n';
        }
    } else {
        nlohmann::json metrics = nlohmann::json::object();
        for (const auto& key : store.metricKeys(run->id)) {
            nlohmann::json series = nlohmann::json::array();
            for (const auto& m : store.metrics(run->id, key))
                series.push_back({{"step", m.step}, {"epoch", m.epoch}, {"wall_time", m.wallTime}, {"value", m.value}});
            metrics[key] = series;
        }
        nlohmann::json events = nlohmann::json::array();
        for (const auto& e : store.events(run->id))
            events.push_back({{"step", e.step}, {"time", e.time}, {"kind", e.kind}, {"message", e.message}});
        nlohmann::json config = nlohmann::json::parse(run->configJson, nullptr, false);
        // The data's classes and shape, and what the model got wrong at the end (null before schema 6).
        const auto parsed = [](const std::string& text) {
            const auto j = nlohmann::json::parse(text, nullptr, false);
            return j.is_discarded() ? nlohmann::json(nullptr) : j;
        };
        const nlohmann::json data = parsed(run->dataJson);
        const nlohmann::json doc = {
            {"run",
             {{"id", run->id},
              {"uuid", run->uuid},
              {"name", run->name},
              {"status", toString(run->status)},
              {"created", run->created},
              {"config", config.is_discarded() ? nlohmann::json(nullptr) : config},
              {"best_val_accuracy", optional(run->bestValAccuracy)},
              {"test_accuracy", optional(run->testAccuracy)},
              {"classes", data.is_object() ? data.value("classes", nlohmann::json(nullptr)) : nlohmann::json(nullptr)},
              {"input_shape", data.is_object() ? data.value("input_shape", nlohmann::json(nullptr)) : nlohmann::json(nullptr)}}},
            {"metrics", metrics},
            {"events", events},
            {"evaluation", parsed(run->evaluationJson)}};
        text << doc.dump(1) << "\n";
    }
    writeAtomically(o.out, text.str());
    return 0;
}

} // namespace entrena::cli
