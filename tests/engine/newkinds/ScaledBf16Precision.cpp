// A precision Entrena does not ship, added from a file of its own (docs/architecture.md, "How to
// add"): bf16 autocast with dynamic loss scaling, as fp16 has, but on any device. The entry's fields
// say what a step does; nothing else changes. The registration line is at the end.
#include "entrena/config/Registry.h"

namespace entrena::newkinds {

PrecisionEntry scaledBf16Entry()
{
    return {Precision{},
            "bf16_scaled",
            "bf16 (autocast, loss scaling)",
            "bf16 arithmetic with the loss scaled as fp16's is",
            ComputeType::BFloat16,
            /*scalesLoss=*/true,
            /*needsCuda=*/false};
}

// The registration line.
const Precision bf16Scaled = registerPrecision(scaledBf16Entry());

} // namespace entrena::newkinds
