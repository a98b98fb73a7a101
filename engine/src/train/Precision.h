#pragma once

#include "entrena/config/Choices.h"
#include "entrena/config/Config.h"

#include <string>
#include <torch/torch.h>

namespace entrena {

/// The precision `config` trains in: `auto` is bf16 for a convolutional model (cnn, resnet) on a CPU
/// that multiplies bf16 natively (AVX-512 BF16 or AMX), where oneDNN's bf16 convolutions are measured
/// ~1.5× fp32's and the fast recipe reaches the same accuracy (bench/README.md); fp32 elsewhere:
/// emulated bf16 is slower than fp32, the MLP's small products lose more to casts than they gain
/// (measured 0.75×), and on a GPU it is not measured yet (choose bf16 yourself).
Precision effectivePrecision(const RunConfig& config);
/// `config` with `auto` resolved, for the training loop and the searches that train as it does.
RunConfig withEffectivePrecision(const RunConfig& config);

/// Runs the forward pass of its scope under autocast: bf16 on CPU or CUDA, fp16 on CUDA.
/// fp32 does nothing. The state is thread-local, so only the training thread is affected.
class AutocastScope {
public:
    AutocastScope(const torch::Device& device, Precision precision);
    ~AutocastScope();
    AutocastScope(const AutocastScope&) = delete;
    AutocastScope& operator=(const AutocastScope&) = delete;

private:
    bool active_ = false;
    bool cuda_ = false;
    bool wasEnabled_ = false;
    at::ScalarType previousType_ = at::kFloat;
};

/// Dynamic loss scaling for fp16 (as torch.cuda.amp.GradScaler): the loss is multiplied by
/// `scale` before backward; a step whose gradients overflow is skipped and the scale halved;
/// after `growthInterval` good steps it doubles.
struct LossScaler {
    double scale = 65536.0;
    int64_t goodSteps = 0;
    int64_t growthInterval = 2000;

    /// Unscales the gradients; false (and the scale lowered) when they are not finite.
    bool unscaleAndCheck(const std::vector<torch::Tensor>& parameters);
    void update(bool stepTaken);
};

} // namespace entrena
