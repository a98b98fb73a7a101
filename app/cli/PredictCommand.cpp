// `entrena-cli predict` (docs/predict.md): a trained model on new images or table rows, as text, CSV or
// one JSON document, with accuracy and the confusion matrix when the inputs' classes are known.
#include "Commands.h"
#include "ProgressBar.h"
#include "entrena/data/Csv.h"
#include "entrena/export/Predict.h"
#include "entrena/store/AtomicFile.h"
#include "entrena/store/RunStore.h"
#include "entrena/system/Runtime.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <thread>

namespace entrena::cli {

namespace {

using nlohmann::json;

struct PredictOptions {
    std::vector<std::string> inputs; ///< image files, folders, CSV tables
    std::string run;
    std::string checkpoint;
    std::string db;
    std::string model; ///< an exported .pt (with its .json) instead of --run
    int top = 3;       ///< classes per input
    bool json = false;
    bool csv = false; ///< CSV instead of text
    std::string out;
};

std::string percent(double p)
{
    return format("%.1f%%", p * 100.0);
}

std::string asCsv(const PredictionReport& r, int top)
{
    std::ostringstream out;
    out.precision(9);
    out << "input,true_class";
    for (int j = 1; j <= top; ++j)
        out << ",class_" << j << ",probability_" << j;
    out << '\n';
    for (const Prediction& p : r.predictions) {
        out << csv::field(p.input) << ',' << (p.truth >= 0 ? csv::field(r.classes[size_t(p.truth)]) : std::string());
        for (const RankedClass& c : p.top)
            out << ',' << csv::field(c.name) << ',' << c.probability;
        out << '\n';
    }
    return out.str();
}

json asJson(const PredictionReport& r, const Predictor& model, const PredictOptions& o, int top)
{
    json predictions = json::array();
    for (const Prediction& p : r.predictions) {
        json ranked = json::array();
        for (const RankedClass& c : p.top)
            ranked.push_back({{"class", c.name}, {"index", c.index}, {"probability", c.probability}});
        json one = {{"input", p.input}, {"top", ranked}, {"true", p.truth >= 0 ? json(r.classes[size_t(p.truth)]) : json()}};
        if (p.line > 0)
            one["line"] = p.line;
        predictions.push_back(one);
    }
    json skipped = json::array();
    for (const SkippedInput& s : r.skipped)
        skipped.push_back({{"input", s.input}, {"reason", s.reason}});
    return {{"model",
             {{"description", model.description()},
              {"run", o.run.empty() ? json() : json(o.run)},
              {"file", o.model.empty() ? json() : json(o.model)}}},
            {"classes", r.classes},
            {"top", top},
            {"predictions", predictions},
            {"skipped", skipped},
            {"labelled", r.labelled},
            {"accuracy", r.labelled > 0 ? json(r.accuracy()) : json()},
            {"confusion", r.labelled > 0 ? json(r.confusion) : json()},
            {"unknown_labels", r.unknownLabels}};
}

/// Rows: true class, named and numbered; columns: predicted, headed by the same numbers. Classes that
/// no input has and no prediction named are left out (two images made a 10 × 10 matrix of zeros).
std::string confusionText(const PredictionReport& r)
{
    std::vector<size_t> shown;
    for (size_t i = 0; i < r.classes.size(); ++i) {
        int64_t seen = 0;
        for (size_t j = 0; j < r.classes.size(); ++j)
            seen += r.confusion[i][j] + r.confusion[j][i];
        if (seen > 0)
            shown.push_back(i);
    }
    size_t nameWidth = 0;
    for (const size_t i : shown)
        nameWidth = std::max(nameWidth, r.classes[i].size());
    std::ostringstream out;
    out << "confusion matrix (rows: true class, columns: predicted class, by the rows' numbers";
    if (shown.size() < r.classes.size())
        out << "; " << r.classes.size() - shown.size() << " classes with no input and no prediction left out";
    out << "):\n" << std::string(nameWidth + 8, ' ');
    for (const size_t j : shown)
        out << format("%6zu", j + 1);
    out << '\n';
    for (const size_t i : shown) {
        out << "  " << format("%3zu ", i + 1) << r.classes[i] << std::string(nameWidth - r.classes[i].size() + 2, ' ');
        for (const size_t j : shown)
            out << format("%6lld", static_cast<long long>(r.confusion[i][j]));
        out << '\n';
    }
    return out.str();
}

std::string asText(const PredictionReport& r, const Predictor& model, int top)
{
    std::ostringstream out;
    out << "# " << model.description() << "; the " << top << " most probable classes of each input\n";
    size_t width = 0;
    for (const Prediction& p : r.predictions)
        width = std::max(width, std::min<size_t>(p.input.size(), 60));
    for (const Prediction& p : r.predictions) {
        out << p.input << std::string(p.input.size() < width ? width - p.input.size() : 0, ' ');
        for (const RankedClass& c : p.top)
            out << "   " << c.name << ' ' << percent(c.probability);
        out << '\n';
    }
    return out.str();
}

/// What was left out, and the score when the inputs' classes were known: for the person (stderr with
/// --json or --csv, after the predictions in text).
std::string summary(const PredictionReport& r)
{
    std::ostringstream out;
    for (const SkippedInput& s : r.skipped)
        out << "skipped " << s.input << ": " << s.reason << '\n';
    out << r.predictions.size() << (r.predictions.size() == 1 ? " input" : " inputs") << " classified";
    if (!r.skipped.empty())
        out << ", " << r.skipped.size() << " skipped";
    out << '\n';
    if (r.labelled > 0) {
        out << format("accuracy %.2f%%", r.accuracy() * 100.0) << " (" << r.correct << " of " << r.labelled
            << " inputs whose class is known)\n";
        out << confusionText(r);
    }
    if (!r.unknownLabels.empty()) {
        out << "labels that name none of the model's classes (not scored):";
        for (const auto& l : r.unknownLabels)
            out << " '" << l << "'";
        out << '\n';
    }
    return out.str();
}

int predict(const PredictOptions& o)
{
    std::optional<Predictor> model;
    if (!o.model.empty()) {
        model.emplace(Predictor::fromExport(o.model));
    } else {
        RunStore store(dbPath(o.db));
        const auto run = store.findRun(o.run);
        if (!run)
            throw UsageError("no run '" + o.run + "' in " + store.path() + "; `entrena-cli runs` lists them", "predict");
        model.emplace(Predictor::fromRun(store, run->id, o.checkpoint));
    }
    const int top = std::min<int>(o.top, int(model->input().classNames.size()));
    // Every core decodes and computes: this process does nothing else.
    const int threads = applyThreadCount(int(std::max(1u, std::thread::hardware_concurrency())));
    ProgressBar bar;
    PredictionReport report;
    try {
        report = model->predict(o.inputs, top, threads, [&](int64_t done, int64_t total) {
            if (bar.enabled())
                bar.draw(total > 0 ? double(done) / double(total) : 1.0,
                         {format("%lld/%lld inputs", (long long)done, (long long)total)});
        });
    } catch (...) {
        bar.clear(); // the message starts on a line of its own
        throw;
    }
    bar.clear();

    std::string text;
    if (o.json)
        // One line, for programs; a file name that is not UTF-8 is kept, its odd bytes replaced.
        text = asJson(report, *model, o, top).dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
    else if (o.csv)
        text = asCsv(report, top);
    else
        text = asText(report, *model, top) + summary(report);
    if (o.out.empty()) {
        std::fwrite(text.data(), 1, text.size(), stdout);
    } else {
        AtomicFile file(o.out);
        file.write(text);
        file.commit();
    }
    if (o.json || o.csv || !o.out.empty())
        std::cerr << (o.json || o.csv ? summary(report) : std::string()) << (o.out.empty() ? "" : "wrote " + o.out + "\n");
    if (report.predictions.empty()) {
        std::cerr << "entrena-cli: nothing could be classified"
                  << (report.skipped.empty() ? ": the inputs hold no row or image" : ": every input was skipped (above)") << "\n";
        return 1;
    }
    return 0;
}

/// What no single option can check: a model from one place, and something to classify.
void check(const PredictOptions& o)
{
    const auto fail = [](const std::string& message) { throw UsageError(message, "predict"); };
    if (o.run.empty() && o.model.empty())
        fail("predict needs either --run RUN or --model FILE.pt");
    if (!o.run.empty() && !o.model.empty())
        fail("give --run RUN or --model FILE.pt, not both");
    if (!o.model.empty() && !o.checkpoint.empty())
        fail("--checkpoint chooses among a run's checkpoints; a --model file is one already");
    if (!o.checkpoint.empty() && o.checkpoint != "best" && o.checkpoint != "last")
        fail("--checkpoint must be best or last, got '" + o.checkpoint + "'");
    if (o.inputs.empty())
        fail("predict needs what to classify: image files, folders of images, or CSV tables");
    if (o.json && o.csv)
        fail("--json and --csv contradict each other: give one");
}

Runner declare(CLI::App& app)
{
    auto o = std::make_shared<PredictOptions>();
    app.add_option("inputs", o->inputs, "image files, folders of images, CSV tables")->type_name("INPUT");
    text(app, "--run", "RUN", o->run, "the run (id or name) whose checkpoint classifies");
    text(app, "--checkpoint", "best|last", o->checkpoint,
         "the best checkpoint by validation (the default, else the latest), or the latest");
    declareDb(app, o->db);
    text(app, "--model", "FILE.pt", o->model, "a model `export` wrote, with its FILE.pt.json beside it, instead of a run");
    whole(app, "--top", "K", o->top, 1, "the K most probable classes of each input (default 3)");
    flag(app, "--json", o->json, "one JSON document: every prediction, what was skipped, accuracy and confusion");
    flag(app, "--csv", o->csv, "one CSV row per input instead of text");
    text(app, "--out", "FILE", o->out, "write the predictions here instead of to stdout");
    afterParse(app, [o] { check(*o); });
    return [o](const Invocation&) { return predict(*o); };
}

} // namespace

CommandInfo predictCommand()
{
    return {"predict",
            "(--run RUN [--checkpoint best|last] [--db FILE] | --model FILE.pt) INPUT... [--top K] [--json|--csv] [--out FILE]",
            "classify image files, folders of them, or the rows of CSV tables with a trained model",
            "Each input is made as the run's training data was: the same size, channels and normalisation for "
            "images, the same columns (by header name, in any order) and scaling for tables. An image in a folder "
            "named after a class, or a table with the label column, is also scored: accuracy and the confusion "
            "matrix follow the predictions. A file that does not decode is named and skipped.",
            &declare};
}

} // namespace entrena::cli
