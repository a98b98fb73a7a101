#pragma once
// The first block of a CNN on grey images — a 3×3 convolution of the data (one input channel, padding
// 1), 2×2 max-pooling, ReLU — as one pass each way on the CPU. Forward: each window's four convolution
// outputs are computed in registers and pooled there; the full-resolution activation (128×32×28×28
// floats, 12.8 MB at batch 128) is never written nor read back, and neither is its gradient. Backward:
// the weight's and bias's gradients are summed from the pooled output's gradient and the window codes
// (model/Lanes.h), each thread over its own rows; the data needs no gradient. Same outputs as oneDNN's
// convolution and ATen's pooling to float rounding (a different order of the nine products);
// tst_pool_relu. bench/README.md, "Where time goes in a step".

#include <torch/torch.h>

namespace entrena {

/// Whether conv → MaxPool2d(2) → ReLU on `x` can run as convPoolRelu: x fp32 on the CPU, [N, 1, H, W],
/// needing no gradient, H and W at least 2; the convolution 1 → 16·k channels, 3×3, stride 1, zero
/// padding 1, no dilation, one group, fp32 on the CPU.
bool convPoolReluApplies(const torch::Tensor& x, torch::nn::Conv2dImpl& conv);

/// relu(max_pool2d(conv(x), 2)), channels-last.
torch::Tensor convPoolRelu(const torch::Tensor& x, torch::nn::Conv2dImpl& conv);

} // namespace entrena
