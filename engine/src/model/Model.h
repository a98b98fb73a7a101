#pragma once

#include "entrena/config/Config.h"

#include <optional>
#include <string>
#include <torch/script.h>
#include <torch/torch.h>
#include <utility>
#include <vector>

namespace entrena {

/// The network a run trains: one of Entrena's own (a torch::nn::Sequential) or a user's
/// TorchScript module, behind one interface, so the trainer, checkpoints and summaries need not
/// care which.
class Model {
public:
    /// Builds `spec` for inputs of [channels, height, width]. Throws std::runtime_error naming the
    /// problem (a TorchScript file that is not one, or has no parameters).
    static Model build(const ModelSpec& spec, int64_t channels, int64_t height, int64_t width, int64_t classes);

    /// As build(), on `device`, and channels-last where the model prefers it (prefersChannelsLast):
    /// the model as a run trains it, before its optimizer is made.
    static Model buildOn(const torch::Device& device, const ModelSpec& spec, int64_t channels, int64_t height, int64_t width,
                         int64_t classes);

    /// A TorchScript module meets the data: one forward pass of a batch of [C, H, W] inputs must give
    /// scores for `classes` classes. Throws std::runtime_error naming both shapes when it does not
    /// (instead of LibTorch's "mat1 and mat2 shapes cannot be multiplied" in the first step).
    void checkShapes(const torch::Device& device, int64_t channels, int64_t height, int64_t width, int64_t classes);

    torch::Tensor forward(const torch::Tensor& x);
    std::vector<torch::Tensor> parameters() const;
    /// Parameters and buffers by their dotted names (as PyTorch's state_dict names them).
    std::vector<std::pair<std::string, torch::Tensor>> namedTensors() const;
    void train(bool on);
    void to(const torch::Device& device);
    /// Stores 4-d weights channels-last (before the optimizer is created).
    void toChannelsLast();
    /// A TorchScript module's weights channels-last, or back as the module came (a module saved
    /// channels-last keeps that layout); values and the optimizer's references stay: the
    /// `channels_last` path of train/PathChoice.h.
    void setChannelsLast(bool on);
    /// Whether a TorchScript module with 4-d weights runs channels-last on [C, H, W] samples and gives
    /// the scores it gives in the default layout: a forward that views a convolution's output (x.view
    /// instead of x.flatten) fails in that layout. Leaves the weights as the module came.
    bool runsChannelsLast(const torch::Device& device, int64_t channels, int64_t height, int64_t width);

    bool isScript() const { return script_.has_value(); }
    /// Whether forward() may run blocks as Entrena's own fused passes (PoolRelu.h); on by default, off
    /// where the run measured ATen's ops faster (train/PathChoice.h).
    void setOwnBlocks(bool on) { ownBlocks_ = on; }
    /// Whether the model has such blocks at all.
    bool hasOwnBlocks();
    torch::nn::Sequential& sequential() { return sequential_; }
    torch::jit::Module& script() { return *script_; }

private:
    torch::nn::Sequential sequential_{nullptr};
    std::optional<torch::jit::Module> script_;
    std::vector<bool> cameChannelsLast_; ///< per parameter, a TorchScript module's layout as read
    bool ownBlocks_ = true;
};

} // namespace entrena
