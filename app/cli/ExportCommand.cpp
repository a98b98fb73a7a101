// `entrena-cli export` (docs/export.md): a run's weights (.pt, .safetensors, .onnx), its metrics
// (CSV, JSON), or the samples of one cell of its confusion matrix (docs/evaluation.md).
#include "Commands.h"
#include "entrena/data/Csv.h"
#include "entrena/export/Export.h"
#include "entrena/export/SplitReview.h"
#include "entrena/store/AtomicFile.h"
#include "entrena/store/RunStore.h"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>

namespace entrena::cli {
namespace {

struct ExportOptions {
    std::string run;
    std::string db;
    std::string checkpoint;
    std::string metrics;
    std::string trueClass, predictedClass; ///< a confusion-matrix cell's samples
    std::string out;
};

// Writes `text` to `path` through a temporary file and a rename: never a partial file.
void writeAtomically(const std::string& path, const std::string& text)
{
    AtomicFile file(path);
    file.write(text);
    file.commit();
}

/// --true CLASS --predicted CLASS: that cell's samples, most confident first, as CSV or JSON.
int exportCell(RunStore& store, const RunRecord& run, const ExportOptions& o)
{
    const SplitReview review = SplitReview::ofRun(store, run.id);
    const auto classIndex = [&](const std::string& name) {
        const auto& classes = review.classes();
        const auto it = std::find(classes.begin(), classes.end(), name);
        if (it == classes.end()) {
            std::string known;
            for (const auto& c : classes)
                known += (known.empty() ? "'" : ", '") + c + "'";
            throw UsageError("run " + std::to_string(run.id) + " has no class '" + name + "'; its classes are " + known,
                             "export");
        }
        return int64_t(it - classes.begin());
    };
    const int64_t t = classIndex(o.trueClass), p = classIndex(o.predictedClass);
    const std::vector<ReviewedSample> samples = review.cell(t, p);
    std::ostringstream text;
    text.precision(17);
    const bool asCsv = o.out.size() >= 4 && o.out.compare(o.out.size() - 4, 4, ".csv") == 0; // else .json (checked)
    if (asCsv) {
        text << "index,file,line,confidence\n";
        for (const ReviewedSample& s : samples)
            text << s.index << ',' << csv::field(s.file) << ',' << (s.line > 0 ? std::to_string(s.line) : "") << ','
                 << s.confidence << '\n';
    } else {
        nlohmann::json list = nlohmann::json::array();
        for (const ReviewedSample& s : samples) {
            nlohmann::json one = {{"index", s.index}, {"confidence", s.confidence}};
            if (!s.file.empty())
                one["file"] = s.file;
            if (s.line > 0)
                one["line"] = s.line;
            list.push_back(std::move(one));
        }
        nlohmann::json doc = {{"run", run.id},
                              {"split", review.split()},
                              {"true", o.trueClass},
                              {"predicted", o.predictedClass},
                              {"checkpoint", review.description()},
                              {"disagreements", review.disagreements()},
                              {"unreadable", review.unreadable()},
                              {"samples", list}};
        if (review.table())
            doc["table"] = review.tableFile();
        text << doc.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    }
    writeAtomically(o.out, text.str());
    std::printf("wrote %s (%zu samples of '%s' predicted as '%s', on the %s split)\n", o.out.c_str(), samples.size(),
                o.trueClass.c_str(), o.predictedClass.c_str(), review.split().c_str());
    if (review.disagreements() > 0 || review.unreadable() > 0)
        std::fprintf(stderr,
                     "note: %lld samples land in another cell than the run's matrix says and %lld could not be read "
                     "again: the data changed since the run\n",
                     (long long)review.disagreements(), (long long)review.unreadable());
    return 0;
}

int exportRun(const ExportOptions& o)
{
    RunStore store(dbPath(o.db));
    const auto run = store.findRun(o.run);
    if (!run)
        throw UsageError("no run '" + o.run + "' in " + store.path() + "; `entrena-cli runs` lists them", "export");
    if (!o.trueClass.empty())
        return exportCell(store, *run, o);
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
                text << csv::field(key) << ',' << m.step << ',' << m.epoch << ',' << m.wallTime << ',' << m.value << '\n';
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

bool endsWith(const std::string& s, const std::string& tail)
{
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

/// What no single option can check: one of the three things to write, and an --out that fits it.
void check(const ExportOptions& o)
{
    const auto fail = [](const std::string& message) { throw UsageError(message, "export"); };
    if (o.run.empty())
        fail("export needs --run RUN");
    if (o.out.empty())
        fail("export needs --out FILE");
    if (o.trueClass.empty() != o.predictedClass.empty())
        fail("a cell is --true CLASS and --predicted CLASS together");
    if (int(!o.checkpoint.empty()) + int(!o.metrics.empty()) + int(!o.trueClass.empty()) != 1)
        fail("export needs one of --checkpoint best|last, --metrics csv|json or --true CLASS --predicted CLASS");
    if (!o.trueClass.empty() && !endsWith(o.out, ".csv") && !endsWith(o.out, ".json"))
        fail("--out for a cell's samples must end in .csv or .json, got '" + o.out + "'");
    if (!o.metrics.empty() && o.metrics != "csv" && o.metrics != "json")
        fail("--metrics must be csv or json, got '" + o.metrics + "'");
    if (!o.checkpoint.empty() && o.checkpoint != "best" && o.checkpoint != "last")
        fail("--checkpoint must be best or last, got '" + o.checkpoint + "'");
    if (!o.checkpoint.empty() && !endsWith(o.out, ".pt") && !endsWith(o.out, ".pth") && !endsWith(o.out, ".safetensors") &&
        !endsWith(o.out, ".onnx"))
        fail("--out for a checkpoint must end in .pt (PyTorch), .safetensors or .onnx, got '" + o.out + "'");
}

Runner declare(CLI::App& app)
{
    auto o = std::make_shared<ExportOptions>();
    text(app, "--run", "RUN", o->run, "the run (id or name)");
    declareDb(app, o->db);
    text(app, "--checkpoint", "best|last", o->checkpoint, "the best checkpoint by validation, or the latest");
    text(app, "--metrics", "csv|json", o->metrics, "every stored metric value instead of weights");
    text(app, "--true", "CLASS", o->trueClass, "with --predicted: the samples of this true class ...");
    text(app, "--predicted", "CLASS", o->predictedClass, "... that the model predicted as this class, most confident first");
    text(app, "--out", "FILE", o->out,
         "where to write: .pt, .safetensors or .onnx for weights (and FILE.json beside it); .csv or .json for a cell's "
         "samples");
    afterParse(app, [o] { check(*o); });
    return [o](const Invocation&) { return exportRun(*o); };
}

} // namespace

CommandInfo exportCommand()
{
    return {"export",
            "--run RUN [--db FILE] (--checkpoint best|last | --metrics csv|json | --true CLASS --predicted CLASS) "
            "--out FILE",
            "write a run's weights, its metrics, or the samples of a confusion-matrix cell to a file",
            "The file is written to a temporary name and renamed: never a partial file. A cell's samples are "
            "those of the split the run's end evaluated, classified again by its last checkpoint, each with its "
            "original file (image folders) or line (CSV tables); see docs/evaluation.md.",
            &declare};
}

} // namespace entrena::cli
