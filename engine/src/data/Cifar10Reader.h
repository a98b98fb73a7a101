#pragma once
// Reader of CIFAR-10's binary version (https://www.cs.toronto.edu/~kriz/cifar.html, "CIFAR-10
// binary version"): data_batch_1.bin … data_batch_5.bin, test_batch.bin and batches.meta.txt.

#include <string>
#include <torch/torch.h>
#include <vector>

namespace entrena {

struct Cifar10Data {
    torch::Tensor trainImages; ///< uint8 [50000, 3, 32, 32] for the full set (the five batches in order)
    torch::Tensor trainLabels; ///< int64 [N]
    torch::Tensor testImages;  ///< uint8 [10000, 3, 32, 32]
    torch::Tensor testLabels;  ///< int64 [N]
    /// batches.meta.txt's names, or the standard ten when the file is missing.
    std::vector<std::string> classes;
};

/// The standard class names, in label order (airplane … truck).
const std::vector<std::string>& cifar10ClassNames();

/// Reads `folder`, or its cifar-10-batches-bin/ subfolder when the files are there (the archive
/// unpacks into it). Throws std::runtime_error naming the file: missing, a size that is not a
/// whole number of 3,073-byte records, or a label that is not one of the classes.
Cifar10Data readCifar10(const std::string& folder);

/// Only the class names (batches.meta.txt, or the standard ten), without reading the images.
std::vector<std::string> readCifar10ClassNames(const std::string& folder);

/// One batch file: images uint8 [N, 3, 32, 32] and labels int64 [N], labels < classCount.
void readCifar10Batch(const std::string& path, int64_t classCount, torch::Tensor& images, torch::Tensor& labels);

} // namespace entrena
