#pragma once

#include <string>
#include <torch/torch.h>
#include <vector>

namespace entrena {

struct CsvTable {
    torch::Tensor features; ///< float [N, F]
    torch::Tensor labels;   ///< int64 [N]
    /// Labels written as names ("cat", "dog"): the class names, sorted bytewise, label i being
    /// classes[i]. Empty when the labels are class numbers 0, 1, 2, ….
    std::vector<std::string> classes;
};

/// Reads numeric feature columns and a label column (by header name, or by 0-based index). The
/// labels are class numbers when every label cell is one; when every one is a name, the classes
/// are the distinct names, sorted. Throws std::runtime_error naming the file, row and column of a
/// ragged row, a non-numeric feature cell, a label that is not a class number, an empty label, or
/// a label column that mixes numbers and names.
CsvTable readCsv(const std::string& path, const std::string& labelColumn, bool header);

/// A training file and its test file. The test file's labels use the training file's classes:
/// with names, each must be one of the training file's (else an error naming it and the file);
/// with numbers, both must hold numbers. Both must have the same number of feature columns.
struct CsvPair {
    CsvTable train, test;
};
/// `testPath` empty: only the training file (the test table stays empty).
CsvPair readCsvPair(const std::string& trainPath, const std::string& testPath, const std::string& labelColumn, bool header);

} // namespace entrena
