#include "entrena/export/Predict.h"

#include "data/CsvReader.h"
#include "data/Dataset.h"
#include "data/ImageDecode.h"
#include "data/Samples.h"
#include "entrena/config/Config.h"
#include "entrena/data/Csv.h"
#include "entrena/store/Checkpoints.h"
#include "entrena/store/RunStore.h"
#include "export/CheckpointChoice.h"
#include "model/Model.h"
#include "model/Models.h"
#include "store/CheckpointFile.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <thread>
#include <torch/torch.h>

namespace entrena {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return s;
}

bool isImageName(const fs::path& p)
{
    const std::string ext = lower(p.extension().string());
    return ext == ".png" || ext == ".jpg" || ext == ".jpeg";
}

/// The image files under `folder`, recursively, bytewise by path; names starting with '.' are left
/// out with everything under them (as image folders leave them out).
std::vector<std::string> imagesUnder(const fs::path& folder)
{
    std::vector<std::string> files;
    std::error_code ec;
    // As listImageFolder reads class folders: linked folders are followed.
    fs::recursive_directory_iterator it(
        folder, fs::directory_options::skip_permission_denied | fs::directory_options::follow_directory_symlink, ec),
        end;
    for (; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (!name.empty() && name[0] == '.') {
            if (it->is_directory(ec))
                it.disable_recursion_pending();
            continue;
        }
        if (it->is_regular_file(ec) && isImageName(it->path()))
            files.push_back(it->path().string());
    }
    std::sort(files.begin(), files.end());
    return files;
}

/// How stored inputs become the model's: per feature column, per image channel, or over all pixels.
struct Normalization {
    enum class Kind { Features, Channels, Pixels } kind = Kind::Pixels;
    torch::Tensor featureMean, featureStd; ///< float [1, F]
    ChannelNorm channels;
    double mean = 0, std = 1;

    static Normalization parse(const json& j)
    {
        Normalization n;
        if (!j.is_object() || !j.contains("mean") || !j.contains("std"))
            throw PredictInputError("the model's record has no normalisation of its inputs, so they cannot be made as "
                                    "it trained on them; train the run again with this version");
        if (j.value("per_feature", false)) {
            n.kind = Kind::Features;
            const auto m = j.at("mean").get<std::vector<double>>(), s = j.at("std").get<std::vector<double>>();
            const auto asRow = [](const std::vector<double>& v) {
                return torch::tensor(v, torch::kFloat64).to(torch::kFloat32).view({1, int64_t(v.size())});
            };
            n.featureMean = asRow(m);
            n.featureStd = asRow(s);
        } else if (j.value("per_channel", false)) {
            n.kind = Kind::Channels;
            n.channels.mean = j.at("mean").get<std::vector<double>>();
            n.channels.std = j.at("std").get<std::vector<double>>();
        } else {
            n.mean = j.at("mean").get<double>();
            n.std = j.at("std").get<double>();
        }
        return n;
    }

    /// uint8 images [N, C, H, W] or float table rows [N, F] → float, normalised, as training made them.
    torch::Tensor apply(const torch::Tensor& stored) const
    {
        switch (kind) {
        case Kind::Features: return (stored - featureMean) / featureStd;
        case Kind::Channels: return channels.apply(stored);
        case Kind::Pixels: break;
        }
        return normalisedBytes(stored, mean, std);
    }
};

ModelInputSpec specFrom(const RunConfig& config, const std::vector<std::string>& classNames, const json& shape,
                        const json& normalization)
{
    ModelInputSpec s;
    s.classNames = classNames;
    if (!shape.is_array() || shape.size() != 3)
        throw PredictInputError("the model's record has no input shape; train the run again with this version");
    s.channels = shape[0].get<int64_t>();
    s.height = shape[1].get<int64_t>();
    s.width = shape[2].get<int64_t>();
    s.table = normalization.value("per_feature", false);
    if (normalization.contains("columns"))
        s.columns = normalization.at("columns").get<std::vector<std::string>>();
    s.labelColumn = config.data.labelColumn;
    s.header = config.data.header;
    s.normalizationJson = normalization.dump();
    return s;
}

std::string checkpointWords(const std::string& which, const CheckpointRecord& c)
{
    return which + " checkpoint (epoch " + std::to_string(c.epoch) + ", step " + std::to_string(c.step) + ")";
}

/// Copies a state dict's tensors into the model's, by name; every one must be there, of its shape.
void loadStateDict(const std::string& file, Model& model)
{
    std::ifstream in(file, std::ios::binary);
    const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::map<std::string, torch::Tensor> tensors;
    try {
        const c10::IValue value = torch::pickle_load(bytes);
        if (!value.isGenericDict())
            throw PredictInputError("'" + file + "' is not a state dict (a dictionary of tensors)");
        for (const auto& entry : value.toGenericDict())
            if (entry.key().isString() && entry.value().isTensor())
                tensors.emplace(entry.key().toStringRef(), entry.value().toTensor());
    } catch (const c10::Error& e) {
        throw PredictInputError("cannot read '" + file + "' as a PyTorch state dict: " + e.what_without_backtrace());
    }
    torch::NoGradGuard noGrad;
    for (auto& [name, tensor] : model.namedTensors()) {
        const auto found = tensors.find(name);
        if (found == tensors.end())
            throw PredictInputError("'" + file + "' has no tensor '" + name + "', which its .json's model has");
        const auto& stored = found->second;
        if (stored.sizes() != tensor.sizes())
            throw PredictInputError("'" + file + "': the tensor '" + name + "' has the shape " + c10::str(stored.sizes()) +
                                    ", the model in its .json " + c10::str(tensor.sizes()));
        tensor.copy_(stored);
    }
}

/// What the inputs name: image files (folders expanded) and CSV tables.
struct Inputs {
    std::vector<std::string> images, tables;
};

Inputs sortInputs(const std::vector<std::string>& inputs)
{
    Inputs sorted;
    for (const std::string& given : inputs) {
        std::error_code ec;
        if (!fs::exists(given, ec))
            throw PredictInputError("no file or folder '" + given + "'");
        if (fs::is_directory(given, ec)) {
            auto found = imagesUnder(given);
            if (found.empty())
                throw PredictInputError("the folder '" + given + "' holds no PNG or JPEG image (searched with its subfolders)");
            sorted.images.insert(sorted.images.end(), found.begin(), found.end());
        } else if (lower(fs::path(given).extension().string()) == ".csv") {
            sorted.tables.push_back(given);
        } else {
            sorted.images.push_back(given);
        }
    }
    return sorted;
}

/// Scores predictions against the classes their inputs are known to be of, into a report's
/// counts and confusion matrix.
class Scorer {
public:
    Scorer(PredictionReport& report, const std::vector<std::string>& classes)
        : report_(report)
    {
        report.classes = classes;
        report.confusion.assign(classes.size(), std::vector<int64_t>(classes.size(), 0));
        for (size_t i = 0; i < classes.size(); ++i) {
            index_.emplace(classes[i], int64_t(i));
            numbered_ = numbered_ && classes[i] == std::to_string(i);
        }
    }

    /// `label` is a table's label cell (`isLabel`: one naming no class is noted; `decimalComma`: its
    /// file writes "1,0" for 1.0) or an image's folder name (only maybe a class).
    void record(Prediction& p, const std::string& label, bool isLabel, bool decimalComma = false)
    {
        auto found = index_.find(label);
        if (found == index_.end() && numbered_) {
            // Labels that are class numbers: "1.0" is class 1, as training read it.
            double v = 0;
            if (csv::number(label, v, decimalComma) && v == std::floor(v) && v >= 0 && v <= 1e6)
                found = index_.find(std::to_string(int64_t(v)));
        }
        if (found == index_.end()) {
            auto& unknown = report_.unknownLabels;
            if (isLabel && unknown.size() < 10 && std::find(unknown.begin(), unknown.end(), label) == unknown.end())
                unknown.push_back(label);
            return;
        }
        p.truth = found->second;
        ++report_.labelled;
        report_.correct += p.top.front().index == p.truth;
        ++report_.confusion[size_t(p.truth)][size_t(p.top.front().index)];
    }

private:
    PredictionReport& report_;
    std::map<std::string, int64_t> index_;
    bool numbered_ = true; // classes "0", "1", …: labels may be given as numbers
};

/// Decodes images[from, from + n) into `pixels` on `workers` threads; a file that does not decode
/// leaves its message at its place in the result (the others, empty).
std::vector<std::string> decodeImages(const std::vector<std::string>& images, int64_t from, const ModelInputSpec& in, int workers,
                                      torch::Tensor& pixels)
{
    const int64_t n = pixels.size(0), rowBytes = in.channels * in.height * in.width;
    std::vector<std::string> problems(static_cast<size_t>(n));
    std::atomic<int64_t> next{0};
    const auto decode = [&] {
        for (int64_t i; (i = next.fetch_add(1)) < n;) {
            try {
                decodeImageInto(images[size_t(from + i)], int(in.channels), int(in.height), int(in.width),
                                pixels.data_ptr<uint8_t>() + i * rowBytes);
            } catch (const std::exception& e) {
                problems[size_t(i)] = e.what();
            }
        }
    };
    struct Pool { // joined however the scope is left (a thread that cannot start throws)
        std::vector<std::thread> threads;
        ~Pool()
        {
            for (auto& t : threads)
                t.join();
        }
    } pool;
    for (int w = 1; w < workers; ++w)
        pool.threads.emplace_back(decode);
    decode();
    return problems;
}

} // namespace

struct Predictor::Impl {
    ModelInputSpec input;
    std::string description;
    Model model;
    bool channelsLast = false;
    Normalization norm;

    /// Probabilities [N, classes] of stored inputs (uint8 images or float rows).
    torch::Tensor probabilities(const torch::Tensor& stored)
    {
        torch::NoGradGuard noGrad;
        auto x = norm.apply(stored);
        if (input.table)
            x = x.view({x.size(0), 1, 1, x.size(1)});
        if (channelsLast)
            x = x.contiguous(torch::MemoryFormat::ChannelsLast);
        try {
            return torch::softmax(model.forward(x).to(torch::kFloat32), 1).contiguous();
        } catch (const c10::Error& e) {
            throw std::runtime_error(std::string("the model failed on its inputs: ") + e.what_without_backtrace());
        }
    }

    /// Rows of a chunk at a time: what the evaluation takes, fewer where images are large.
    int64_t chunkRows() const
    {
        const int64_t perRow = std::max<int64_t>(1, input.channels * input.height * input.width);
        return std::clamp<int64_t>((int64_t(1) << 25) / perRow, 1, 1000);
    }

    void addPredictions(const torch::Tensor& probs, int topK, std::vector<Prediction>& out)
    {
        const int64_t k = std::min<int64_t>(topK, probs.size(1));
        const auto [values, indices] = probs.topk(k, 1);
        const auto v = values.to(torch::kFloat64).contiguous(), ix = indices.contiguous();
        const double* pv = v.data_ptr<double>();
        const int64_t* pi = ix.data_ptr<int64_t>();
        for (int64_t r = 0; r < probs.size(0); ++r) {
            Prediction& p = out.emplace_back();
            for (int64_t j = 0; j < k; ++j) {
                const int64_t c = pi[r * k + j];
                const std::string name = size_t(c) < input.classNames.size() ? input.classNames[size_t(c)] : std::to_string(c);
                p.top.push_back({c, name, pv[r * k + j]});
            }
        }
    }

    /// The rows of one CSV table, in chunks, each scored when the table has the label column.
    void predictTable(const std::string& path, int topK, Scorer& scorer, PredictionReport& report,
                      const PredictProgress& progress)
    {
        TableToPredict t;
        try {
            t = readTableToPredict(path, input.columns, input.width, input.labelColumn, input.header);
        } catch (const std::invalid_argument& e) {
            throw PredictInputError(e.what());
        }
        for (const auto& [line, why] : t.skipped)
            report.skipped.push_back({path + ":" + std::to_string(line), why});
        const int64_t n = t.features.size(0), chunk = chunkRows();
        for (int64_t from = 0; from < n; from += chunk) {
            const int64_t to = std::min(n, from + chunk);
            const size_t first = report.predictions.size();
            addPredictions(probabilities(t.features.slice(0, from, to)), topK, report.predictions);
            for (int64_t r = from; r < to; ++r) {
                Prediction& p = report.predictions[first + size_t(r - from)];
                p.line = t.lines[size_t(r)];
                p.input = path + ":" + std::to_string(p.line);
                if (!t.labels.empty())
                    scorer.record(p, t.labels[size_t(r)], true, t.decimalComma);
            }
            if (progress)
                progress(to, n);
        }
    }

    /// Image files, decoded a chunk at a time on `threads`; one that does not decode is skipped.
    void predictImages(const std::vector<std::string>& images, int topK, int threads, Scorer& scorer, PredictionReport& report,
                       const PredictProgress& progress)
    {
        const int64_t total = int64_t(images.size()), chunk = chunkRows();
        const int workers = int(std::clamp<int64_t>(threads, 1, std::max<int64_t>(1, chunk)));
        for (int64_t from = 0; from < total; from += chunk) {
            const int64_t n = std::min(total, from + chunk) - from;
            auto pixels = torch::empty({n, input.channels, input.height, input.width}, torch::kUInt8);
            const std::vector<std::string> problems = decodeImages(images, from, input, workers, pixels);
            std::vector<int64_t> good;
            for (int64_t i = 0; i < n; ++i) {
                if (problems[size_t(i)].empty())
                    good.push_back(i);
                else
                    report.skipped.push_back({images[size_t(from + i)], problems[size_t(i)]});
            }
            if (!good.empty()) {
                auto batch = int64_t(good.size()) == n ? pixels : pixels.index_select(0, torch::tensor(good, torch::kInt64));
                const size_t first = report.predictions.size();
                addPredictions(probabilities(batch), topK, report.predictions);
                for (size_t g = 0; g < good.size(); ++g) {
                    Prediction& p = report.predictions[first + g];
                    p.input = images[size_t(from + good[g])];
                    // An image in a folder named after a class is known to be of it (class folders, test/).
                    scorer.record(p, fs::path(p.input).parent_path().filename().string(), false);
                }
            }
            if (progress)
                progress(from + n, total);
        }
    }
};

Predictor::Predictor(std::unique_ptr<Impl> impl)
    : impl_(std::move(impl))
{
}
Predictor::Predictor(Predictor&&) noexcept = default;
Predictor& Predictor::operator=(Predictor&&) noexcept = default;
Predictor::~Predictor() = default;

const ModelInputSpec& Predictor::input() const
{
    return impl_->input;
}
const std::string& Predictor::description() const
{
    return impl_->description;
}
bool Predictor::channelsLast() const
{
    return impl_->channelsLast;
}

Predictor Predictor::fromRun(RunStore& store, int64_t runId, const std::string& which)
{
    const auto run = store.findRun(std::to_string(runId));
    if (!run)
        throw PredictInputError("no run " + std::to_string(runId) + " in " + store.path() + "; `entrena-cli runs` lists them");
    const std::string label = "run " + std::to_string(run->id) + " ('" + run->name + "')";
    std::string chosen = which.empty() ? "best" : which;
    auto record = chooseCheckpoint(store, runId, chosen);
    if (!record && which.empty()) {
        chosen = "last"; // a run without a validation split has no best: its latest is what it has
        record = chooseCheckpoint(store, runId, chosen);
    }
    if (!record)
        throw CheckpointError(
            label + " has no " +
            (chosen == "best" ? "best checkpoint (it had no validation split?); try --checkpoint last" : "checkpoint") +
            ": it ended before its first one, kept none, or they were deleted to free space");
    const json data = json::parse(run->dataJson.empty() ? "null" : run->dataJson, nullptr, false);
    if (!data.is_object())
        throw PredictInputError(label + " has no record of its data's classes and normalisation (it failed before "
                                        "loading its data, or an older version trained it); train it again");
    const RunConfig config = RunConfig::fromJson(run->configJson);
    auto impl = std::make_unique<Impl>();
    impl->input = specFrom(config, data.value("classes", std::vector<std::string>{}), data.value("input_shape", json()),
                           data.value("normalization", json()));
    impl->norm = Normalization::parse(data.at("normalization"));
    const auto& in = impl->input;
    impl->model = Model::build(config.model, in.channels, in.height, in.width, int64_t(in.classNames.size()));
    impl->channelsLast = trainedChannelsLast(config.model, run->environmentJson);
    if (impl->channelsLast)
        impl->model.toChannelsLast(); // as it trained: the same kernels, the same rounding
    loadModelWeights(record->path, record->checksum, impl->model);
    impl->model.train(false);
    impl->description = label + ", " + checkpointWords(chosen, *record);
    return Predictor(std::move(impl));
}

Predictor Predictor::fromExport(const std::string& file)
{
    std::error_code ec;
    if (!fs::is_regular_file(file, ec))
        throw PredictInputError("no model file '" + file + "'");
    const std::string sidecarPath = file + ".json";
    std::ifstream sidecarFile(sidecarPath);
    if (!sidecarFile)
        throw PredictInputError("'" + sidecarPath + "' is not beside '" + file +
                                "': predict needs the .json that `entrena-cli export` writes with the model (its classes "
                                "and normalisation); copy both files");
    const json sidecar = json::parse(sidecarFile, nullptr, false);
    if (!sidecar.is_object() || !sidecar.contains("config") || !sidecar.contains("input"))
        throw PredictInputError("'" + sidecarPath + "' is not the .json of an export (no \"config\" or \"input\")");
    const std::string format = sidecar.value("format", "");
    if (format == "safetensors" || format == "onnx")
        throw PredictInputError("'" + file + "' is " + (format == "onnx" ? "an ONNX" : "a safetensors") +
                                " export; predict from the .pt export of the run "
                                "(`entrena-cli export --checkpoint best --out model.pt`)");
    const json& input = sidecar.at("input");
    if (input.contains("unavailable"))
        throw PredictInputError("the export '" + file + "' was made without its data set (" +
                                input.at("unavailable").get<std::string>() +
                                "), so it does not say how inputs were normalised; export it again where the data is");
    const RunConfig config = RunConfig::fromJson(sidecar.at("config").dump());
    auto impl = std::make_unique<Impl>();
    impl->input = specFrom(config, input.value("class_names", std::vector<std::string>{}), input.value("shape", json()),
                           input.value("normalization", json()));
    impl->norm = Normalization::parse(input.at("normalization"));
    const auto& in = impl->input;
    ModelSpec spec = config.model;
    if (format == "torchscript")
        spec.path = file; // the trained module itself
    impl->model = Model::build(spec, in.channels, in.height, in.width, int64_t(in.classNames.size()));
    impl->channelsLast = prefersChannelsLast(config.model);
    if (impl->channelsLast)
        impl->model.toChannelsLast();
    if (format == "torchscript") // the module's weights are saved in the layout its run trained in
        for (const auto& p : impl->model.parameters())
            impl->channelsLast = impl->channelsLast || storedChannelsLast(p);
    if (format != "torchscript")
        loadStateDict(file, impl->model);
    impl->model.train(false);
    const json run = sidecar.value("run", json::object());
    const json checkpoint = sidecar.value("checkpoint", json::object());
    impl->description = fs::path(file).filename().string() + " (run " + std::to_string(run.value("id", int64_t(0))) + " '" +
                        run.value("name", std::string()) + "', " + checkpoint.value("which", std::string("?")) +
                        " checkpoint of epoch " + std::to_string(checkpoint.value("epoch", 0)) + ")";
    return Predictor(std::move(impl));
}

ModelView Predictor::modelView(const std::string& imageFile) const
{
    const ModelInputSpec& in = impl_->input;
    if (in.table)
        throw PredictInputError("the model was trained on a table; it does not look at images");
    ModelView view{in.channels, in.height, in.width, {}};
    view.pixels.resize(size_t(in.channels * in.height * in.width));
    decodeImageInto(imageFile, int(in.channels), int(in.height), int(in.width), view.pixels.data());
    return view;
}

Prediction Predictor::predictRow(const std::string& row, int topK) const
{
    Impl& m = *impl_;
    const ModelInputSpec& in = m.input;
    if (!in.table)
        throw PredictInputError("the model was trained on images; give it an image, not a row of numbers");
    char separator = ',';
    const std::vector<std::string> cells = csv::splitLine(row, &separator);
    const auto named = [&](size_t i) { return i < in.columns.size() ? "'" + in.columns[i] + "'" : std::to_string(i + 1); };
    std::vector<float> values;
    for (size_t i = 0; i < cells.size(); ++i) {
        const std::string& cell = cells[i];
        if (cell.empty() && i + 1 == cells.size() && i > 0)
            continue; // a trailing separator
        double v = 0;
        if (!csv::number(cell, v, separator != ',') || !std::isfinite(v))
            throw PredictInputError(
                "value " + std::to_string(i + 1) + " (column " + named(i) + "), '" + cell + "', is not a number" +
                (cell.find(' ') != std::string::npos ? "; separate values with commas, semicolons or tabs" : ""));
        values.push_back(float(v));
    }
    if (int64_t(values.size()) != in.width) {
        std::string columns;
        for (size_t i = 0; i < in.columns.size(); ++i)
            columns += (i ? ", " : " (") + in.columns[i] + (i + 1 == in.columns.size() ? ")" : "");
        throw PredictInputError("the model takes " + std::to_string(in.width) + " values" + columns + "; the row has " +
                                std::to_string(values.size()));
    }
    std::vector<Prediction> out;
    m.addPredictions(m.probabilities(torch::tensor(values, torch::kFloat32).view({1, in.width})), topK, out);
    out.front().input = row;
    return out.front();
}

PredictionReport Predictor::predict(const std::vector<std::string>& inputs, int topK, int threads,
                                    const PredictProgress& progress) const
{
    const ModelInputSpec& in = impl_->input;
    const Inputs given = sortInputs(inputs);
    if (in.table && !given.images.empty())
        throw PredictInputError("the model was trained on a table; give CSV files with its columns, not images ('" +
                                given.images.front() + "')");
    if (!in.table && !given.tables.empty())
        throw PredictInputError("the model was trained on images; '" + given.tables.front() + "' is a table");

    PredictionReport report;
    Scorer scorer(report, in.classNames);
    for (const std::string& path : given.tables)
        impl_->predictTable(path, topK, scorer, report, progress);
    impl_->predictImages(given.images, topK, threads, scorer, report, progress);
    if (report.labelled == 0)
        report.confusion.clear();
    return report;
}

} // namespace entrena
