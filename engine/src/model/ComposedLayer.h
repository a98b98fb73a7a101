#pragma once
// A layer of Entrena's own built from standard ones (the resnet's ResidualBlock) says itself what it
// computes: its floating-point operations for the model summary (and so the MFU figures), and its
// graph of standard operations for an ONNX export. The summary and the export ask the interface,
// never a child's name.

#include <string>
#include <torch/torch.h>

namespace entrena {

/// Where a ComposedLayer writes its graph (export/OnnxExport.cpp writes ONNX nodes): each call adds
/// one operation on the tensors named by its inputs and returns its output's name.
class LayerGraph {
public:
    virtual ~LayerGraph() = default;
    virtual std::string conv(const std::string& name, const torch::nn::Conv2dImpl& conv, const std::string& x) = 0;
    virtual std::string batchNorm(const std::string& name, const torch::nn::BatchNorm2dImpl& norm, const std::string& x) = 0;
    virtual std::string relu(const std::string& name, const std::string& x) = 0;
    virtual std::string add(const std::string& name, const std::string& a, const std::string& b) = 0;
};

class ComposedLayer {
public:
    virtual ~ComposedLayer() = default;
    /// Floating-point operations (a multiply-add counts two) for one sample `input` ([1, C, H, W]).
    virtual double flops(const torch::Tensor& input) = 0;
    /// The layer as standard operations on the tensor named `x`; returns its output's name.
    virtual std::string writeGraph(LayerGraph& graph, const std::string& name, const std::string& x) = 0;
};

/// A convolution's floating-point operations for one sample, given its output ([1, C, H, W]).
inline double convFlops(const torch::nn::Conv2dImpl& conv, const torch::Tensor& out)
{
    const auto& o = conv.options;
    const int64_t k = (*o.kernel_size())[0] * (*o.kernel_size())[1];
    return 2.0 * double(o.in_channels() / o.groups()) * double(k) * double(out.numel());
}

} // namespace entrena
