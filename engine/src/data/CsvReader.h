#pragma once

#include <torch/torch.h>

#include <string>

namespace entrena {

struct CsvTable {
    torch::Tensor features; ///< float [N, F]
    torch::Tensor labels;   ///< int64 [N]
};

/// Reads numeric feature columns and an integer label column (by header name, or by 0-based index).
/// Throws std::runtime_error naming the file, row and column of a ragged row or a non-numeric cell.
CsvTable readCsv(const std::string& path, const std::string& labelColumn, bool header);

} // namespace entrena
