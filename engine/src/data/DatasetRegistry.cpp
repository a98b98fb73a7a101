// The data sets: one entry each, with the keys only it reads and the loader that reads it.
#include "config/Keys.h"
#include "data/DataShapes.h"
#include "data/Dataset.h"
#include "entrena/config/Registry.h"

namespace entrena {
namespace {

using namespace keys;
using D = DataSpec;

void checkImageFolder(const DataSpec& d)
{
    if (d.imageSize.size() > 2)
        throw ConfigError("data.image_size must be [height, width] or one number, got " + std::to_string(d.imageSize.size()) +
                          " numbers");
    if (d.channels == 2)
        throw ConfigError("data.channels must be 1 (grey) or 3 (RGB), or 0 to decide from the images; got 2");
}

/// Zalando's clothing images.
DatasetEntry fashionMnist()
{
    return {DatasetKind::FashionMnist,
            "fashion-mnist",
            ENTRENA_LABEL("Registry", "Fashion-MNIST"),
            "Zalando's 28×28 grey clothing images, 10 classes (IDX files, gzipped or not)",
            true,
            true,
            false,
            false,
            "/usr/share/datasets/fashion-mnist",
            60000,
            {},
            loadFashionMnistData,
            nullptr,
            fashionMnistShape,
            true,
            nullptr,
            preloadIdxFiles};
}

/// Handwritten digits.
DatasetEntry mnist()
{
    return {DatasetKind::Mnist,
            "mnist",
            ENTRENA_LABEL("Registry", "MNIST"),
            "28×28 grey handwritten digits (IDX files, gzipped or not)",
            true,
            true,
            false,
            false,
            "",
            60000,
            {},
            loadMnistData,
            nullptr,
            tenClassesOf28Shape,
            true,
            nullptr,
            preloadIdxFiles};
}

/// A table of numbers with a label column.
DatasetEntry csvTable()
{
    return {
        DatasetKind::Csv,
        "csv",
        ENTRENA_LABEL("Registry", "CSV table"),
        "a table: one row per sample, numeric feature columns and a label column",
        false,
        true,
        true,
        false,
        "",
        10000,
        {text<&D::testPath>("test_path", "the test file (empty: no test set)", shown(ENTRENA_LABEL("Registry", "Test file:"))),
         text<&D::labelColumn>("label_column", "the label column's header name, or its 0-based index",
                               shown(ENTRENA_LABEL("Registry", "Label column:"))),
         boolean<&D::header>("header", "the first row names the columns")},
        loadCsvData};
}

/// Generated images, no files.
DatasetEntry synthetic()
{
    return {DatasetKind::Synthetic,
            "synthetic",
            ENTRENA_LABEL("Registry", "Synthetic (no files)"),
            "generated 28×28 images of 10 learnable classes (tests, benchmarks)",
            true,
            false,
            false,
            false,
            "",
            6000,
            {},
            loadSyntheticData,
            nullptr,
            tenClassesOf28Shape,
            true};
}

/// The user's own images.
DatasetEntry imageFolder()
{
    return {DatasetKind::ImageFolder,
            "image-folder",
            ENTRENA_LABEL("Registry", "Image folder"),
            "your images, PNG or JPEG, one subfolder per class (or train/, val/, test/ each holding them)",
            true,
            true,
            false,
            true,
            "",
            10000,
            {defaultIs(integers<&D::imageSize>("image_size", 1, 4096, "[H, W] (or one number: square) every image is resized to",
                                               shown(ENTRENA_LABEL("Registry", "Image size:"))),
                       "as stored: every image the same size"),
             defaultIs(integer<&D::channels>(
                           "channels", 0, 3, "1 (grey) or 3 (RGB)",
                           shown(ENTRENA_LABEL("Registry", "Image channels:"), 0, 0, ENTRENA_LABEL("Registry", "automatic"))),
                       "`0`: 3 if any image has colour, else 1"),
             defaultIs(number<&D::cacheMb>("cache_mb", 0.0, 1e9,
                                           "decoded images are kept in memory up to this many MiB, else decoded on the fly"),
                       "`0`: half the memory available")},
            loadImageFolderData,
            checkImageFolder,
            imageFolderShape,
            false,
            previewImageFolder};
}

/// CIFAR-10's binary version.
DatasetEntry cifar10()
{
    return {DatasetKind::Cifar10,
            "cifar10",
            ENTRENA_LABEL("Registry", "CIFAR-10"),
            "CIFAR-10's binary version: 32×32 colour images, 10 classes (data_batch_1.bin … test_batch.bin)",
            true,
            true,
            false,
            false,
            "",
            50000,
            {},
            loadCifar10Data,
            nullptr,
            cifar10Shape};
}

std::vector<DatasetEntry> makeEntries()
{
    return {fashionMnist(), mnist(), csvTable(), synthetic(), imageFolder(), cifar10()};
}

} // namespace

const std::vector<DatasetEntry>& datasetRegistry()
{
    static const std::vector<DatasetEntry> entries = makeEntries();
    return entries;
}

const DatasetEntry& registryEntry(DatasetKind kind)
{
    return keys::entryOf(datasetRegistry(), &DatasetEntry::kind, kind);
}

const char* toString(DatasetKind kind)
{
    return registryEntry(kind).name;
}

template <>
std::optional<DatasetKind> fromString<DatasetKind>(std::string_view name)
{
    return keys::kindNamed(datasetRegistry(), &DatasetEntry::kind, name);
}

template <>
std::vector<std::string> choiceNames<DatasetKind>()
{
    return keys::namesOf(datasetRegistry());
}

} // namespace entrena
