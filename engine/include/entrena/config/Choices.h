#pragma once
// The configuration's choices as enums. Inside the program a choice is an enum; its string
// ("one_cycle", "bf16") exists only at the edges: the JSON file, --set, the store, the docs.
// toString() and fromString() are those edges; nothing else compares choice strings.
//
// Data sets, model architectures, optimizers, schedulers, precisions and tasks are named by their registries
// (config/Registry.h): one entry each, holding the name, keys, label and what builds it. The
// small choices below are named by the tables in this header.

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace entrena {

enum class DatasetKind { FashionMnist, Mnist, Csv, Synthetic, ImageFolder, Cifar10 };
enum class ModelArch { Mlp, Cnn, Resnet, TorchScript };
enum class OptimizerKind { Sgd, Adam, AdamW, RmsProp };
enum class SchedulerKind { Constant, Step, MultiStep, Exponential, Cosine, OneCycle, ReduceOnPlateau };

/// What a run learns from its labels (data.task).
enum class Task { Classification };
/// The engine's own precisions; registerPrecision (config/Registry.h) adds more after them.
enum class Precision { Fp32, Bf16, Fp16, Auto };
enum class DeviceType { Cpu, Cuda };
/// A per-epoch figure a schedule or early stopping watches.
enum class Metric { ValLoss, ValAccuracy, TrainLoss };
enum class PlateauMode { Min, Max };
enum class ThresholdMode { Rel, Abs };
enum class AnnealStrategy { Cos, Linear };
enum class Balance { None, Weights, Sampler };

/// The names of an enum's values at the file edge, in the order the documentation lists them.
template <class E>
struct ChoiceNames;

template <>
struct ChoiceNames<DeviceType> {
    static constexpr std::array<std::pair<DeviceType, const char*>, 2> table{
        {{DeviceType::Cpu, "cpu"}, {DeviceType::Cuda, "cuda"}}};
};
template <>
struct ChoiceNames<Metric> {
    static constexpr std::array<std::pair<Metric, const char*>, 3> table{
        {{Metric::ValLoss, "val_loss"}, {Metric::ValAccuracy, "val_accuracy"}, {Metric::TrainLoss, "train_loss"}}};
};
template <>
struct ChoiceNames<PlateauMode> {
    static constexpr std::array<std::pair<PlateauMode, const char*>, 2> table{
        {{PlateauMode::Min, "min"}, {PlateauMode::Max, "max"}}};
};
template <>
struct ChoiceNames<ThresholdMode> {
    static constexpr std::array<std::pair<ThresholdMode, const char*>, 2> table{
        {{ThresholdMode::Rel, "rel"}, {ThresholdMode::Abs, "abs"}}};
};
template <>
struct ChoiceNames<AnnealStrategy> {
    static constexpr std::array<std::pair<AnnealStrategy, const char*>, 2> table{
        {{AnnealStrategy::Cos, "cos"}, {AnnealStrategy::Linear, "linear"}}};
};

template <>
struct ChoiceNames<Balance> {
    static constexpr std::array<std::pair<Balance, const char*>, 3> table{
        {{Balance::None, "none"}, {Balance::Weights, "weights"}, {Balance::Sampler, "sampler"}}};
};

template <class E>
const char* choiceName(E value)
{
    for (const auto& [v, name] : ChoiceNames<E>::table)
        if (v == value)
            return name;
    return "?";
}

// Plain overloads (not a template), so that Qt Test's QTest::toString template never competes.
inline const char* toString(DeviceType v)
{
    return choiceName(v);
}
inline const char* toString(Metric v)
{
    return choiceName(v);
}
inline const char* toString(PlateauMode v)
{
    return choiceName(v);
}
inline const char* toString(ThresholdMode v)
{
    return choiceName(v);
}
inline const char* toString(AnnealStrategy v)
{
    return choiceName(v);
}
inline const char* toString(Balance v)
{
    return choiceName(v);
}

template <class E>
std::optional<E> fromString(std::string_view name)
{
    for (const auto& [v, n] : ChoiceNames<E>::table)
        if (name == n)
            return v;
    return std::nullopt;
}

template <class E>
std::vector<std::string> choiceNames()
{
    std::vector<std::string> out;
    for (const auto& entry : ChoiceNames<E>::table)
        out.emplace_back(entry.second);
    return out;
}

// The registries' kinds (names from config/Registry.h).
const char* toString(DatasetKind kind);
const char* toString(ModelArch arch);
const char* toString(OptimizerKind kind);
const char* toString(SchedulerKind kind);
const char* toString(Precision kind);
const char* toString(Task kind);
template <>
std::optional<DatasetKind> fromString<DatasetKind>(std::string_view name);
template <>
std::optional<ModelArch> fromString<ModelArch>(std::string_view name);
template <>
std::optional<OptimizerKind> fromString<OptimizerKind>(std::string_view name);
template <>
std::optional<SchedulerKind> fromString<SchedulerKind>(std::string_view name);
template <>
std::optional<Precision> fromString<Precision>(std::string_view name);
template <>
std::optional<Task> fromString<Task>(std::string_view name);
template <>
std::vector<std::string> choiceNames<DatasetKind>();
template <>
std::vector<std::string> choiceNames<ModelArch>();
template <>
std::vector<std::string> choiceNames<OptimizerKind>();
template <>
std::vector<std::string> choiceNames<SchedulerKind>();
template <>
std::vector<std::string> choiceNames<Precision>();
template <>
std::vector<std::string> choiceNames<Task>();

} // namespace entrena
