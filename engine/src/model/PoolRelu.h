#pragma once
// 2×2 max-pooling followed by ReLU, as one pass forward and one backward, for channels-last fp32 CPU
// tensors: ATen's pair writes an index per output and, backward, zero-fills the whole input gradient
// before scattering into it, then runs the ReLU's own pass; here the backward finds each window's
// maximum again from the saved input and writes every input gradient once. The same values and
// gradients as relu(max_pool2d(x, 2)), ties and NaNs included (the first maximum of a window in row
// order takes the gradient, as ATen's CPU kernel does). bench/README.md, "Where time goes in a step".

#include <torch/torch.h>

namespace entrena {

/// False when the environment says ENTRENA_FUSED=0: then every model trains through ATen's own ops and
/// autograd (this and the hand-written MLP step off), for A/B measurements and for doubt.
bool fusedKernelsWanted();

/// Whether CPU autocast is on (a bf16 run): its convolutions must stay bf16, so no block is fused that
/// would compute in fp32 (the pool and batch norm, whose inputs are then bf16, are left to ATen).
bool cpuAutocast();

/// relu(max_pool2d(x, 2)): fused where x is a 4-d channels-last fp32 CPU tensor, ATen's ops elsewhere.
torch::Tensor maxPool2Relu(const torch::Tensor& x);

/// A module with a fused training forward of its own (the resnet's ResidualBlock): forwardFused()
/// takes it through that wherever it stands in a Sequential, and hasFusableBlocks() counts it.
class FusedForward {
public:
    virtual ~FusedForward() = default;
    /// The module's forward with Entrena's kernels where they take the input, ATen's ops elsewhere.
    virtual torch::Tensor forwardFused(const torch::Tensor& x) = 0;
};

/// `model`'s forward, child by child as Sequential's, where a MaxPool2d of kernel 2 and stride 2 (no
/// padding, no dilation, floor mode) followed by a ReLU runs as maxPool2Relu, and as convPoolRelu
/// (ConvPoolRelu.h) together with a convolution of the data before them; a BatchNorm2d followed by a
/// ReLU as batchNormRelu (BatchNormRelu.h); a FusedForward module through its own; unless
/// fusedKernelsWanted() or `allowed` says no (the run measured ATen's ops faster: train/PathChoice.h).
torch::Tensor forwardFused(torch::nn::Sequential& model, torch::Tensor x, bool allowed = true);

/// Whether `model` has a block forwardFused() can run as one pass (a 2×2 pool or a batch norm followed
/// by a ReLU, or a FusedForward module).
bool hasFusableBlocks(torch::nn::Sequential& model);

/// Forward passes of this process that ran at least one block fused, for the tests: that a run takes
/// (or leaves) this path.
int64_t fusedForwards();

} // namespace entrena
