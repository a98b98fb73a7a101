#pragma once
// Batch norm in training mode followed by ReLU, with an optional residual added before the ReLU
// (relu(bn(x)) and relu(bn(x) + shortcut), the two joints of a residual network), for channels-last
// fp32 CPU tensors: one pass for the batch's statistics and one for the output, then two passes
// backward that take the ReLU's mask and give the input's (and the shortcut's) gradient directly.
// ATen's ops make four more passes over the activations forward and backward (the sum, the ReLU,
// the ReLU's gradient and the gradient's copy at the addition), and on a small residual network those
// passes, not the convolutions, are half of a step. Same values as ATen's to float rounding;
// bench/README.md, "Any model, any CPU".

#include <torch/torch.h>

namespace entrena {

/// Whether batchNormRelu(x, bn, shortcut) runs fused: x a 4-d channels-last fp32 CPU tensor (and the
/// shortcut, if given, the same shape and layout), `bn` training with affine weights and running
/// statistics, more than one value per channel, no CPU autocast, and ENTRENA_FUSED not 0.
bool batchNormReluApplies(const torch::Tensor& x, torch::nn::BatchNorm2dImpl& bn, const torch::Tensor& shortcut = {});

/// relu(bn(x) + shortcut), or relu(bn(x)) without a shortcut: fused where batchNormReluApplies, ATen's
/// ops elsewhere. Updates bn's running statistics and batch count as its forward does.
torch::Tensor batchNormRelu(const torch::Tensor& x, torch::nn::BatchNorm2dImpl& bn, const torch::Tensor& shortcut = {});

/// Fused batch norms run by this process, for the tests and for forwardFused's count.
int64_t fusedBatchNorms();

} // namespace entrena
