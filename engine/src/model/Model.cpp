#include "model/Model.h"

#include "entrena/config/Registry.h"
#include "model/Models.h"
#include "model/PoolRelu.h"
#include "system/StateGuards.h"

#include <filesystem>

namespace entrena {

Model Model::buildOn(const torch::Device& device, const ModelSpec& spec, int64_t channels, int64_t height, int64_t width,
                     int64_t classes)
{
    Model m = build(spec, channels, height, width, classes);
    m.to(device);
    if (prefersChannelsLast(spec))
        m.toChannelsLast();
    return m;
}

Model Model::build(const ModelSpec& spec, int64_t channels, int64_t height, int64_t width, int64_t classes)
{
    Model m;
    if (!registryEntry(spec.arch).fromFile) {
        m.sequential_ = makeModel(spec, channels, height, width, classes);
        return m;
    }
    if (!std::filesystem::exists(spec.path))
        throw std::runtime_error("model.path '" + spec.path +
                                 "' does not exist; export your model with "
                                 "torch.jit.script(model).save(path) and give that path");
    try {
        m.script_ = torch::jit::load(spec.path);
    } catch (const c10::Error& e) {
        throw std::runtime_error("model.path '" + spec.path + "' is not a TorchScript module (" + e.what_without_backtrace() +
                                 "); save it with torch.jit.script(model).save(path)");
    } catch (const std::exception& e) {
        throw std::runtime_error("model.path '" + spec.path + "' is not a TorchScript module (" + e.what() + ")");
    }
    if (m.parameters().empty())
        throw std::runtime_error("the TorchScript module '" + spec.path + "' has no parameters to train");
    bool trainable = false;
    for (const auto& p : m.parameters())
        trainable = trainable || p.requires_grad();
    if (!trainable)
        throw std::runtime_error("none of the parameters of the TorchScript module '" + spec.path +
                                 "' requires gradients; nothing would train");
    if (!m.script_->find_method("forward"))
        throw std::runtime_error("the TorchScript module '" + spec.path + "' has no forward method");
    return m;
}

void Model::checkShapes(const torch::Device& device, int64_t channels, int64_t height, int64_t width, int64_t classes)
{
    if (!script_)
        return; // Entrena's own models are built for the shape
    const std::string input = "[" + std::to_string(channels) + ", " + std::to_string(height) + ", " + std::to_string(width) + "]";
    torch::Tensor out;
    {
        torch::NoGradGuard noGrad;
        train(false); // a batch of two, without batch statistics: only the shapes are tried
        try {
            out = forward(torch::zeros({2, channels, height, width}, torch::TensorOptions(device)));
        } catch (const std::exception& e) {
            // TorchScript's errors are long (the interpreter's trace); the last line says what failed.
            train(true);
            const auto* c10 = dynamic_cast<const c10::Error*>(&e);
            std::string why = c10 ? c10->what_without_backtrace() : e.what();
            while (!why.empty() && (why.back() == '\n' || why.back() == ' '))
                why.pop_back();
            why = why.substr(why.rfind('\n') == std::string::npos ? 0 : why.rfind('\n') + 1);
            throw std::runtime_error("the TorchScript module does not take this data's samples, " + input +
                                     " (channels, height, width): make its forward take [N, " + input.substr(1) +
                                     " batches, or use data of its shape (LibTorch: " + why + ")");
        }
        train(true);
    }
    if (out.dim() != 2 || out.size(0) != 2 || out.size(1) != classes) {
        std::string shape = "[N";
        for (int64_t i = 1; i < out.dim(); ++i)
            shape += ", " + std::to_string(out.size(i));
        shape = out.dim() == 0 ? std::string("[] (one number)") : shape + "]";
        throw std::runtime_error("the TorchScript module gives scores of shape " + shape + " for " + input +
                                 " samples, but the data has " + std::to_string(classes) +
                                 " classes: its forward must return [N, " + std::to_string(classes) + "]");
    }
}

torch::Tensor Model::forward(const torch::Tensor& x)
{
    if (!script_)
        return forwardFused(sequential_, x, ownBlocks_);
    const c10::IValue out = script_->forward({x});
    if (!out.isTensor())
        throw std::runtime_error("the TorchScript module's forward must return one tensor of class scores");
    return out.toTensor();
}

bool Model::hasOwnBlocks()
{
    return !script_ && hasFusableBlocks(sequential_);
}

std::vector<torch::Tensor> Model::parameters() const
{
    if (!script_)
        return sequential_->parameters();
    std::vector<torch::Tensor> out;
    for (const auto& p : script_->parameters())
        out.push_back(p);
    return out;
}

std::vector<std::pair<std::string, torch::Tensor>> Model::namedTensors() const
{
    std::vector<std::pair<std::string, torch::Tensor>> out;
    if (!script_) {
        for (const auto& p : sequential_->named_parameters())
            out.emplace_back(p.key(), p.value());
        for (const auto& b : sequential_->named_buffers())
            out.emplace_back(b.key(), b.value());
        return out;
    }
    for (const auto& p : script_->named_parameters())
        out.emplace_back(p.name, p.value);
    for (const auto& b : script_->named_buffers())
        out.emplace_back(b.name, b.value);
    return out;
}

void Model::train(bool on)
{
    if (script_)
        script_->train(on);
    else
        sequential_->train(on);
}

void Model::to(const torch::Device& device)
{
    if (script_)
        script_->to(device);
    else
        sequential_->to(device);
}

void Model::toChannelsLast()
{
    if (script_)
        setChannelsLast(true);
    else
        entrena::toChannelsLast(*sequential_);
}

void Model::setChannelsLast(bool on)
{
    if (!script_)
        return;
    const auto params = parameters();
    if (cameChannelsLast_.size() != params.size()) { // before the first restride: as the module came
        cameChannelsLast_.clear();
        for (const auto& p : params)
            cameChannelsLast_.push_back(storedChannelsLast(p));
    }
    for (size_t i = 0; i < params.size(); ++i)
        restride({params[i]}, on || cameChannelsLast_[i]);
}

bool Model::runsChannelsLast(const torch::Device& device, int64_t channels, int64_t height, int64_t width)
{
    bool convolves = false;
    for (const auto& p : parameters())
        convolves = convolves || p.dim() == 4;
    if (!script_ || !convolves || height * width <= 1)
        return false;
    // Afterwards the module is as it was: its mode, its buffers (a training forward moves batch norm's
    // statistics) and the generator (dropout draws from it).
    torch::NoGradGuard noGrad;
    GeneratorStateGuard generator;
    const bool wasTraining = script_->is_training();
    std::vector<std::pair<torch::Tensor, torch::Tensor>> buffers;
    for (const auto& b : script_->buffers())
        buffers.emplace_back(b, b.clone());
    // Varied values without drawing from the run's generator.
    const int64_t n = 2 * channels * height * width;
    const auto x = torch::sin(torch::arange(n, torch::kFloat32) * 0.37).view({2, channels, height, width}).to(device);
    bool same = false;
    try {
        train(false); // scores without batch statistics or dropout, to compare
        const torch::Tensor plain = forward(x);
        setChannelsLast(true);
        const auto lastX = x.contiguous(torch::MemoryFormat::ChannelsLast);
        const torch::Tensor last = forward(lastX);
        const double scale = plain.abs().max().item<double>();
        same = last.sizes() == plain.sizes() && torch::allclose(last, plain, 1e-3, 1e-4 * scale + 1e-6);
        if (same) {
            train(true); // a forward that views only while training (an auxiliary head) must take it too
            forward(lastX);
        }
    } catch (const std::exception&) {
        same = false; // a view() of a channels-last activation
    }
    setChannelsLast(false);
    train(wasTraining);
    for (auto& [b, saved] : buffers)
        b.copy_(saved);
    return same;
}

} // namespace entrena
