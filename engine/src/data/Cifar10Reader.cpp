#include "data/Cifar10Reader.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace entrena {
namespace {

namespace fs = std::filesystem;

// A record: the label byte, then the 1024 red, 1024 green and 1024 blue bytes of a 32x32 image
// (row-major), which is already the channel-first layout of a [3, 32, 32] tensor.
constexpr int64_t kImageBytes = 3 * 32 * 32;
constexpr int64_t kRecordBytes = 1 + kImageBytes;

const char* const kFetchHint = "download the \"CIFAR-10 binary version\" from https://www.cs.toronto.edu/~kriz/cifar.html "
                               "and point data.path at its cifar-10-batches-bin folder";

std::vector<std::string> readClassNames(const fs::path& file)
{
    std::ifstream in(file);
    if (!in)
        return cifar10ClassNames();
    std::vector<std::string> names;
    std::string line;
    while (std::getline(in, line)) {
        const auto b = line.find_first_not_of(" \t\r");
        const auto e = line.find_last_not_of(" \t\r");
        if (b != std::string::npos) // the file ends in blank lines
            names.push_back(line.substr(b, e - b + 1));
    }
    if (names.size() < 2)
        throw std::runtime_error("CIFAR-10 class names '" + file.string() + "' list " + std::to_string(names.size()) +
                                 " class(es); it needs one name per line, one line per class (or delete it for the "
                                 "standard ten)");
    return names;
}

} // namespace

const std::vector<std::string>& cifar10ClassNames()
{
    static const std::vector<std::string> names = {"airplane", "automobile", "bird",  "cat",  "deer",
                                                   "dog",      "frog",       "horse", "ship", "truck"};
    return names;
}

void readCifar10Batch(const std::string& path, int64_t classCount, torch::Tensor& images, torch::Tensor& labels)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw std::runtime_error("CIFAR-10 file '" + path + "' cannot be opened (" + std::strerror(errno ? errno : ENOENT) +
                                 "); " + kFetchHint);
    in.seekg(0, std::ios::end);
    const int64_t size = int64_t(in.tellg());
    in.seekg(0);
    if (size <= 0 || size % kRecordBytes != 0)
        throw std::runtime_error("CIFAR-10 file '" + path + "' has " + std::to_string(size) +
                                 " bytes, not a whole number of 3073-byte records (1 label byte + 3072 pixels); it is "
                                 "damaged or not the binary version: " +
                                 kFetchHint);
    const int64_t n = size / kRecordBytes;
    std::vector<uint8_t> raw(size_t(size), 0);
    if (!in.read(reinterpret_cast<char*>(raw.data()), size))
        throw std::runtime_error("CIFAR-10 file '" + path + "' cannot be read");
    images = torch::empty({n, 3, 32, 32}, torch::kUInt8);
    labels = torch::empty({n}, torch::kInt64);
    uint8_t* pixels = images.data_ptr<uint8_t>();
    int64_t* label = labels.data_ptr<int64_t>();
    for (int64_t i = 0; i < n; ++i) {
        const uint8_t* record = raw.data() + i * kRecordBytes;
        if (record[0] >= classCount)
            throw std::runtime_error("CIFAR-10 file '" + path + "', record " + std::to_string(i + 1) + ": label " +
                                     std::to_string(record[0]) + " is not one of the " + std::to_string(classCount) +
                                     " classes (0 … " + std::to_string(classCount - 1) +
                                     "); the file is damaged, or batches.meta.txt lists too few classes");
        label[i] = record[0];
        std::memcpy(pixels + i * kImageBytes, record + 1, size_t(kImageBytes));
    }
}

std::vector<std::string> readCifar10ClassNames(const std::string& folder)
{
    fs::path dir(folder);
    std::error_code ec;
    if (!fs::exists(dir / "data_batch_1.bin", ec) && fs::exists(dir / "cifar-10-batches-bin" / "data_batch_1.bin", ec))
        dir /= "cifar-10-batches-bin";
    return readClassNames(dir / "batches.meta.txt");
}

Cifar10Data readCifar10(const std::string& folder)
{
    fs::path dir(folder);
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        throw std::runtime_error("data.path '" + folder + "' is not a folder; " + kFetchHint);
    if (!fs::exists(dir / "data_batch_1.bin", ec) && fs::exists(dir / "cifar-10-batches-bin" / "data_batch_1.bin", ec))
        dir /= "cifar-10-batches-bin";

    Cifar10Data d;
    d.classes = readClassNames(dir / "batches.meta.txt");
    std::vector<std::string> files;
    for (int b = 1; b <= 5; ++b)
        files.push_back((dir / ("data_batch_" + std::to_string(b) + ".bin")).string());
    files.push_back((dir / "test_batch.bin").string());
    // Every file is checked before any is read: a missing one is named at once, not after seconds.
    for (const auto& f : files)
        if (!fs::is_regular_file(f, ec))
            throw std::runtime_error("CIFAR-10 file '" + f +
                                     "' is missing; the folder needs data_batch_1.bin … "
                                     "data_batch_5.bin and test_batch.bin: " +
                                     kFetchHint);
    std::vector<torch::Tensor> images, labels;
    for (size_t i = 0; i + 1 < files.size(); ++i) {
        torch::Tensor x, y;
        readCifar10Batch(files[i], int64_t(d.classes.size()), x, y);
        images.push_back(x);
        labels.push_back(y);
    }
    d.trainImages = torch::cat(images);
    d.trainLabels = torch::cat(labels);
    readCifar10Batch(files.back(), int64_t(d.classes.size()), d.testImages, d.testLabels);
    return d;
}

} // namespace entrena
