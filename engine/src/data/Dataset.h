#pragma once

#include "data/ImageFolder.h"
#include "data/Samples.h"
#include "entrena/config/Config.h"

#include <string>
#include <torch/torch.h>
#include <vector>

namespace entrena {

/// The whole data set, split: inputs (Samples: float tensors normalised when loaded, uint8 images
/// normalised per channel as batches are made, or images decoded on the fly) and int64 labels.
struct DataSplits {
    Samples trainX, valX, testX;
    torch::Tensor trainY, valY, testY;
    int64_t classes = 10;
    std::vector<std::string> classNames; ///< in label order
    /// Grey IDX images and synthetic data: normalised over all pixels by these (of pixel / 255).
    double mean = 0;
    double std = 1;
    /// CSV data is normalised per feature column: these, in column order (empty for images).
    std::vector<double> featureMean, featureStd;
    /// CSV data: the feature columns' header names, in order (empty without a header row).
    std::vector<std::string> featureNames;
    /// Where each validation and test sample came from, so that the evaluation can name it: an
    /// image folder's file of each row (an absolute path); a CSV table's line of each row in its
    /// file (1: the first).
    /// Empty where samples have no file of their own (IDX, CIFAR-10, synthetic).
    std::vector<std::string> valFiles, testFiles;
    std::vector<int64_t> valLines, testLines;
    /// Files with an image extension that could not be read (image folders), with the reason.
    std::vector<SkippedImage> skipped;

    int64_t channels() const { return trainX.size(1); }
    int64_t height() const { return trainX.size(2); }
    int64_t width() const { return trainX.size(3); }
    std::vector<int64_t> inputShape() const { return {channels(), height(), width()}; }
    /// How the model's input is made from what is stored, for the store and the export sidecar.
    std::string normalizationJson() const;
};

/// IDX pixel bytes as the model's input: (byte / 255 − mean) / std, in float, as training made them.
torch::Tensor normalisedBytes(const torch::Tensor& bytes, double mean, double std);

/// Loads (or, for `synthetic`, generates) the data set and splits off validation by `seed`, through
/// the data set's registry entry. Throws std::runtime_error naming the file and the problem.
DataSplits loadData(const DataSpec& spec, uint64_t seed);

// The registry's loaders (data/DatasetRegistry.cpp).
DataSplits loadFashionMnistData(const DataSpec& spec, uint64_t seed); ///< fashion-mnist
DataSplits loadMnistData(const DataSpec& spec, uint64_t seed);        ///< mnist
DataSplits loadCsvData(const DataSpec& spec, uint64_t seed);          ///< csv
DataSplits loadSyntheticData(const DataSpec& spec, uint64_t seed);    ///< synthetic
DataSplits loadImageFolderData(const DataSpec& spec, uint64_t seed);  ///< image-folder (data/ImageData.cpp)
DataSplits loadCifar10Data(const DataSpec& spec, uint64_t seed);      ///< cifar10 (data/ImageData.cpp)

/// Reads fashion-mnist's or mnist's four IDX files into memory once (the trial server's preload).
void preloadIdxFiles(const DataSpec& spec);

/// Fashion-MNIST's class names as torchvision's FashionMNIST.classes gives them.
const std::vector<std::string>& fashionMnistClasses();

/// Class names for class numbers 0 … n−1 ("0", "1", …).
std::vector<std::string> numberedClasses(int64_t n);

} // namespace entrena
