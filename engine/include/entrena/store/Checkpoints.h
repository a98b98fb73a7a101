#pragma once
// Checkpoint files, as seen from outside the engine (plain C++).

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace entrena {

/// A checkpoint that cannot be used: missing, damaged, or written for another model.
class CheckpointError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// CRC-32 of a file's bytes as 8 hex digits (the checksum recorded for each checkpoint).
std::string fileChecksum(const std::string& path);

/// The largest absolute difference between the parameters (and buffers) of two checkpoints of the
/// same model. Throws CheckpointError when they hold different tensors.
double maxParameterDifference(const std::string& checkpointA, const std::string& checkpointB);

/// Per tensor (parameters and buffers, by name), the largest absolute change from checkpoint A to B.
std::vector<std::pair<std::string, double>> tensorChanges(const std::string& checkpointA, const std::string& checkpointB);

} // namespace entrena
