// The numeric precisions for training: one entry each (docs/configuration.md, train.precision).
#include "config/Keys.h"
#include "entrena/config/Registry.h"

namespace entrena {
namespace {

std::vector<PrecisionEntry> makeEntries()
{
    return {
        {Precision::Fp32, "fp32", ENTRENA_LABEL("Registry", "fp32 (full precision)"), nullptr, ComputeType::Float32, false,
         false},
        {Precision::Bf16, "bf16", ENTRENA_LABEL("Registry", "bf16 (autocast)"), nullptr, ComputeType::BFloat16, false, false},
        {Precision::Fp16, "fp16", ENTRENA_LABEL("Registry", "fp16 (autocast, loss scaling; CUDA)"), nullptr, ComputeType::Float16,
         true, true},
        // Resolved by effectivePrecision (train/Precision.cpp) before a step runs; fp32 until then.
        {Precision::Auto, "auto", ENTRENA_LABEL("Registry", "auto (bf16 on CPUs with native bf16)"),
         ENTRENA_LABEL("Registry",
                       "bf16 for a CNN or ResNet where the CPU multiplies bf16 natively (AVX-512 BF16, AMX), else fp32"),
         ComputeType::Float32, false, false, true},
    };
}

std::vector<PrecisionEntry>& entries()
{
    static std::vector<PrecisionEntry> list = makeEntries();
    return list;
}

} // namespace

const std::vector<PrecisionEntry>& precisionRegistry()
{
    return entries();
}

Precision registerPrecision(PrecisionEntry entry)
{
    return keys::appendEntry(entries(), &PrecisionEntry::kind, std::move(entry));
}

const PrecisionEntry& registryEntry(Precision kind)
{
    return keys::entryOf(precisionRegistry(), &PrecisionEntry::kind, kind);
}

const char* toString(Precision kind)
{
    return registryEntry(kind).name;
}

template <>
std::optional<Precision> fromString<Precision>(std::string_view name)
{
    return keys::kindNamed(precisionRegistry(), &PrecisionEntry::kind, name);
}

template <>
std::vector<std::string> choiceNames<Precision>()
{
    return keys::namesOf(precisionRegistry());
}

} // namespace entrena
