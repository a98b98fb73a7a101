#include "train/Precision.h"

#include "entrena/config/Registry.h"
#include "system/CpuInfo.h"

#include <ATen/autocast_mode.h>

namespace entrena {
namespace {

// LibTorch 2.4 moved autocast to per-device-type calls; 1.13 has one switch per device kind.
#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 4)
bool enabled(bool cuda)
{
    return at::autocast::is_autocast_enabled(cuda ? at::kCUDA : at::kCPU);
}
void enable(bool cuda, bool on)
{
    at::autocast::set_autocast_enabled(cuda ? at::kCUDA : at::kCPU, on);
}
at::ScalarType dtype(bool cuda)
{
    return at::autocast::get_autocast_dtype(cuda ? at::kCUDA : at::kCPU);
}
void setDtype(bool cuda, at::ScalarType t)
{
    at::autocast::set_autocast_dtype(cuda ? at::kCUDA : at::kCPU, t);
}
#else
bool enabled(bool cuda)
{
    return cuda ? at::autocast::is_enabled() : at::autocast::is_cpu_enabled();
}
void enable(bool cuda, bool on)
{
    cuda ? at::autocast::set_enabled(on) : at::autocast::set_cpu_enabled(on);
}
at::ScalarType dtype(bool cuda)
{
    return cuda ? at::autocast::get_autocast_gpu_dtype() : at::autocast::get_autocast_cpu_dtype();
}
void setDtype(bool cuda, at::ScalarType t)
{
    cuda ? at::autocast::set_autocast_gpu_dtype(t) : at::autocast::set_autocast_cpu_dtype(t);
}
#endif

} // namespace

Precision effectivePrecision(const RunConfig& config)
{
    if (!registryEntry(config.train.precision).perMachine)
        return config.train.precision;
    const bool convolutional = registryEntry(config.model.arch).needsImages;
    if (config.devices.type != DeviceType::Cpu || !convolutional)
        return Precision::Fp32;
    static const bool native = [] {
        const std::string flags = cpuinfoField("flags");
        return hasCpuFlag(flags, "avx512_bf16") || hasCpuFlag(flags, "amx_bf16");
    }();
    return native ? Precision::Bf16 : Precision::Fp32;
}

RunConfig withEffectivePrecision(const RunConfig& config)
{
    RunConfig c = config;
    c.train.precision = effectivePrecision(config);
    return c;
}

AutocastScope::AutocastScope(const torch::Device& device, Precision precision)
{
    // `auto` is resolved where a configuration enters training (withEffectivePrecision); one that
    // slips through trains in fp32.
    const ComputeType compute = registryEntry(precision).compute;
    if (compute == ComputeType::Float32)
        return;
    active_ = true;
    cuda_ = device.is_cuda();
    wasEnabled_ = enabled(cuda_);
    previousType_ = dtype(cuda_);
    setDtype(cuda_, compute == ComputeType::Float16 ? at::kHalf : at::kBFloat16);
    enable(cuda_, true);
    at::autocast::increment_nesting();
}

AutocastScope::~AutocastScope()
{
    if (!active_)
        return;
    if (at::autocast::decrement_nesting() == 0)
        at::autocast::clear_cache();
    enable(cuda_, wasEnabled_);
    setDtype(cuda_, previousType_);
}

bool LossScaler::unscaleAndCheck(const std::vector<torch::Tensor>& parameters)
{
    torch::NoGradGuard noGrad;
    // The checks stay on the device; one read at the end synchronises once per step, not once per tensor.
    torch::Tensor allFinite;
    for (const auto& p : parameters) {
        if (!p.grad().defined())
            continue;
        p.grad().div_(scale);
        const torch::Tensor finite = torch::isfinite(p.grad()).all();
        allFinite = allFinite.defined() ? allFinite.logical_and(finite) : finite;
    }
    return !allFinite.defined() || allFinite.item<bool>();
}

void LossScaler::update(bool stepTaken)
{
    if (!stepTaken) {
        scale = std::max(1.0, scale / 2.0);
        goodSteps = 0;
    } else if (++goodSteps >= growthInterval) {
        scale *= 2.0;
        goodSteps = 0;
    }
}

} // namespace entrena
