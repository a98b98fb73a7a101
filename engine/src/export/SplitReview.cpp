// The samples behind a run's confusion matrix: its evaluated split loaded again and classified by
// its last weights (see entrena/export/SplitReview.h and docs/evaluation.md).
#include "entrena/export/SplitReview.h"

#include "data/Dataset.h"
#include "entrena/config/Config.h"
#include "entrena/store/Checkpoints.h"
#include "entrena/store/RunStore.h"
#include "entrena/train/Events.h"
#include "export/CheckpointChoice.h"
#include "model/Model.h"
#include "model/Models.h"
#include "store/CheckpointFile.h"

#include <algorithm>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <torch/torch.h>

namespace entrena {

struct SplitReview::Impl {
    std::string split, description, tableFile, runName;
    int64_t epoch = 0, step = 0;
    std::vector<std::string> classes, featureNames;
    std::vector<std::vector<int64_t>> confusion;
    int64_t disagreements = 0;
    int64_t unreadable = 0;
    bool table = false;
    std::vector<ReviewedSample> samples; ///< in split order
    Samples x;                           ///< the split's inputs, for pictures and rows
    double mean = 0, std = 1;            ///< float images: normalised over all pixels by these
    std::vector<double> featureMean, featureStd;

    /// The samples as classified now (predicted class and confidence of each), and their matrix.
    void collect(const torch::Tensor& predicted, const torch::Tensor& confidence, const torch::Tensor& truth,
                 const std::vector<std::string>& files, const std::vector<int64_t>& lines)
    {
        const int64_t n = x.size(0), k = int64_t(classes.size());
        confusion.assign(size_t(k), std::vector<int64_t>(size_t(k), 0));
        samples.reserve(size_t(n));
        const auto* p = predicted.data_ptr<int64_t>();
        const auto* c = confidence.data_ptr<double>();
        const auto* t = truth.data_ptr<int64_t>();
        unreadable = 0;
        for (int64_t i = 0; i < n; ++i) {
            ReviewedSample s;
            s.index = i;
            s.trueClass = t[i];
            s.predicted = p[i];
            s.confidence = c[i];
            if (size_t(i) < files.size())
                s.file = files[size_t(i)];
            if (size_t(i) < lines.size())
                s.line = lines[size_t(i)];
            if (s.trueClass >= 0 && s.trueClass < k && s.predicted >= 0 && s.predicted < k)
                ++confusion[size_t(s.trueClass)][size_t(s.predicted)];
            else
                ++unreadable;
            samples.push_back(std::move(s));
        }
    }

    /// How many samples the matrix of now and the recorded one disagree on: a sample that moved
    /// leaves one cell and enters another (two differences); one added or gone changes one cell
    /// and the total.
    int64_t disagreementsWith(const std::vector<std::vector<int64_t>>& recorded) const
    {
        int64_t apart = 0, nowTotal = 0, thenTotal = 0;
        for (size_t i = 0; i < confusion.size(); ++i)
            for (size_t j = 0; j < confusion[i].size(); ++j) {
                const int64_t then = i < recorded.size() && j < recorded[i].size() ? recorded[i][j] : 0;
                apart += std::llabs(confusion[i][j] - then);
                nowTotal += confusion[i][j];
                thenTotal += then;
            }
        return (apart + std::llabs(nowTotal - thenTotal)) / 2;
    }
};

SplitReview::SplitReview(std::unique_ptr<Impl> impl)
    : impl_(std::move(impl))
{
}
SplitReview::SplitReview(SplitReview&&) noexcept = default;
SplitReview& SplitReview::operator=(SplitReview&&) noexcept = default;
SplitReview::~SplitReview() = default;

namespace {

/// The predicted class and its probability of every row of `x`, in chunks without gradients, the
/// images normalised by `norm` (the run's record) where it is given. A chunk that cannot be read
/// (a file damaged since) is classified row by row; a row that still cannot be is left at class −1.
void classify(Model& model, bool channelsLast, const Samples& x, const ChannelNorm& norm, const StopToken* stop,
              torch::Tensor& predicted, torch::Tensor& confidence)
{
    torch::NoGradGuard noGrad;
    model.train(false);
    const int64_t n = x.size(0);
    predicted = torch::full({n}, -1, torch::kInt64);
    confidence = torch::zeros({n}, torch::kFloat64);
    int64_t rowValues = 1;
    for (int64_t d = 1; d < 4; ++d)
        rowValues *= x.size(d);
    const int64_t chunk = std::clamp<int64_t>((int64_t(64) << 20) / (4 * std::max<int64_t>(1, rowValues)), 1, 1000);
    const auto forward = [&](int64_t from, int64_t to) {
        const torch::Tensor stored = x.range(from, to);
        auto xb = !norm.empty() && stored.scalar_type() == torch::kUInt8 ? norm.apply(stored) : x.input(stored);
        if (channelsLast)
            xb = xb.contiguous(torch::MemoryFormat::ChannelsLast);
        const auto [conf, pred] = torch::softmax(model.forward(xb).to(torch::kFloat32), 1).max(1);
        predicted.slice(0, from, to).copy_(pred);
        confidence.slice(0, from, to).copy_(conf);
    };
    for (int64_t i = 0; i < n; i += chunk) {
        if (stop && stop->stopRequested())
            throw std::runtime_error("stopped");
        const int64_t end = std::min(n, i + chunk);
        try {
            forward(i, end);
        } catch (const std::runtime_error&) {
            for (int64_t row = i; row < end; ++row) {
                try {
                    forward(row, row + 1);
                } catch (const std::runtime_error&) {
                    // unreadable now: in no cell
                }
            }
        }
    }
}

/// The per-channel normalisation the run recorded for its images (empty for other data).
ChannelNorm recordedChannelNorm(const std::string& dataJson)
{
    ChannelNorm norm;
    const auto data = nlohmann::json::parse(dataJson.empty() ? "null" : dataJson, nullptr, false);
    if (!data.is_object() || !data.contains("normalization"))
        return norm;
    const auto& n = data.at("normalization");
    if (n.is_object() && n.value("per_channel", false) && n.contains("mean") && n.contains("std")) {
        norm.mean = n.at("mean").get<std::vector<double>>();
        norm.std = n.at("std").get<std::vector<double>>();
    }
    return norm;
}

std::string joined(const std::vector<std::string>& names)
{
    std::string out;
    for (const std::string& name : names)
        out += (out.empty() ? "" : ", ") + name;
    return out;
}

/// Why run `runId` has no checkpoint to classify its samples with: freed (when, how much), or never kept.
std::string noCheckpoint(RunStore& store, int64_t runId, const std::string& label)
{
    if (const auto freed = store.checkpointsFreed(runId))
        return label + "'s checkpoints were deleted (" + freed->time.substr(0, 10) + ", " +
               std::to_string((freed->bytes + 500'000) / 1'000'000) +
               " MB freed), so its samples cannot be classified again; its confusion matrix and figures stay";
    return label + " kept no checkpoint, so its samples cannot be classified again";
}

} // namespace

SplitReview SplitReview::ofRun(RunStore& store, int64_t runId, const StopToken* stop)
{
    const auto run = store.findRun(std::to_string(runId));
    if (!run)
        throw PredictInputError("no run " + std::to_string(runId) + " in " + store.path());
    const std::string label = "run " + std::to_string(run->id) + " ('" + run->name + "')";
    const EvaluationReport recorded = evaluationFromJson(run->evaluationJson);
    if (recorded.empty())
        throw PredictInputError(label + " has no confusion matrix: it ended before its end evaluation (stopped, "
                                        "diverged or failed)");
    // The end evaluation scored the weights the run ended with: the last checkpoint holds them.
    const auto record = chooseCheckpoint(store, runId, "last");
    if (!record)
        throw CheckpointError(noCheckpoint(store, run->id, label));
    const RunConfig config = RunConfig::fromJson(run->configJson);

    auto impl = std::make_unique<Impl>();
    DataSplits d;
    try {
        d = loadData(config.data, config.seed);
    } catch (const std::exception& e) {
        throw PredictInputError("the data " + label + " trained on cannot be read again: " + std::string(e.what()) +
                                "; put the data back where the run found it to see the samples");
    }
    const bool test = d.testX.size(0) > 0;
    Impl& r = *impl;
    r.split = test ? "test" : "validation";
    if (r.split != recorded.split || d.classNames != recorded.classes)
        throw PredictInputError("the data " + label + " trained on has changed: its matrix is of the " + recorded.split +
                                " split of classes " + joined(recorded.classes) + ", the data now gives the " + r.split +
                                " split of classes " + joined(d.classNames) + "; the samples cannot be matched to the matrix");
    r.x = test ? d.testX : d.valX;
    const torch::Tensor y = (test ? d.testY : d.valY).to(torch::kInt64).contiguous();
    const std::vector<std::string>& files = test ? d.testFiles : d.valFiles;
    const std::vector<int64_t>& lines = test ? d.testLines : d.valLines;
    r.classes = d.classNames;
    r.mean = d.mean;
    r.std = d.std;
    r.featureMean = d.featureMean;
    r.featureStd = d.featureStd;
    r.featureNames = d.featureNames;
    r.table = config.data.dataset == DatasetKind::Csv;
    r.tableFile = test && !config.data.testPath.empty() ? config.data.testPath : config.data.path;

    Model model = Model::build(config.model, d.channels(), d.height(), d.width(), d.classes);
    const bool channelsLast = trainedChannelsLast(config.model, run->environmentJson);
    if (channelsLast)
        model.toChannelsLast(); // as it trained: the same kernels, the same rounding
    loadModelWeights(record->path, record->checksum, model);
    r.runName = run->name;
    r.epoch = record->epoch;
    r.step = record->step;
    r.description =
        label + ", last checkpoint (epoch " + std::to_string(record->epoch) + ", step " + std::to_string(record->step) + ")";

    torch::Tensor predicted, confidence;
    classify(model, channelsLast, r.x, recordedChannelNorm(run->dataJson), stop, predicted, confidence);
    r.collect(predicted, confidence, y, files, lines);
    r.disagreements = r.disagreementsWith(recorded.confusion);
    return SplitReview(std::move(impl));
}

const std::string& SplitReview::split() const
{
    return impl_->split;
}
const std::vector<std::string>& SplitReview::classes() const
{
    return impl_->classes;
}
const std::vector<std::vector<int64_t>>& SplitReview::confusion() const
{
    return impl_->confusion;
}
int64_t SplitReview::disagreements() const
{
    return impl_->disagreements;
}
int64_t SplitReview::unreadable() const
{
    return impl_->unreadable;
}
const std::string& SplitReview::description() const
{
    return impl_->description;
}
const std::string& SplitReview::runName() const
{
    return impl_->runName;
}
int64_t SplitReview::checkpointEpoch() const
{
    return impl_->epoch;
}
int64_t SplitReview::checkpointStep() const
{
    return impl_->step;
}
bool SplitReview::table() const
{
    return impl_->table;
}
const std::string& SplitReview::tableFile() const
{
    return impl_->tableFile;
}
const std::vector<std::string>& SplitReview::featureNames() const
{
    return impl_->featureNames;
}

std::vector<ReviewedSample> SplitReview::cell(int64_t trueClass, int64_t predicted) const
{
    std::vector<ReviewedSample> out;
    for (const ReviewedSample& s : impl_->samples)
        if (s.trueClass == trueClass && s.predicted == predicted && predicted >= 0)
            out.push_back(s);
    std::stable_sort(out.begin(), out.end(),
                     [](const ReviewedSample& a, const ReviewedSample& b) { return a.confidence > b.confidence; });
    return out;
}

ModelView SplitReview::picture(int64_t index) const
{
    ModelView v;
    if (impl_->table || index < 0 || index >= impl_->x.size(0))
        return v;
    torch::Tensor pixels = impl_->x.range(index, index + 1)[0];
    if (pixels.scalar_type() != torch::kUInt8) // grey IDX images, normalised over all pixels
        pixels = pixels.mul(impl_->std).add(impl_->mean).mul(255.0).round().clamp(0, 255).to(torch::kUInt8);
    pixels = pixels.contiguous();
    v.channels = pixels.size(0);
    v.height = pixels.size(1);
    v.width = pixels.size(2);
    v.pixels.assign(pixels.data_ptr<uint8_t>(), pixels.data_ptr<uint8_t>() + pixels.numel());
    return v;
}

std::vector<double> SplitReview::features(int64_t index) const
{
    std::vector<double> out;
    if (!impl_->table || index < 0 || index >= impl_->x.size(0))
        return out;
    const auto row = impl_->x.range(index, index + 1).flatten().to(torch::kFloat64).contiguous();
    for (int64_t j = 0; j < row.numel(); ++j) {
        const double m = size_t(j) < impl_->featureMean.size() ? impl_->featureMean[size_t(j)] : 0.0;
        const double s = size_t(j) < impl_->featureStd.size() ? impl_->featureStd[size_t(j)] : 1.0;
        out.push_back(row.data_ptr<double>()[j] * s + m);
    }
    return out;
}

} // namespace entrena
