#include "optim/FusedSgd.h"

#include "model/Lanes.h"
#include "model/OpenMpRequired.h"

#include <ATen/Parallel.h>
#include <atomic>
#include <cmath>

namespace entrena {
namespace {

/// Past this many elements a parameter's update is split over the intra-op threads: below it, waking
/// them costs more than the pass (a quarter of a mebibyte of floats).
constexpr int64_t kGrain = int64_t(1) << 16;

struct SgdConstants {
    float lr, weightDecay, momentum, keep; ///< keep: 1 - dampening
    bool nesterov;
};

template <bool Fma>
inline __attribute__((always_inline)) float madd(float a, float b, float c)
{
    if constexpr (Fma)
        return std::fma(a, b, c);
    else
        return a * b + c;
}

/// One parameter's update, as SGD::step computes it element by element (ATen's add with alpha is a
/// fused multiply-add in its AVX2 and AVX-512 kernels, a multiply and an add in its default one):
///   d = g + wd·p;  b = m·b + (1 − dampening)·d  (b = d on the first step);  d = d + m·b (Nesterov) or b;
///   p = p − lr·d.
template <bool Fma>
inline __attribute__((always_inline)) void updateWith(float* __restrict p, const float* __restrict g, float* __restrict b,
                                                      int64_t from, int64_t to, const SgdConstants& c, bool first)
{
    for (int64_t i = from; i < to; ++i) {
        float d = c.weightDecay != 0.0f ? madd<Fma>(p[i], c.weightDecay, g[i]) : g[i];
        if (b) {
            b[i] = first ? d : madd<Fma>(d, c.keep, b[i] * c.momentum);
            d = c.nesterov ? madd<Fma>(b[i], c.momentum, d) : b[i];
        }
        p[i] = madd<Fma>(d, -c.lr, p[i]);
    }
}

// The loop compiled three times, as ATen's kernels are: std::fma is one instruction only where the
// target has FMA (elsewhere a call per element, slower than SGD::step).
__attribute__((target("avx512f,avx512vl,avx2,fma"))) void updateAvx512(float* p, const float* g, float* b, int64_t from,
                                                                       int64_t to, const SgdConstants& c, bool first)
{
    updateWith<true>(p, g, b, from, to, c, first);
}

__attribute__((target("avx2,fma"))) void updateAvx2(float* p, const float* g, float* b, int64_t from, int64_t to,
                                                    const SgdConstants& c, bool first)
{
    updateWith<true>(p, g, b, from, to, c, first);
}

void updatePlain(float* p, const float* g, float* b, int64_t from, int64_t to, const SgdConstants& c, bool first)
{
    updateWith<false>(p, g, b, from, to, c, first);
}

using Update = void (*)(float*, const float*, float*, int64_t, int64_t, const SgdConstants&, bool);

Update update()
{
    static const Update chosen = [] {
        __builtin_cpu_init();
        const lanes::Isa ceiling = lanes::capabilityCeiling(); // narrowed with ATen's kernels
        if (ceiling == lanes::Isa::Avx512 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
            __builtin_cpu_supports("fma"))
            return &updateAvx512;
        if (ceiling != lanes::Isa::Baseline && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
            return &updateAvx2;
        return &updatePlain;
    }();
    return chosen;
}

/// A dense fp32 CPU tensor of `like`'s shape laid out as it (channels-last weights included): the update
/// can walk the three tensors' memory in step. Strides of dimensions of size one say nothing about the
/// memory order, and differ between equal layouts (a one-channel weight restrided, an old checkpoint's
/// buffer), so only the others are compared.
bool plainFloat(const torch::Tensor& t, const torch::Tensor& like)
{
    if (!t.defined() || !t.device().is_cpu() || t.scalar_type() != torch::kFloat32 || t.layout() != torch::kStrided ||
        !t.is_non_overlapping_and_dense() || t.is_neg() || t.sizes() != like.sizes())
        return false;
    for (int64_t d = 0; d < t.dim(); ++d)
        if (t.size(d) > 1 && t.stride(d) != like.stride(d))
            return false;
    return true;
}

} // namespace

namespace {
std::atomic<int64_t> onePassTaken{0};
} // namespace

int64_t FusedSgd::onePassSteps()
{
    return onePassTaken.load();
}

bool FusedSgd::fuses() const
{
    for (const auto& group : param_groups())
        for (const auto& p : group.params()) {
            if (!p.grad().defined())
                continue;
            if (!plainFloat(p, p) || !plainFloat(p.grad(), p))
                return false;
            const auto s = state_.find(c10::guts::to_string(p.unsafeGetTensorImpl()));
            if (s != state_.end() &&
                !plainFloat(static_cast<const torch::optim::SGDParamState&>(*s->second).momentum_buffer(), p))
                return false;
        }
    return true;
}

torch::Tensor FusedSgd::step(LossClosure closure)
{
    torch::NoGradGuard noGrad;
    torch::Tensor loss;
    if (closure) { // first, as SGD::step: it makes the gradients the check below looks at
        at::AutoGradMode enable(true);
        loss = closure();
    }
    if (!onePass_ || !fuses()) {
        torch::optim::SGD::step(nullptr);
        return loss;
    }
    onePassTaken.fetch_add(1, std::memory_order_relaxed);
    for (auto& group : param_groups()) {
        const auto& o = static_cast<const torch::optim::SGDOptions&>(group.options());
        const SgdConstants c{float(o.lr()), float(o.weight_decay()), float(o.momentum()), float(1.0 - o.dampening()),
                             o.nesterov()};
        for (auto& p : group.params()) {
            if (!p.grad().defined())
                continue;
            float* buffer = nullptr;
            bool first = false;
            if (o.momentum() != 0.0) {
                const std::string key = c10::guts::to_string(p.unsafeGetTensorImpl());
                auto s = state_.find(key);
                if (s == state_.end()) {
                    auto state = std::make_unique<torch::optim::SGDParamState>();
                    state->momentum_buffer(torch::empty_like(p)); // the parameter's strides
                    s = state_.emplace(key, std::move(state)).first;
                    first = true;
                }
                buffer = static_cast<torch::optim::SGDParamState&>(*s->second).momentum_buffer().data_ptr<float>();
            }
            float* param = p.data_ptr<float>();
            const float* grad = p.grad().data_ptr<float>();
            const Update run = update();
            at::parallel_for(0, p.numel(), kGrain,
                             [&](int64_t from, int64_t to) { run(param, grad, buffer, from, to, c, first); });
        }
    }
    return loss;
}

} // namespace entrena
