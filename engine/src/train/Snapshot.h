#pragma once
// An in-memory copy of a model's parameters and buffers and its optimizer's state, to go back to
// exactly: the range test restores it when it ends, the divergence guard when a step goes bad.

#include "model/Model.h"

#include <string>
#include <torch/torch.h>
#include <vector>

namespace entrena {

class Snapshot {
public:
    void take(Model& model, torch::optim::Optimizer& optimizer);
    /// Puts everything back as it was at take(); the optimizer's rates too.
    void restore(Model& model, torch::optim::Optimizer& optimizer, const torch::Device& device) const;
    bool empty() const { return tensors_.empty(); }
    int64_t step = 0; ///< the caller's step counter at take()

private:
    std::vector<torch::Tensor> tensors_;
    std::string optimizer_;
    std::vector<double> lrs_;
};

} // namespace entrena
