#pragma once
// A run's trained weights in formats other tools read: PyTorch's `torch.load`, the safetensors
// layout, and (for a user's TorchScript model) `torch.jit.load`. Plain C++: the GUI includes it.

#include "entrena/store/Checkpoints.h"

#include <cstdint>
#include <string>

namespace entrena {

class RunStore;

struct ExportResult {
    std::string file;        ///< what was written
    std::string sidecar;     ///< `file` + ".json": configuration, metrics, normalisation
    std::string format;      ///< "state_dict" | "safetensors" | "torchscript"
    std::string checkpoint;  ///< the checkpoint it came from
    int tensors = 0;
    double testAccuracy = -1; ///< of the exported weights, measured while exporting (-1: data unavailable)
};

/// Writes run `runId`'s `which` checkpoint ("best" or "last") to `out`, chosen by extension:
/// `.pt`/`.pth` a state dict (for a TorchScript model: the trained module), `.safetensors` the
/// safetensors layout. Files are written whole or not at all (temporary file, then rename).
/// Throws CheckpointError (no such checkpoint, missing or damaged file) or std::runtime_error
/// (an output that cannot be written, an unknown extension), each naming the problem.
ExportResult exportCheckpoint(RunStore& store, int64_t runId, const std::string& which, const std::string& out);

} // namespace entrena
