#include "train/Snapshot.h"

#include <sstream>

namespace entrena {

void Snapshot::take(Model& model, torch::optim::Optimizer& optimizer)
{
    torch::NoGradGuard noGrad;
    const auto named = model.namedTensors();
    tensors_.resize(named.size());
    for (std::size_t i = 0; i < named.size(); ++i) {
        if (tensors_[i].defined() && tensors_[i].sizes() == named[i].second.sizes())
            tensors_[i].copy_(named[i].second); // reuse the memory of the last snapshot
        else
            tensors_[i] = named[i].second.detach().clone();
    }
    torch::serialize::OutputArchive archive;
    optimizer.save(archive);
    std::ostringstream out;
    archive.save_to(out);
    optimizer_ = out.str();
    lrs_.clear();
    for (auto& group : optimizer.param_groups())
        lrs_.push_back(group.options().get_lr());
}

void Snapshot::restore(Model& model, torch::optim::Optimizer& optimizer, const torch::Device& device) const
{
    torch::NoGradGuard noGrad;
    const auto named = model.namedTensors();
    for (std::size_t i = 0; i < named.size() && i < tensors_.size(); ++i)
        named[i].second.copy_(tensors_[i]);
    std::istringstream in(optimizer_);
    torch::serialize::InputArchive archive;
    archive.load_from(in, device);
    // load() adds and replaces state but keeps what the archive lacks: a snapshot taken before the first
    // step has no momentum, and the diverged buffers must not survive the rollback.
    optimizer.state().clear();
    optimizer.load(archive);
    for (std::size_t g = 0; g < lrs_.size() && g < optimizer.param_groups().size(); ++g)
        optimizer.param_groups()[g].options().set_lr(lrs_[g]);
    optimizer.zero_grad();
}

} // namespace entrena
