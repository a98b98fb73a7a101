#pragma once
// The built-in resnet's block (model/Models.cpp), declared here for its fused forward (FusedForward,
// model/PoolRelu.h), which runs its batch norms and ReLUs as one pass each (model/BatchNormRelu.h),
// and for what it says of itself to the summary and the ONNX export (ComposedLayer).

#include "model/ComposedLayer.h"
#include "model/PoolRelu.h"

#include <torch/torch.h>

namespace entrena {

/// A basic residual block: two 3×3 convolutions with batch norm, and a 1×1 projection with batch norm
/// on the shortcut when the shape changes.
struct ResidualBlockImpl : torch::nn::Module, FusedForward, ComposedLayer {
    ResidualBlockImpl(int64_t in, int64_t out, int64_t stride);

    /// relu(bn2(conv2(relu(bn1(conv1(x))))) + shortcut(x)) through ATen's ops.
    torch::Tensor forward(const torch::Tensor& x);
    /// The same, each batch norm and the ReLU after it as one pass where batchNormReluApplies.
    torch::Tensor forwardFused(const torch::Tensor& x) override;
    /// Its three convolutions, each at the resolution it computes at (conv2 at conv1's output's).
    double flops(const torch::Tensor& input) override;
    std::string writeGraph(LayerGraph& graph, const std::string& name, const std::string& x) override;

    torch::nn::Conv2d conv1, conv2, projection{nullptr};
    torch::nn::BatchNorm2d bn1, bn2, projectionBn{nullptr};
};
TORCH_MODULE(ResidualBlock);

} // namespace entrena
