// The optimizers: one entry each, PyTorch's algorithm of the same name with its defaults.
#include "config/Keys.h"
#include "entrena/config/Registry.h"
#include "optim/FusedSgd.h"

#include <stdexcept>
#include <torch/torch.h>

namespace entrena {
namespace {

using namespace keys;
using O = OptimizerSpec;

std::unique_ptr<torch::optim::Optimizer> makeSgd(const O& s, const std::vector<at::Tensor>& parameters)
{
    return std::make_unique<FusedSgd>(parameters, torch::optim::SGDOptions(s.lr)
                                                      .momentum(s.momentum)
                                                      .nesterov(s.nesterov)
                                                      .dampening(s.dampening)
                                                      .weight_decay(s.weightDecay));
}

std::unique_ptr<torch::optim::Optimizer> makeAdam(const O& s, const std::vector<at::Tensor>& parameters)
{
    return std::make_unique<torch::optim::Adam>(
        parameters, torch::optim::AdamOptions(s.lr).betas({s.beta1, s.beta2}).eps(s.eps).weight_decay(s.weightDecay));
}

std::unique_ptr<torch::optim::Optimizer> makeAdamW(const O& s, const std::vector<at::Tensor>& parameters)
{
    return std::make_unique<torch::optim::AdamW>(
        parameters, torch::optim::AdamWOptions(s.lr).betas({s.beta1, s.beta2}).eps(s.eps).weight_decay(s.weightDecay));
}

std::unique_ptr<torch::optim::Optimizer> makeRmsProp(const O& s, const std::vector<at::Tensor>& parameters)
{
    return std::make_unique<torch::optim::RMSprop>(parameters, torch::optim::RMSpropOptions(s.lr)
                                                                   .alpha(s.alpha)
                                                                   .eps(s.eps)
                                                                   .momentum(s.momentum)
                                                                   .centered(s.centered)
                                                                   .weight_decay(s.weightDecay));
}

// Each algorithm's options, set on a group of an optimizer that exists (after a checkpoint's state
// is loaded, the configuration's values hold; a sweep may change them between a trial's stages).
template <class Options>
Options& optionsOf(torch::optim::OptimizerOptions& group)
{
    // The entry's own factory made the optimizer; a mismatch is a bug, named rather than undefined.
    auto* options = dynamic_cast<Options*>(&group);
    if (!options)
        throw std::logic_error("an optimizer's options are not those of the configured algorithm");
    return *options;
}

void applySgd(torch::optim::OptimizerOptions& group, const O& s)
{
    optionsOf<torch::optim::SGDOptions>(group)
        .momentum(s.momentum)
        .nesterov(s.nesterov)
        .dampening(s.dampening)
        .weight_decay(s.weightDecay);
}

template <class Options>
void applyAdam(torch::optim::OptimizerOptions& group, const O& s)
{
    optionsOf<Options>(group).betas({s.beta1, s.beta2}).eps(s.eps).weight_decay(s.weightDecay);
}

void applyRmsProp(torch::optim::OptimizerOptions& group, const O& s)
{
    optionsOf<torch::optim::RMSpropOptions>(group)
        .alpha(s.alpha)
        .eps(s.eps)
        .momentum(s.momentum)
        .centered(s.centered)
        .weight_decay(s.weightDecay);
}

template <class Options>
void setMomentumOf(torch::optim::OptimizerOptions& group, double momentum)
{
    optionsOf<Options>(group).momentum(momentum);
}

template <class Options>
void setBeta1Of(torch::optim::OptimizerOptions& group, double beta1)
{
    auto& o = optionsOf<Options>(group);
    o.betas({beta1, std::get<1>(o.betas())});
}

bool always(const O&)
{
    return true;
}

void checkSgd(const O& s)
{
    if (s.nesterov && (s.momentum <= 0.0 || s.dampening != 0.0))
        throw ConfigError("optimizer.nesterov needs optimizer.momentum > 0 and optimizer.dampening = 0 "
                          "(as in PyTorch); set nesterov to false or give a momentum");
}

OptionKey<O> momentumKey()
{
    return number<&O::momentum>("momentum", 0.0, 1.0, "momentum", shown(ENTRENA_LABEL("Registry", "Momentum:"), 3, 0.05));
}

std::vector<OptionKey<O>> adamKeys()
{
    return {number<&O::beta1>("beta1", 0.0, 0.999999, "the first moment's decay"),
            number<&O::beta2>("beta2", 0.0, 0.999999, "the second moment's decay"),
            number<&O::eps>("eps", 0.0, 1.0, "added to the denominator")};
}

std::vector<OptimizerEntry> makeEntries()
{
    return {
        {OptimizerKind::Sgd,
         "sgd",
         "SGD",
         "torch.optim.SGD",
         {momentumKey(), boolean<&O::nesterov>("nesterov", "Nesterov momentum; needs momentum > 0 and dampening 0"),
          number<&O::dampening>("dampening", 0.0, 1.0, "dampening of the momentum")},
         nullptr,
         checkSgd,
         [](const O& s) { return s.momentum > 0.0; },
         makeSgd,
         applySgd,
         setMomentumOf<torch::optim::SGDOptions>},
        {OptimizerKind::Adam, "adam", "Adam", "torch.optim.Adam", adamKeys(), [](O& s) { s.weightDecay = 0.0; }, nullptr, always,
         makeAdam, applyAdam<torch::optim::AdamOptions>, setBeta1Of<torch::optim::AdamOptions>},
        {OptimizerKind::AdamW, "adamw", "AdamW", "torch.optim.AdamW", adamKeys(), [](O& s) { s.weightDecay = 0.01; }, nullptr,
         always, makeAdamW, applyAdam<torch::optim::AdamWOptions>, setBeta1Of<torch::optim::AdamWOptions>},
        {OptimizerKind::RmsProp,
         "rmsprop",
         "RMSprop",
         "torch.optim.RMSprop",
         {number<&O::alpha>("alpha", 0.0, 1.0, "the squared gradients' smoothing"),
          number<&O::eps>("eps", 0.0, 1.0, "added to the denominator"), momentumKey(),
          boolean<&O::centered>("centered", "normalise by the gradient's estimated variance")},
         [](O& s) {
             s.weightDecay = 0.0;
             s.momentum = 0.0;
         },
         nullptr,
         always,
         makeRmsProp,
         applyRmsProp,
         setMomentumOf<torch::optim::RMSpropOptions>},
    };
}

} // namespace

namespace {

std::vector<OptimizerEntry>& entries()
{
    static std::vector<OptimizerEntry> list = makeEntries();
    return list;
}

} // namespace

const std::vector<OptimizerEntry>& optimizerRegistry()
{
    return entries();
}

OptimizerKind registerOptimizer(OptimizerEntry entry)
{
    return keys::addEntry(entries(), &OptimizerEntry::kind, std::move(entry), optimizerKeys(), OptimizerSpec{}, &OptimizerSpec::kind);
}

OptionValue OptimizerSpec::param(const std::string& key) const
{
    return keys::blockParam(params, entries(), &OptimizerEntry::kind, kind, key);
}

const OptimizerEntry& registryEntry(OptimizerKind kind)
{
    return keys::entryOf(optimizerRegistry(), &OptimizerEntry::kind, kind);
}

const char* toString(OptimizerKind kind)
{
    return registryEntry(kind).name;
}

template <>
std::optional<OptimizerKind> fromString<OptimizerKind>(std::string_view name)
{
    return keys::kindNamed(optimizerRegistry(), &OptimizerEntry::kind, name);
}

template <>
std::vector<std::string> choiceNames<OptimizerKind>()
{
    return keys::namesOf(optimizerRegistry());
}

} // namespace entrena
