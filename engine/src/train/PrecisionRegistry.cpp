// The numeric precisions for training: one entry each (docs/configuration.md, train.precision).
#include "config/Keys.h"
#include "entrena/config/Registry.h"

namespace entrena {

const std::vector<PrecisionEntry>& precisionRegistry()
{
    static const std::vector<PrecisionEntry> entries = {
        {Precision::Fp32, toString(Precision::Fp32), ENTRENA_LABEL("Registry", "fp32 (full precision)"), nullptr,
         ComputeType::Float32, false, false},
        {Precision::Bf16, toString(Precision::Bf16), ENTRENA_LABEL("Registry", "bf16 (autocast)"), nullptr, ComputeType::BFloat16,
         false, false},
        {Precision::Fp16, toString(Precision::Fp16), ENTRENA_LABEL("Registry", "fp16 (autocast, loss scaling; CUDA)"), nullptr,
         ComputeType::Float16, true, true},
        // Resolved by effectivePrecision (train/Precision.cpp) before a step runs; fp32 until then.
        {Precision::Auto, toString(Precision::Auto), ENTRENA_LABEL("Registry", "auto (bf16 on CPUs with native bf16)"),
         ENTRENA_LABEL("Registry",
                       "bf16 for a CNN or ResNet where the CPU multiplies bf16 natively (AVX-512 BF16, AMX), else fp32"),
         ComputeType::Float32, false, false, true},
    };
    return entries;
}

const PrecisionEntry& registryEntry(Precision kind)
{
    return keys::entryOf(precisionRegistry(), &PrecisionEntry::kind, kind);
}

} // namespace entrena
