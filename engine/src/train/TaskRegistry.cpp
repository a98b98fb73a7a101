// What a run learns from its labels: one entry per task (docs/configuration.md, data.task).
#include "config/Keys.h"
#include "entrena/config/Registry.h"

#include <torch/nn/functional/loss.h>

namespace entrena {
namespace {

namespace F = torch::nn::functional;

// `classWeights` come as the step made them once (makeLossFn): float32, on the logits' device.
at::Tensor crossEntropy(const at::Tensor& logits, const at::Tensor& target, const TrainSpec& train,
                        const at::Tensor& classWeights)
{
    auto options = F::CrossEntropyFuncOptions().label_smoothing(train.labelSmoothing);
    if (classWeights.defined())
        options.weight(classWeights);
    return F::cross_entropy(logits, target, options);
}

at::Tensor summedCrossEntropy(const at::Tensor& logits, const at::Tensor& target)
{
    return F::cross_entropy(logits, target, F::CrossEntropyFuncOptions().reduction(torch::kSum));
}

} // namespace

const std::vector<TaskEntry>& taskRegistry()
{
    static const std::vector<TaskEntry> entries = {
        {Task::Classification, "classification", ENTRENA_LABEL("Registry", "Classification"),
         "each sample's label is one of its classes; the model scores every class, cross-entropy trains it, "
         "accuracy measures it",
         crossEntropy, summedCrossEntropy, true},
    };
    return entries;
}

const TaskEntry& registryEntry(Task kind)
{
    return keys::entryOf(taskRegistry(), &TaskEntry::kind, kind);
}

const char* toString(Task kind)
{
    return registryEntry(kind).name;
}

template <>
std::optional<Task> fromString<Task>(std::string_view name)
{
    return keys::kindNamed(taskRegistry(), &TaskEntry::kind, name);
}

template <>
std::vector<std::string> choiceNames<Task>()
{
    return keys::namesOf(taskRegistry());
}

} // namespace entrena
