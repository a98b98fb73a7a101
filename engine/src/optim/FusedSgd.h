#pragma once
// PyTorch's SGD with the update of each parameter done in one pass over its memory.

#include "model/PoolRelu.h"

#include <torch/torch.h>

namespace entrena {

/// torch::optim::SGD whose step, for dense fp32 CPU parameters (channels-last ones too), reads the
/// parameter, its gradient and its momentum buffer once and writes them once: the same arithmetic as
/// SGD::step (weight decay, momentum with dampening, Nesterov), which makes four to five passes, each
/// allocating a temporary and, past ATen's grain size, waking the OpenMP threads. Its state is SGD's
/// (the same momentum buffers, saved and loaded the same way), so checkpoints do not change; any other
/// parameter (CUDA, half precision, sparse) takes SGD::step. bench/README.md, "Where time goes in a step".
class FusedSgd : public torch::optim::SGD {
public:
    using torch::optim::SGD::SGD;
    torch::Tensor step(LossClosure closure = nullptr) override;
    /// Whether a step with the gradients as they are takes the one-pass update.
    bool fuses() const;
    /// Whether to take it when it can (on by default), or SGD::step: the run measures which is faster
    /// (train/PathChoice.h).
    void setOnePass(bool on) { onePass_ = on; }
    bool onePass() const { return onePass_; }
    /// Steps of this process that took the one-pass update, for the tests.
    static int64_t onePassSteps();

private:
    bool onePass_ = fusedKernelsWanted();
};

} // namespace entrena
