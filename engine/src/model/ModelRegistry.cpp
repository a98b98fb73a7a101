// The model architectures: one entry each, with the keys that shape it.
#include "config/Keys.h"
#include "entrena/config/Registry.h"
#include "model/Models.h"

namespace entrena {
namespace {

using namespace keys;
using M = ModelSpec;

// The layer sizes are accepted whatever the architecture: a configuration may carry another
// architecture's (stored runs do; switching arch with --set keeps them), and only its own apply.
OptionKey<M> sharedKey(OptionKey<M> k)
{
    k.shared = true;
    return k;
}

OptionKey<M> channelsKey(const char* doc, const char* defaultDoc = nullptr)
{
    auto k = integers<&M::channels>("channels", 1, 4096, doc, shown(ENTRENA_LABEL("Registry", "Channels:")));
    k.defaultDoc = defaultDoc;
    return sharedKey(k);
}

std::vector<ModelEntry> makeEntries()
{
    return {
        {ModelArch::Mlp,
         "mlp",
         ENTRENA_LABEL("Registry", "MLP"),
         ENTRENA_LABEL("Registry", "MLP (fully connected)"),
         "fully connected layers with ReLU, on the flattened input",
         false,
         {sharedKey(integers<&M::hidden>("hidden", 1, 1 << 16, "the hidden layers' widths",
                                         shown(ENTRENA_LABEL("Registry", "Hidden widths:"))))},
         nullptr,
         [](const M& s) {
             if (s.hidden.empty())
                 throw ConfigError("model.hidden must list at least one layer width for the mlp");
         },
         false,
         makeMlp},
        {ModelArch::Cnn,
         "cnn",
         ENTRENA_LABEL("Registry", "CNN"),
         ENTRENA_LABEL("Registry", "CNN (convolutional)"),
         "two 3×3 conv + 2×2 max-pool + ReLU blocks, then a 128-wide layer",
         true,
         {channelsKey("the two conv blocks' channels")},
         nullptr,
         [](const M& s) {
             if (s.channels.size() != 2)
                 throw ConfigError("model.channels must list 2 channel counts for the cnn, got " +
                                   std::to_string(s.channels.size()));
         },
         false,
         makeCnn,
         true},
        {ModelArch::Resnet,
         "resnet",
         ENTRENA_LABEL("Registry", "ResNet"),
         ENTRENA_LABEL("Registry", "ResNet (residual, batch norm)"),
         "a small residual network: stages of residual blocks (two 3×3 convs with batch norm)",
         true,
         {channelsKey("the stages' widths, each after the first halving the resolution", "`[16,32,64]`"),
          sharedKey(formRange(integer<&M::blocks>("blocks", 1, 64, "residual blocks per stage",
                                                  shown(ENTRENA_LABEL("Registry", "Blocks per stage:"))),
                              1, 16))},
         [](M& s) {
             s.channels = {16, 32, 64};
         },
         [](const M& s) {
             if (s.channels.empty())
                 throw ConfigError("model.channels must list at least one stage width for the resnet");
         },
         false,
         makeResnet,
         true},
        {ModelArch::TorchScript,
         "torchscript",
         ENTRENA_LABEL("Registry", "TorchScript"),
         ENTRENA_LABEL("Registry", "TorchScript (your own model)"),
         "your own module, saved with torch.jit.script(model).save(path)",
         false,
         {text<&M::path>("path", "the saved module; its forward takes [N, C, H, W] and returns class scores",
                         shown(ENTRENA_LABEL("Registry", "TorchScript file:")))},
         nullptr,
         [](const M& s) {
             if (s.path.empty())
                 throw ConfigError("model.path must name the TorchScript file when model.arch is 'torchscript'");
         },
         true},
    };
}

} // namespace

namespace {

std::vector<ModelEntry>& entries()
{
    static std::vector<ModelEntry> list = makeEntries();
    return list;
}

} // namespace

const std::vector<ModelEntry>& modelRegistry()
{
    return entries();
}

ModelArch registerModel(ModelEntry entry)
{
    return keys::addEntry(entries(), &ModelEntry::arch, std::move(entry), modelKeys(), ModelSpec{}, &ModelSpec::arch);
}

OptionValue ModelSpec::param(const std::string& key) const
{
    return keys::blockParam(params, entries(), &ModelEntry::arch, arch, key);
}

const ModelEntry& registryEntry(ModelArch kind)
{
    return keys::entryOf(modelRegistry(), &ModelEntry::arch, kind);
}

const char* toString(ModelArch kind)
{
    return registryEntry(kind).name;
}

template <>
std::optional<ModelArch> fromString<ModelArch>(std::string_view name)
{
    return keys::kindNamed(modelRegistry(), &ModelEntry::arch, name);
}

template <>
std::vector<std::string> choiceNames<ModelArch>()
{
    return keys::namesOf(modelRegistry());
}

} // namespace entrena
