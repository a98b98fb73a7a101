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
    /// The feature columns' header names, in order (empty when the file has no header row).
    std::vector<std::string> featureNames;
    std::vector<int64_t> lines; ///< each row's line in its file (1: the first, the header when there is one)
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

/// A table to predict on (docs/predict.md): the feature columns a model was trained on, found by
/// their header names in any order (without names: by position, the label column where it trained),
/// and the label column when the table has one.
struct TableToPredict {
    torch::Tensor features;          ///< float [N, F], in the training file's column order
    std::vector<int64_t> lines;      ///< each row's line in the file (1-based, the header is line 1)
    std::vector<std::string> labels; ///< each row's label cell (empty when the table has no label column)
    bool decimalComma = false;       ///< its cells separated by ';' or tabs: a label "1,0" is class 1
    /// Rows that could not be read (a cell that is not a number, a ragged row), as "line N: why".
    std::vector<std::pair<int64_t, std::string>> skipped;
};

/// Reads `path` for a model trained on `columns` (its feature header names; empty when it trained
/// on a file without a header, then `featureCount` columns by position). Throws std::invalid_argument
/// naming the columns when the table lacks some of them or has columns the model does not know,
/// std::runtime_error when the file cannot be read. Bad rows are skipped and listed, never fatal.
TableToPredict readTableToPredict(const std::string& path, const std::vector<std::string>& columns, int64_t featureCount,
                                  const std::string& labelColumn, bool header);

} // namespace entrena
