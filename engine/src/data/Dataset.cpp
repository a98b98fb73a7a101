#include "data/Dataset.h"

#include "data/CsvReader.h"
#include "data/Holdout.h"
#include "data/IdxReader.h"
#include "entrena/config/Registry.h"
#include "entrena/data/Preload.h"

#include <array>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace entrena {
namespace {

namespace fs = std::filesystem;

// Distributions name the files differently: accept the common spellings, gzipped or not.
std::string findFile(const std::string& folder, const std::string& stem)
{
    std::vector<std::string> names = {stem + "-ubyte.gz", stem + "-ubyte"};
    std::string dotted = stem;
    const auto dash = dotted.rfind("-idx");
    if (dash != std::string::npos)
        dotted[dash] = '.';
    names.push_back(dotted + "-ubyte.gz");
    names.push_back(dotted + "-ubyte");
    for (const auto& n : names) {
        const fs::path p = fs::path(folder) / n;
        if (fs::exists(p))
            return p.string();
    }
    if (!fs::is_directory(folder))
        throw std::runtime_error("data.path '" + folder + "' is not a folder; point it at the folder holding " + stem +
                                 "-ubyte.gz (Fashion-MNIST: apt install dataset-fashion-mnist)");
    throw std::runtime_error("data file " + stem + "-ubyte(.gz) not found in '" + folder +
                             "'; check data.path and that the data set is complete");
}

/// The mean and (unbiased) standard deviation of pixel bytes taken as floats in [0, 1]: exact, from
/// their histogram.
std::pair<double, double> byteStatistics(const torch::Tensor& bytes)
{
    // Four histograms: runs of one value (the black background) would otherwise wait on the same
    // counter every byte.
    std::array<std::array<int64_t, 256>, 4> parts{};
    const auto in = bytes.contiguous();
    const uint8_t* p = in.data_ptr<uint8_t>();
    const int64_t n = in.numel();
    int64_t i = 0;
    for (; i + 4 <= n; i += 4) {
        ++parts[0][p[i]];
        ++parts[1][p[i + 1]];
        ++parts[2][p[i + 2]];
        ++parts[3][p[i + 3]];
    }
    for (; i < n; ++i)
        ++parts[0][p[i]];
    std::array<int64_t, 256> counts{};
    for (const auto& part : parts)
        for (size_t v = 0; v < 256; ++v)
            counts[v] += part[v];
    double sum = 0;
    for (int v = 0; v < 256; ++v)
        sum += double(counts[size_t(v)]) * (v / 255.0);
    const double mean = sum / double(std::max<int64_t>(n, 1));
    double squares = 0;
    for (int v = 0; v < 256; ++v)
        squares += double(counts[size_t(v)]) * (v / 255.0 - mean) * (v / 255.0 - mean);
    return {mean, std::sqrt(squares / double(std::max<int64_t>(n - 1, 1)))};
}

// A learnable 10-class problem with the shape of Fashion-MNIST: each class is a fixed random
// pattern, each sample that pattern plus noise. Used by tests and benchmarks that must not
// depend on files.
void synthetic(DataSpec const& spec, uint64_t seed, torch::Tensor& trainX, torch::Tensor& trainY, torch::Tensor& testX,
               torch::Tensor& testY)
{
    auto gen = at::detail::createCPUGenerator(seed + 7919);
    const int64_t nTrain = spec.trainLimit > 0 ? spec.trainLimit : 6000;
    const int64_t nTest = spec.testLimit > 0 ? spec.testLimit : 1000;
    const auto patterns = torch::rand({10, 1, 28, 28}, gen);
    auto make = [&](int64_t n, torch::Tensor& x, torch::Tensor& y) {
        y = torch::randint(0, 10, {n}, gen, torch::kInt64);
        x = (patterns.index_select(0, y) + 0.35 * torch::randn({n, 1, 28, 28}, gen)).clamp_(0.0, 1.0);
    };
    make(nTrain, trainX, trainY);
    make(nTest, testX, testY);
}

/// A data set's samples before the validation split and normalisation.
struct RawData {
    torch::Tensor trainX, trainY, testX, testY; ///< images as floats in [0, 1], or as their bytes (uint8)
    bool perFeature = false;                    // tables are standardised per column, images over all pixels
    std::vector<int64_t> trainLines, testLines; ///< tables: each row's line in its file (empty otherwise)
};

DataSplits splitAndNormalise(RawData raw, const DataSpec& spec, uint64_t seed, std::vector<std::string> names = {})
{
    torch::Tensor trainX = raw.trainX, trainY = raw.trainY, testX = raw.testX, testY = raw.testY;
    const bool perFeature = raw.perFeature;
    DataSplits d;
    d.classes = trainY.max().item<int64_t>() + 1;
    if (testY.numel() > 0)
        d.classes = std::max(d.classes, testY.max().item<int64_t>() + 1);
    if (!perFeature)
        d.classes = std::max<int64_t>(d.classes, 10);
    const int64_t n = trainX.size(0);
    (void)n;
    auto gen = at::detail::createCPUGenerator(seed);
    const HeldOut split = holdOut(trainY, spec, gen, "samples", names);
    const auto& valIdx = split.val;
    const auto& trainIdx = split.train;
    torch::Tensor tx = trainX.index_select(0, trainIdx), vx = trainX.index_select(0, valIdx);
    d.trainY = trainY.index_select(0, trainIdx);
    d.valY = trainY.index_select(0, valIdx);
    if (!raw.trainLines.empty()) {
        const auto v = valIdx.contiguous();
        for (int64_t i = 0; i < v.numel(); ++i)
            d.valLines.push_back(raw.trainLines.at(size_t(v.data_ptr<int64_t>()[i])));
        d.testLines = raw.testLines;
    }

    // Normalise everything by the training split's statistics, never the validation or test split's.
    if (perFeature) {
        const auto mean = tx.mean(0, /*keepdim=*/true);
        const auto std = tx.std(0, /*unbiased=*/true, /*keepdim=*/true).clamp_min(1e-6);
        for (torch::Tensor* t : {&tx, &vx, &testX})
            *t = (*t - mean) / std;
        d.mean = mean.mean().item<double>();
        d.std = std.mean().item<double>();
        const auto m = mean.flatten().to(torch::kFloat64).contiguous(), sd = std.flatten().to(torch::kFloat64).contiguous();
        d.featureMean.assign(m.data_ptr<double>(), m.data_ptr<double>() + m.numel());
        d.featureStd.assign(sd.data_ptr<double>(), sd.data_ptr<double>() + sd.numel());
    } else if (tx.scalar_type() == torch::kUInt8) {
        // Pixel bytes (IDX files): split as bytes, converted and normalised in one pass.
        const auto [mean, std] = byteStatistics(tx);
        d.mean = mean;
        d.std = std::max(1e-6, std);
        for (torch::Tensor* t : {&tx, &vx, &testX})
            *t = normalisedBytes(*t, d.mean, d.std);
    } else {
        d.mean = tx.mean().item<double>();
        d.std = std::max(1e-6, tx.std().item<double>());
        for (torch::Tensor* t : {&tx, &vx, &testX})
            t->sub_(d.mean).div_(d.std);
    }
    d.trainX = tx;
    d.valX = vx;
    d.testX = testX;
    d.testY = testY;
    d.classNames = names.empty() ? numberedClasses(d.classes) : std::move(names);
    return d;
}

} // namespace

/// Pixel bytes as floats in [0, 1], normalised by `mean` and `std` (of those floats) in the same
/// pass: through a table of the 256 values, so a data set's start costs one write of its floats.
torch::Tensor normalisedBytes(const torch::Tensor& bytes, double mean, double std)
{
    std::array<float, 256> table;
    for (int v = 0; v < 256; ++v)
        table[size_t(v)] = (float(v) / 255.0f - float(mean)) / float(std);
    const auto in = bytes.contiguous();
    auto out = torch::empty(in.sizes(), torch::kFloat32);
    const uint8_t* p = in.data_ptr<uint8_t>();
    float* q = out.data_ptr<float>();
    for (int64_t i = 0, n = in.numel(); i < n; ++i)
        q[i] = table[p[i]];
    return out;
}

namespace {

DataSplits loadIdx(const DataSpec& spec, uint64_t seed, std::vector<std::string> classNames)
{
    // The limits keep the first images of each file, so only those are read.
    RawData r;
    int64_t images = 0, labels = 0, testImages = 0, testLabels = 0;
    r.trainX = readIdxImages(findFile(spec.path, "train-images-idx3"), spec.trainLimit, &images);
    r.trainY = readIdxLabels(findFile(spec.path, "train-labels-idx1"), spec.trainLimit, &labels);
    r.testX = readIdxImages(findFile(spec.path, "t10k-images-idx3"), spec.testLimit, &testImages);
    r.testY = readIdxLabels(findFile(spec.path, "t10k-labels-idx1"), spec.testLimit, &testLabels);
    if (images != labels)
        throw std::runtime_error("the training images (" + std::to_string(images) + ") and labels (" + std::to_string(labels) +
                                 ") in '" + spec.path + "' do not match");
    if (testImages != testLabels)
        throw std::runtime_error("the test images (" + std::to_string(testImages) + ") and labels (" +
                                 std::to_string(testLabels) + ") in '" + spec.path + "' do not match");
    return splitAndNormalise(std::move(r), spec, seed, std::move(classNames));
}

} // namespace

const std::vector<std::string>& fashionMnistClasses()
{
    static const std::vector<std::string> names = {"T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
                                                   "Sandal",      "Shirt",   "Sneaker",  "Bag",   "Ankle boot"};
    return names;
}

DataSplits loadFashionMnistData(const DataSpec& spec, uint64_t seed)
{
    return loadIdx(spec, seed, fashionMnistClasses());
}

DataSplits loadMnistData(const DataSpec& spec, uint64_t seed)
{
    return loadIdx(spec, seed, {});
}

void preloadIdxFiles(const DataSpec& spec)
{
    keepIdxReads(true);
    try {
        readIdxImages(findFile(spec.path, "train-images-idx3"), spec.trainLimit);
        readIdxLabels(findFile(spec.path, "train-labels-idx1"), spec.trainLimit);
        readIdxImages(findFile(spec.path, "t10k-images-idx3"), spec.testLimit);
        readIdxLabels(findFile(spec.path, "t10k-labels-idx1"), spec.testLimit);
    } catch (const std::exception&) {
        // Each trial reads the files itself, and fails with the message.
    }
    keepIdxReads(false); // answered from memory from now on; nothing more kept
}

DataSplits loadCsvData(const DataSpec& spec, uint64_t seed)
{
    // Tables become [N, 1, 1, F] "images" so that every model and loader sees one shape. A label
    // column of names maps to classes in sorted order, the test file's through the training file's.
    RawData r;
    const CsvPair tables = readCsvPair(spec.path, spec.testPath, spec.labelColumn, spec.header);
    const CsvTable& train = tables.train;
    r.trainX = train.features.view({train.features.size(0), 1, 1, train.features.size(1)});
    r.trainY = train.labels;
    r.trainLines = train.lines;
    if (!spec.testPath.empty()) {
        const CsvTable& test = tables.test;
        if (test.features.size(1) != train.features.size(1))
            throw std::runtime_error("the test CSV '" + spec.testPath + "' has " + std::to_string(test.features.size(1)) +
                                     " feature columns, the training CSV " + std::to_string(train.features.size(1)));
        r.testX = test.features.view({test.features.size(0), 1, 1, test.features.size(1)});
        r.testY = test.labels;
        r.testLines = test.lines;
    } else {
        r.testX = torch::empty({0, 1, 1, r.trainX.size(3)});
        r.testY = torch::empty({0}, torch::kInt64);
    }
    if (spec.trainLimit > 0 && spec.trainLimit < r.trainX.size(0)) {
        r.trainX = r.trainX.slice(0, 0, spec.trainLimit);
        r.trainY = r.trainY.slice(0, 0, spec.trainLimit);
        r.trainLines.resize(size_t(spec.trainLimit));
    }
    r.perFeature = true;
    DataSplits d = splitAndNormalise(std::move(r), spec, seed, train.classes);
    if (!train.classes.empty())
        d.classes = int64_t(train.classes.size());
    d.featureNames = train.featureNames;
    return d;
}

DataSplits loadSyntheticData(const DataSpec& spec, uint64_t seed)
{
    RawData r;
    synthetic(spec, seed, r.trainX, r.trainY, r.testX, r.testY);
    return splitAndNormalise(std::move(r), spec, seed);
}

DataSplits loadData(const DataSpec& spec, uint64_t seed)
{
    return registryEntry(spec.dataset).load(spec, seed);
}

void preloadDataFiles(const DataSpec& spec)
{
    if (const auto preload = registryEntry(spec.dataset).preload)
        preload(spec);
}

std::vector<std::string> numberedClasses(int64_t n)
{
    std::vector<std::string> names;
    for (int64_t i = 0; i < n; ++i)
        names.push_back(std::to_string(i));
    return names;
}

std::string DataSplits::normalizationJson() const
{
    nlohmann::json j;
    if (!featureMean.empty()) {
        j = {{"per_feature", true},
             {"mean", featureMean},
             {"std", featureStd},
             {"formula", "(value - mean[i]) / std[i] for feature column i"}};
        if (!featureNames.empty())
            j["columns"] = featureNames;
    } else if (!trainX.norm().empty()) {
        j = {{"per_channel", true},
             {"mean", trainX.norm().mean},
             {"std", trainX.norm().std},
             {"formula", "(pixel / 255 - mean[c]) / std[c] for channel c (RGB order)"}};
    } else {
        j = {{"per_feature", false}, {"mean", mean}, {"std", std}, {"formula", "(pixel / 255 - mean) / std"}};
    }
    return j.dump();
}

} // namespace entrena
