#pragma once
// The training step of a plain MLP (model.arch mlp, no dropout) on the CPU in fp32, without autograd:
// MlpKernels' hand-written passes over the model's own parameters, which leave their gradients where
// backward() would. Taken by TrainStep when a step is one micro-batch; autograd does the rest (and
// every other model). The same gradients as autograd's to float rounding (tst_mlp_step).
// bench/README.md, "Where time goes in a step".

#include "entrena/config/Choices.h"
#include "train/MlpKernels.h"

#include <chrono>
#include <memory>
#include <torch/torch.h>
#include <vector>

namespace entrena {

class Model;
struct TrainSpec;

class MlpStep {
public:
    /// The step for `model` when it can take it: a torch::nn::Sequential of Flatten, then Linear layers
    /// with ReLU between them (with biases), fp32 on the CPU, `train.precision` fp32, not data-parallel,
    /// and a BLAS whose threads can be confined (OpenBLAS) or one intra-op thread. Otherwise null, and
    /// autograd trains the model. ENTRENA_FUSED=0 in the environment says null always (fusedKernelsWanted).
    static std::unique_ptr<MlpStep> make(Model& model, const torch::Device& device, const TrainSpec& train, Task task,
                                         bool dataParallel);

    /// Whether this batch can take it: fp32 inputs of the first layer's width, int64 labels.
    bool accepts(const torch::Tensor& x, const torch::Tensor& y) const;

    struct Result {
        torch::Tensor loss; ///< the mean loss, a 0-dim fp32 tensor
        std::chrono::steady_clock::time_point forwardEnd;
    };
    /// Forward and backward over (x, y): every parameter's grad() is set (overwritten). Throws
    /// std::runtime_error for a label outside [0, classes).
    Result run(const torch::Tensor& x, const torch::Tensor& y);

    /// Steps this process has taken through run(), for the tests: that training takes this path.
    static int64_t stepsTaken();
    /// Whether this process's BLAS lets the step's threads share its products (OpenBLAS with threads);
    /// without it the step takes one thread, and make() declines a run of several.
    static bool threadsShareBlas();

private:
    MlpStep(std::vector<torch::nn::Linear> layers, double smoothing, mlp::Sgemm sgemm);

    std::vector<torch::nn::Linear> layers_;
    std::vector<torch::Tensor> weightGrads_, biasGrads_;
    double smoothing_;
    mlp::Sgemm sgemm_;
    mlp::Workspace workspace_;
};

} // namespace entrena
