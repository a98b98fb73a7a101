// The user's own images: a folder of class folders, and CIFAR-10's binary files. Both are kept as
// uint8 pixels (a quarter of a float copy) and normalised per channel as batches are made; an image
// folder whose decoded pixels would not fit in data.cache_mb is decoded on the fly instead.
#include "data/Cifar10Reader.h"
#include "data/Dataset.h"
#include "data/Holdout.h"
#include "data/ImageDecode.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <thread>

namespace entrena {
namespace {

/// Bytes of decoded images kept in memory: data.cache_mb, or half the memory available now.
int64_t cacheLimitBytes(const DataSpec& spec)
{
    if (spec.cacheMb > 0)
        return int64_t(spec.cacheMb * 1024 * 1024);
    std::ifstream meminfo("/proc/meminfo");
    std::string key;
    int64_t kib = 0;
    while (meminfo >> key >> kib) {
        if (key == "MemAvailable:")
            return kib * 1024 / 2;
        meminfo.ignore(256, '\n');
    }
    return int64_t(2) << 30; // no /proc: 2 GiB
}

int decodeThreads()
{
    return int(std::max(1u, std::thread::hardware_concurrency()));
}

/// The files as absolute paths: the evaluation names them where the working folder is unknown.
std::vector<std::string> absolutePaths(const std::vector<std::string>& files)
{
    std::vector<std::string> out;
    out.reserve(files.size());
    for (const std::string& file : files) {
        std::error_code ec;
        const auto absolute = std::filesystem::absolute(file, ec);
        out.push_back(ec ? file : absolute.lexically_normal().string());
    }
    return out;
}

/// Keeps the files at `rows` (a permutation's part), in that order.
ImageFileList pick(const ImageFileList& list, const torch::Tensor& rows)
{
    ImageFileList out;
    const auto r = rows.contiguous();
    for (int64_t i = 0; i < r.numel(); ++i) {
        const size_t at = size_t(r.data_ptr<int64_t>()[i]);
        out.files.push_back(list.files[at]);
        out.labels.push_back(list.labels[at]);
    }
    return out;
}

torch::Tensor labelsOf(const ImageFileList& list)
{
    auto t = torch::empty({int64_t(list.size())}, torch::kInt64);
    std::copy(list.labels.begin(), list.labels.end(), t.data_ptr<int64_t>());
    return t;
}

/// Without a val/ folder, validation is data.val_fraction of the training files, drawn by the seed;
/// data.train_limit and data.test_limit keep a seeded subset (the listing is ordered by class, so
/// its first N would be the first classes only).
void splitListing(ImageFolderListing& listing, const DataSpec& spec, uint64_t seed)
{
    auto gen = at::detail::createCPUGenerator(seed);
    const int64_t n = int64_t(listing.train.size());
    torch::Tensor order;
    if (listing.hasVal) {
        if (spec.folds > 1)
            throw std::runtime_error("data.folds: '" + spec.path +
                                     "' has a val/ folder, which is the validation split; cross-validation deals the "
                                     "training images into folds, so move val/'s images into train/ or set data.folds 0");
        order = torch::randperm(n, gen, torch::kInt64);
    } else {
        const HeldOut split = holdOut(labelsOf(listing.train), spec, gen, "images", listing.classes);
        listing.val = pick(listing.train, split.val);
        order = split.train;
    }
    if (spec.trainLimit > 0 && spec.trainLimit < order.size(0))
        order = order.slice(0, 0, spec.trainLimit);
    listing.train = pick(listing.train, std::get<0>(order.sort())); // back in listing order: by class, by file
    if (spec.testLimit > 0 && spec.testLimit < int64_t(listing.test.size())) {
        auto testOrder = torch::randperm(int64_t(listing.test.size()), gen, torch::kInt64);
        listing.test = pick(listing.test, std::get<0>(testOrder.slice(0, 0, spec.testLimit).sort()));
    }
}

/// A split decoded on the fly: each row decodes its file when a batch takes it.
Samples onDisk(const ImageFolderListing& listing, const ImageFileList& list, const ChannelNorm& norm)
{
    auto files = std::make_shared<std::vector<std::string>>(list.files);
    const int c = listing.channels, h = listing.height, w = listing.width;
    return Samples(
        int64_t(list.size()), {c, h, w},
        [files, c, h, w](int64_t row, uint8_t* out) {
            try {
                decodeImageInto((*files)[size_t(row)], c, h, w, out);
            } catch (const ImageDecodeError& e) {
                // Only headers were read before training: a damaged file shows itself here.
                throw std::runtime_error(std::string(e.what()) +
                                         "; it was found while training because the decoded images are larger than "
                                         "data.cache_mb, so they are decoded as batches are made: remove or repair "
                                         "the file (a run with the images cached skips it with a data_warning)");
            }
        },
        norm);
}

/// The per-channel statistics of up to `limit` training images, drawn by the seed (all of them
/// when they are in memory).
ChannelNorm sampleNorm(const ImageFolderListing& listing, uint64_t seed, int64_t limit)
{
    const int64_t n = std::min<int64_t>(limit, int64_t(listing.train.size()));
    auto gen = at::detail::createCPUGenerator(seed + 17);
    ImageFolderListing sample = listing;
    sample.train = pick(listing.train, torch::randperm(int64_t(listing.train.size()), gen, torch::kInt64).slice(0, 0, n));
    sample.val = {};
    sample.test = {};
    return ChannelNorm::measure(decodeImageFolder(sample, decodeThreads()).train.images);
}

DataSplits imageSplits(torch::Tensor trainX, torch::Tensor trainY, torch::Tensor valX, torch::Tensor valY, torch::Tensor testX,
                       torch::Tensor testY, std::vector<std::string> classes)
{
    DataSplits d;
    const ChannelNorm norm = ChannelNorm::measure(trainX); // the training split's, never another's
    d.trainX = Samples(std::move(trainX), norm);
    d.valX = Samples(std::move(valX), norm);
    d.testX = Samples(std::move(testX), norm);
    d.trainY = std::move(trainY);
    d.valY = std::move(valY);
    d.testY = std::move(testY);
    d.classes = int64_t(classes.size());
    d.classNames = std::move(classes);
    return d;
}

} // namespace

DataSplits loadImageFolderData(const DataSpec& spec, uint64_t seed)
{
    ImageFolderOptions options;
    options.channels = spec.channels;
    if (!spec.imageSize.empty()) {
        options.height = int(spec.imageSize.front());
        options.width = int(spec.imageSize.back());
    }
    options.threads = decodeThreads();
    ImageFolderListing listing = listImageFolder(spec.path, options);
    splitListing(listing, spec, seed);
    if (listing.cacheBytes() > cacheLimitBytes(spec)) {
        // Too large to keep: decode every batch's images on the loader's threads (data.workers).
        DataSplits d;
        const ChannelNorm norm = sampleNorm(listing, seed, 2000);
        d.trainX = onDisk(listing, listing.train, norm);
        d.valX = onDisk(listing, listing.val, norm);
        d.testX = onDisk(listing, listing.test, norm);
        d.trainY = labelsOf(listing.train);
        d.valY = labelsOf(listing.val);
        d.testY = labelsOf(listing.test);
        d.classes = int64_t(listing.classes.size());
        d.classNames = listing.classes;
        d.valFiles = absolutePaths(listing.val.files);
        d.testFiles = absolutePaths(listing.test.files);
        d.skipped = listing.skipped;
        return d;
    }
    ImageFolderData data = decodeImageFolder(listing, decodeThreads());
    DataSplits d = imageSplits(std::move(data.train.images), std::move(data.train.labels), std::move(data.val.images),
                               std::move(data.val.labels), std::move(data.test.images), std::move(data.test.labels),
                               std::move(data.classes));
    d.valFiles = absolutePaths(data.val.files);
    d.testFiles = absolutePaths(data.test.files);
    d.skipped = std::move(data.skipped);
    return d;
}

DataSplits loadCifar10Data(const DataSpec& spec, uint64_t seed)
{
    Cifar10Data c = readCifar10(spec.path);
    torch::Tensor x = c.trainImages, y = c.trainLabels, testX = c.testImages, testY = c.testLabels;
    if (spec.trainLimit > 0 && spec.trainLimit < x.size(0)) {
        x = x.slice(0, 0, spec.trainLimit);
        y = y.slice(0, 0, spec.trainLimit);
    }
    if (spec.testLimit > 0 && spec.testLimit < testX.size(0)) {
        testX = testX.slice(0, 0, spec.testLimit);
        testY = testY.slice(0, 0, spec.testLimit);
    }
    auto gen = at::detail::createCPUGenerator(seed);
    const HeldOut split = holdOut(y, spec, gen, "images", c.classes);
    const auto &val = split.val, &train = split.train;
    return imageSplits(x.index_select(0, train), y.index_select(0, train), x.index_select(0, val), y.index_select(0, val),
                       testX.contiguous(), testY.contiguous(), std::move(c.classes));
}

} // namespace entrena
