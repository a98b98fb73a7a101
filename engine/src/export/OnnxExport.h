#pragma once
// A built-in model (mlp, cnn, resnet) as an ONNX graph (opset 13) written with Debian's ONNX library
// (libonnx-dev), for runtimes other than PyTorch: ONNX Runtime, OpenCV's DNN module, TensorRT.
// Input "input": float [batch, C, H, W], normalised as the export's .json says; output "logits".

#include "model/Model.h"

#include <string>

namespace entrena {

/// Whether this build can write ONNX (it was built with libonnx-dev).
bool onnxAvailable();

/// The serialised ONNX model of `model`'s current weights for inputs [C, H, W]. Throws
/// std::runtime_error naming the layer it cannot write, for a TorchScript model, or in a build
/// without ONNX.
std::string onnxBytes(Model& model, int64_t channels, int64_t height, int64_t width, int64_t classes, const std::string& name);

} // namespace entrena
