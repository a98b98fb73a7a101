#pragma once
// A data set seen before training: its classes and input shape (for the model's size), and a few
// images of each class with the class counts (the GUI's data preview). Plain C++: the GUI includes it.

#include "entrena/config/Config.h"

#include <cstdint>
#include <string>
#include <vector>

namespace entrena {

/// What a model for this data takes and gives.
struct DataShape {
    std::vector<std::string> classes;
    int64_t channels = 0, height = 0, width = 0; ///< tables: 1 × 1 × features
    /// Training samples before the validation split, where reading found them (0: the data set's
    /// typical count applies); `ownValidation`: the files hold their own validation split (val/).
    int64_t samples = 0;
    bool ownValidation = false;
};

/// The classes and input shape of `spec`'s data, reading as little as it can (IDX and CIFAR-10: the
/// known shapes; image folders: the listing and the images' headers; tables: the whole file).
/// Throws std::runtime_error with the loader's message when the data cannot be read.
DataShape probeDataShape(const DataSpec& spec);

/// One class of the preview.
struct ClassPreview {
    std::string name;
    int64_t count = 0;                        ///< training samples (validation split included)
    std::vector<std::vector<uint8_t>> images; ///< up to the number asked for: C × H × W bytes each (images only)
};

struct DataPreview {
    int64_t channels = 0, height = 0, width = 0; ///< of each image (0 for tables: no images)
    std::vector<ClassPreview> classes;
    int64_t total = 0;
    /// "Ankle boot has 6,000 images, Bag 120: …" when the largest class has more than 3× the smallest.
    std::string imbalance;
    /// Files that could not be read (image folders): how many, naming a few.
    std::string skipped;
};

/// Up to `perClass` images of each class of the training data, drawn by `seed`, and the counts.
/// Image folders decode only the images shown. Throws std::runtime_error as loading would.
DataPreview previewData(const DataSpec& spec, int perClass, uint64_t seed);

} // namespace entrena
