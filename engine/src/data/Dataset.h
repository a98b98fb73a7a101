#pragma once

#include "entrena/config/Config.h"

#include <torch/torch.h>

#include <vector>

namespace entrena {

/// The whole data set held as tensors: images float [N, C, H, W] normalised by the training
/// split's mean and standard deviation, labels int64 [N].
struct DataSplits {
    torch::Tensor trainX, trainY;
    torch::Tensor valX, valY;
    torch::Tensor testX, testY;
    int64_t classes = 10;
    double mean = 0;
    double std = 1;
    /// CSV data is normalised per feature column: these, in column order (empty for images).
    std::vector<double> featureMean, featureStd;

    int64_t channels() const { return trainX.size(1); }
    int64_t height() const { return trainX.size(2); }
    int64_t width() const { return trainX.size(3); }
};

/// Loads (or, for `synthetic`, generates) the data set and splits off validation by `seed`, through
/// the data set's registry entry. Throws std::runtime_error naming the file and the problem.
DataSplits loadData(const DataSpec& spec, uint64_t seed);

// The registry's loaders (data/DatasetRegistry.cpp).
DataSplits loadIdxData(const DataSpec& spec, uint64_t seed);       ///< fashion-mnist, mnist
DataSplits loadCsvData(const DataSpec& spec, uint64_t seed);       ///< csv
DataSplits loadSyntheticData(const DataSpec& spec, uint64_t seed); ///< synthetic

} // namespace entrena
