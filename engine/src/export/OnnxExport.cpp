#include "export/OnnxExport.h"

#include "model/ComposedLayer.h"

#include <stdexcept>

#ifdef ENTRENA_HAVE_ONNX
#include <onnx/onnx_pb.h>
#endif

namespace entrena {

#ifndef ENTRENA_HAVE_ONNX

bool onnxAvailable()
{
    return false;
}

std::string onnxBytes(Model&, int64_t, int64_t, int64_t, int64_t, const std::string&)
{
    throw std::runtime_error("this build of Entrena has no ONNX export (it was built without libonnx-dev); "
                             "export as .pt and convert with PyTorch's torch.onnx.export");
}

#else

namespace {

namespace nn = torch::nn;

std::vector<int64_t> values(const torch::ExpandingArray<2>& a)
{
    return static_cast<c10::ArrayRef<int64_t>>(a).vec();
}

/// Builds the graph node by node; each tensor a node makes gets a fresh name.
class GraphWriter : public LayerGraph {
public:
    explicit GraphWriter(onnx::GraphProto& graph)
        : graph_(graph)
    {
    }

    std::string fresh(const std::string& hint) { return hint + "_" + std::to_string(count_++); }

    /// A trained tensor as an initializer called `name` (float32, contiguous, row-major).
    std::string weight(const std::string& name, const torch::Tensor& t)
    {
        const auto c = t.detach().to(torch::kFloat32).contiguous();
        onnx::TensorProto* p = graph_.add_initializer();
        p->set_name(name);
        p->set_data_type(onnx::TensorProto::FLOAT);
        for (const int64_t d : c.sizes())
            p->add_dims(d);
        p->set_raw_data(std::string(static_cast<const char*>(c.data_ptr()), size_t(c.numel()) * sizeof(float)));
        return name;
    }

    onnx::NodeProto* node(const std::string& op, const std::vector<std::string>& inputs, const std::string& output,
                          const std::string& name)
    {
        onnx::NodeProto* n = graph_.add_node();
        n->set_op_type(op);
        n->set_name(name);
        for (const auto& i : inputs)
            n->add_input(i);
        n->add_output(output);
        return n;
    }

    static void ints(onnx::NodeProto* n, const std::string& name, const std::vector<int64_t>& values)
    {
        onnx::AttributeProto* a = n->add_attribute();
        a->set_name(name);
        a->set_type(onnx::AttributeProto::INTS);
        for (const int64_t v : values)
            a->add_ints(v);
    }

    static void integer(onnx::NodeProto* n, const std::string& name, int64_t value)
    {
        onnx::AttributeProto* a = n->add_attribute();
        a->set_name(name);
        a->set_type(onnx::AttributeProto::INT);
        a->set_i(value);
    }

    static void real(onnx::NodeProto* n, const std::string& name, float value)
    {
        onnx::AttributeProto* a = n->add_attribute();
        a->set_name(name);
        a->set_type(onnx::AttributeProto::FLOAT);
        a->set_f(value);
    }

    std::string conv(const std::string& name, const nn::Conv2dImpl& c, const std::string& x) override
    {
        const auto& o = c.options;
        std::vector<std::string> inputs = {x, weight(name + ".weight", c.weight)};
        if (c.bias.defined())
            inputs.push_back(weight(name + ".bias", c.bias));
        const std::string y = fresh(name);
        onnx::NodeProto* n = node("Conv", inputs, y, name);
        const auto* padding = c10::get_if<torch::ExpandingArray<2>>(&o.padding());
        if (!padding)
            throw std::runtime_error("the convolution '" + name + "' pads 'same' or 'valid', which this export does not write");
        const auto pads = values(*padding);
        ints(n, "kernel_shape", values(o.kernel_size()));
        ints(n, "strides", values(o.stride()));
        ints(n, "dilations", values(o.dilation()));
        ints(n, "pads", {pads[0], pads[1], pads[0], pads[1]});
        integer(n, "group", o.groups());
        return y;
    }

    std::string batchNorm(const std::string& name, const nn::BatchNorm2dImpl& b, const std::string& x) override
    {
        const std::string y = fresh(name);
        onnx::NodeProto* n = node("BatchNormalization",
                                  {x, weight(name + ".weight", b.weight), weight(name + ".bias", b.bias),
                                   weight(name + ".running_mean", b.running_mean), weight(name + ".running_var", b.running_var)},
                                  y, name);
        real(n, "epsilon", float(b.options.eps()));
        return y;
    }

    std::string relu(const std::string& name, const std::string& x) override
    {
        const std::string y = fresh(name);
        node("Relu", {x}, y, name);
        return y;
    }

    std::string add(const std::string& name, const std::string& a, const std::string& b) override
    {
        const std::string y = fresh(name);
        node("Add", {a, b}, y, name);
        return y;
    }

    /// One child of the Sequential, by its type.
    std::string layer(const std::string& name, nn::Module& m, const std::string& x)
    {
        if (auto* c = dynamic_cast<nn::Conv2dImpl*>(&m))
            return conv(name, *c, x);
        if (auto* b = dynamic_cast<nn::BatchNorm2dImpl*>(&m))
            return batchNorm(name, *b, x);
        if (dynamic_cast<nn::ReLUImpl*>(&m))
            return relu(name, x);
        if (dynamic_cast<nn::DropoutImpl*>(&m))
            return x; // nothing at inference
        if (auto* f = dynamic_cast<nn::FlattenImpl*>(&m)) {
            if (f->options.start_dim() != 1 || f->options.end_dim() != -1)
                throw std::runtime_error("the flatten '" + name + "' keeps more than the batch dimension");
            const std::string y = fresh(name);
            integer(node("Flatten", {x}, y, name), "axis", 1);
            return y;
        }
        if (auto* l = dynamic_cast<nn::LinearImpl*>(&m)) {
            const std::string y = fresh(name);
            onnx::NodeProto* n = node("Gemm", {x, weight(name + ".weight", l->weight), weight(name + ".bias", l->bias)}, y, name);
            integer(n, "transB", 1);
            return y;
        }
        if (auto* p = dynamic_cast<nn::MaxPool2dImpl*>(&m)) {
            const auto& o = p->options;
            const std::string y = fresh(name);
            onnx::NodeProto* n = node("MaxPool", {x}, y, name);
            const auto pads = values(o.padding());
            ints(n, "kernel_shape", values(o.kernel_size()));
            ints(n, "strides", values(o.stride()));
            ints(n, "pads", {pads[0], pads[1], pads[0], pads[1]});
            if (o.ceil_mode())
                integer(n, "ceil_mode", 1);
            return y;
        }
        if (auto* a = dynamic_cast<nn::AdaptiveAvgPool2dImpl*>(&m)) {
            const auto size = a->options.output_size();
            if (!(*size)[0] || !(*size)[1] || *(*size)[0] != 1 || *(*size)[1] != 1)
                throw std::runtime_error("the pooling '" + name + "' is not global (output 1 × 1)");
            const std::string y = fresh(name);
            node("GlobalAveragePool", {x}, y, name);
            return y;
        }
        if (auto* composed = dynamic_cast<ComposedLayer*>(&m))
            return composed->writeGraph(*this, name, x);
        throw std::runtime_error("the layer '" + name + "' (" + m.name() + ") has no ONNX form in this export");
    }

private:
    onnx::GraphProto& graph_;
    int count_ = 0;
};

void declare(onnx::ValueInfoProto* v, const std::string& name, const std::vector<int64_t>& dims)
{
    v->set_name(name);
    auto* type = v->mutable_type()->mutable_tensor_type();
    type->set_elem_type(onnx::TensorProto::FLOAT);
    auto* shape = type->mutable_shape();
    shape->add_dim()->set_dim_param("batch");
    for (const int64_t d : dims)
        shape->add_dim()->set_dim_value(d);
}

} // namespace

bool onnxAvailable()
{
    return true;
}

std::string onnxBytes(Model& model, int64_t channels, int64_t height, int64_t width, int64_t classes, const std::string& name)
{
    if (model.isScript())
        throw std::runtime_error("a TorchScript model cannot be exported to ONNX here: its graph is the user's own code. "
                                 "Export it as .pt and convert it with torch.onnx.export in Python");
    torch::NoGradGuard noGrad;
    model.train(false);
    onnx::ModelProto proto;
    proto.set_ir_version(7); // ONNX 1.8 and later; what opset 13 needs
    proto.set_producer_name("Entrena");
    proto.set_model_version(1);
    proto.set_doc_string("Input: float [batch, C, H, W], normalised as the .json beside this file says. Output: the "
                         "classes' logits; softmax gives their probabilities.");
    proto.add_opset_import()->set_version(13);
    onnx::GraphProto* graph = proto.mutable_graph();
    graph->set_name(name);
    declare(graph->add_input(), "input", {channels, height, width});
    GraphWriter writer(*graph);
    std::string x = "input";
    for (const auto& layer : model.sequential()->named_children())
        x = writer.layer(layer.key(), *layer.value(), x);
    // The last node's output is the graph's output, under a name a user can ask for.
    graph->mutable_node(graph->node_size() - 1)->set_output(0, "logits");
    declare(graph->add_output(), "logits", {classes});
    std::string bytes;
    if (!proto.SerializeToString(&bytes))
        throw std::runtime_error("the ONNX model could not be serialised");
    return bytes;
}

#endif

} // namespace entrena
