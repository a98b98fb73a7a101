#pragma once
// The forward and backward passes of a multilayer perceptron (linear layers with ReLU between them)
// under a softmax cross-entropy loss, written out by hand over raw fp32 buffers: every matrix product
// one BLAS call on a slice, every element-wise pass fused into the pass beside it, all of a step in
// one parallel region of the intra-op threads. Plain C++ without LibTorch; MlpStep feeds it a
// torch::nn::Sequential's tensors. Why it exists: bench/README.md, "Where time goes in a step".

#include <chrono>
#include <cstdint>
#include <vector>

namespace entrena::mlp {

/// cblas_sgemm's signature (LP64: 32-bit sizes), row-major layout only.
using Sgemm = void (*)(int order, int transA, int transB, int m, int n, int k, float alpha, const float* a, int lda,
                       const float* b, int ldb, float beta, float* c, int ldc);

/// One linear layer: y = x·wᵀ + b, w [out, in] row-major as torch::nn::Linear stores it; its
/// gradients are written to gw and gb.
struct Layer {
    const float* w;
    const float* b;
    float* gw;
    float* gb;
    int in, out;
};

/// The activations (after the ReLU) and the loss's gradients with respect to each layer's output,
/// rows × out per layer, kept between steps.
struct Workspace {
    std::vector<std::vector<float>> act, grad;
    void shape(const std::vector<Layer>& layers, int rows);
};

struct StepResult {
    double loss = 0;                                  ///< mean over the rows
    std::chrono::steady_clock::time_point forwardEnd; ///< when the loss was known
};

/// One step's forward and backward over `rows` samples x [rows, layers[0].in] with labels y (each in
/// [0, classes), checked by the caller), cross-entropy with `smoothing` (as PyTorch's
/// label_smoothing), mean over the rows. Writes every layer's gw and gb. `threads` threads share the
/// work (OpenMP); BLAS must compute each call on the calling thread (the caller confines it).
StepResult trainStep(Sgemm sgemm, const std::vector<Layer>& layers, Workspace& ws, const float* x, const int64_t* y, int rows,
                     double smoothing, int threads);

} // namespace entrena::mlp
