#include "model/BatchNormRelu.h"

#include "model/Lanes.h"
#include "model/OpenMpRequired.h"
#include "model/PoolRelu.h"

#include <ATen/Parallel.h>
#include <atomic>
#include <cmath>
#include <vector>

namespace entrena {
namespace {

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

using namespace lanes;

/// Pixels summed in float lanes before they are added to a channel's double sums: short enough that
/// the float partial sums lose nothing a test could see.
constexpr int64_t kBlock = 32;

// The tensors are read as rows of `channels` values, one row per pixel (channels-last: N·H·W rows).

/// Per channel, the sum of (x - shift) and of its square over rows [from, to), added to sum, squares.
/// The shift (the first pixel's values) keeps the variance from cancelling when a mean is large.
ENTRENA_LANES_INLINE void statsRows(const float* x, const float* shift, int64_t from, int64_t to, int64_t channels, double* sum,
                                    double* squares)
{
    for (int64_t p0 = from; p0 < to; p0 += kBlock) {
        const int64_t p1 = std::min(to, p0 + kBlock);
        int64_t c = 0;
        for (; c + 8 <= channels; c += 8) {
            const F8 k = load(shift + c);
            F8 s{}, q{};
            for (int64_t p = p0; p < p1; ++p) {
                const F8 v = load(x + p * channels + c) - k;
                s += v;
                q += v * v;
            }
            for (int i = 0; i < 8; ++i) {
                sum[c + i] += s[i];
                squares[c + i] += q[i];
            }
        }
        for (; c < channels; ++c) {
            float s = 0, q = 0;
            for (int64_t p = p0; p < p1; ++p) {
                const float v = x[p * channels + c] - shift[c];
                s += v;
                q += v * v;
            }
            sum[c] += s;
            squares[c] += q;
        }
    }
}

/// y = relu(x·scale + offset [+ shortcut]) over rows [from, to); ReLU keeps NaN, as ATen's does.
template <bool Shortcut>
ENTRENA_LANES_INLINE void forwardRows(const float* x, const float* shortcut, float* y, const float* scale, const float* offset,
                                      int64_t from, int64_t to, int64_t channels)
{
    for (int64_t p = from; p < to; ++p) {
        const int64_t row = p * channels;
        int64_t c = 0;
        for (; c + 8 <= channels; c += 8) {
            F8 v = load(x + row + c) * load(scale + c) + load(offset + c);
            if constexpr (Shortcut)
                v += load(shortcut + row + c);
            store(y + row + c, where(~(v < 0.0f), v));
        }
        for (; c < channels; ++c) {
            float v = x[row + c] * scale[c] + offset[c];
            if constexpr (Shortcut)
                v += shortcut[row + c];
            y[row + c] = v < 0.0f ? 0.0f : v;
        }
    }
}

/// Backward's first pass: with g the output's gradient where the output is not <= 0 (the ReLU's, as
/// ATen's threshold_backward: NaN passes), per
/// channel the sum of g and of g·(x - mean) over rows [from, to), added to sumG, sumGx.
ENTRENA_LANES_INLINE void backwardStatsRows(const float* gradOut, const float* y, const float* x, const float* mean, int64_t from,
                                            int64_t to, int64_t channels, double* sumG, double* sumGx)
{
    for (int64_t p0 = from; p0 < to; p0 += kBlock) {
        const int64_t p1 = std::min(to, p0 + kBlock);
        int64_t c = 0;
        for (; c + 8 <= channels; c += 8) {
            const F8 m = load(mean + c);
            F8 s{}, sx{};
            for (int64_t p = p0; p < p1; ++p) {
                const int64_t at = p * channels + c;
                const F8 g = where(~(load(y + at) <= 0.0f), load(gradOut + at));
                s += g;
                sx += g * (load(x + at) - m);
            }
            for (int i = 0; i < 8; ++i) {
                sumG[c + i] += s[i];
                sumGx[c + i] += sx[i];
            }
        }
        for (; c < channels; ++c) {
            float s = 0, sx = 0;
            for (int64_t p = p0; p < p1; ++p) {
                const int64_t at = p * channels + c;
                const float g = !(y[at] <= 0.0f) ? gradOut[at] : 0.0f;
                s += g;
                sx += g * (x[at] - mean[c]);
            }
            sumG[c] += s;
            sumGx[c] += sx;
        }
    }
}

/// Backward's second pass: the shortcut's gradient g (if asked) and the input's,
/// gradIn = a·g + b·(x - mean) + d, per channel's a, b, d (batch norm's gradient in training mode).
template <bool Shortcut>
ENTRENA_LANES_INLINE void backwardRows(const float* gradOut, const float* y, const float* x, const float* mean, const float* a,
                                       const float* b, const float* d, float* gradIn, float* gradShortcut, int64_t from,
                                       int64_t to, int64_t channels)
{
    for (int64_t p = from; p < to; ++p) {
        const int64_t row = p * channels;
        int64_t c = 0;
        for (; c + 8 <= channels; c += 8) {
            const F8 g = where(~(load(y + row + c) <= 0.0f), load(gradOut + row + c));
            if constexpr (Shortcut)
                store(gradShortcut + row + c, g);
            store(gradIn + row + c, load(a + c) * g + load(b + c) * (load(x + row + c) - load(mean + c)) + load(d + c));
        }
        for (; c < channels; ++c) {
            const float g = !(y[row + c] <= 0.0f) ? gradOut[row + c] : 0.0f;
            if constexpr (Shortcut)
                gradShortcut[row + c] = g;
            gradIn[row + c] = a[c] * g + b[c] * (x[row + c] - mean[c]) + d[c];
        }
    }
}

#define ENTRENA_BN_VARIANT(name, target)                                                                                         \
    target void name##Stats(const float* x, const float* shift, int64_t from, int64_t to, int64_t channels, double* sum,         \
                            double* squares)                                                                                     \
    {                                                                                                                            \
        statsRows(x, shift, from, to, channels, sum, squares);                                                                   \
    }                                                                                                                            \
    target void name##Forward(const float* x, const float* shortcut, float* y, const float* scale, const float* offset,          \
                              int64_t from, int64_t to, int64_t channels)                                                        \
    {                                                                                                                            \
        if (shortcut)                                                                                                            \
            forwardRows<true>(x, shortcut, y, scale, offset, from, to, channels);                                                \
        else                                                                                                                     \
            forwardRows<false>(x, shortcut, y, scale, offset, from, to, channels);                                               \
    }                                                                                                                            \
    target void name##BackwardStats(const float* gradOut, const float* y, const float* x, const float* mean, int64_t from,       \
                                    int64_t to, int64_t channels, double* sumG, double* sumGx)                                   \
    {                                                                                                                            \
        backwardStatsRows(gradOut, y, x, mean, from, to, channels, sumG, sumGx);                                                 \
    }                                                                                                                            \
    target void name##Backward(const float* gradOut, const float* y, const float* x, const float* mean, const float* a,          \
                               const float* b, const float* d, float* gradIn, float* gradShortcut, int64_t from, int64_t to,     \
                               int64_t channels)                                                                                 \
    {                                                                                                                            \
        if (gradShortcut)                                                                                                        \
            backwardRows<true>(gradOut, y, x, mean, a, b, d, gradIn, gradShortcut, from, to, channels);                          \
        else                                                                                                                     \
            backwardRows<false>(gradOut, y, x, mean, a, b, d, gradIn, gradShortcut, from, to, channels);                         \
    }
// Compiled for AVX-512, AVX2 and the baseline, as ATen's kernels are.
#if defined(__x86_64__) || defined(__i386__)
ENTRENA_BN_VARIANT(avx512, ENTRENA_TARGET_AVX512)
ENTRENA_BN_VARIANT(avx2, ENTRENA_TARGET_AVX2)
#endif
ENTRENA_BN_VARIANT(plain, )
#undef ENTRENA_BN_VARIANT

struct Kernels {
    decltype(&plainStats) stats;
    decltype(&plainForward) forward;
    decltype(&plainBackwardStats) backwardStats;
    decltype(&plainBackward) backward;
};

Kernels kernels()
{
#if defined(__x86_64__) || defined(__i386__)
    if (isa() == Isa::Avx512)
        return {&avx512Stats, &avx512Forward, &avx512BackwardStats, &avx512Backward};
    if (isa() == Isa::Avx2)
        return {&avx2Stats, &avx2Forward, &avx2BackwardStats, &avx2Backward};
#endif
    return {&plainStats, &plainForward, &plainBackwardStats, &plainBackward};
}

/// Rows per parallel chunk: ATen's grain (32,768 elements).
int64_t grainRows(int64_t channels)
{
    return std::max<int64_t>(1, 32768 / std::max<int64_t>(1, channels));
}

/// Two per-channel sums over all `rows`, each slice of rows summed by one task into its own slots and
/// the slices added in order: the same result whichever thread took which slice.
template <typename Sum>
void sumRows(int64_t rows, int64_t channels, std::vector<double>& first, std::vector<double>& second, const Sum& sum)
{
    const int64_t slices = std::max<int64_t>(1, std::min<int64_t>(at::get_num_threads(), rows / kBlock));
    std::vector<double> partial(size_t(slices * 2 * channels), 0.0);
    at::parallel_for(0, slices, 1, [&](int64_t from, int64_t to) {
        // Summed in this task's own memory and copied once: slots side by side in `partial` would share
        // a cache line between threads, written every kBlock rows.
        std::vector<double> local(size_t(2 * channels));
        for (int64_t s = from; s < to; ++s) {
            std::fill(local.begin(), local.end(), 0.0);
            sum(rows * s / slices, rows * (s + 1) / slices, local.data(), local.data() + channels);
            std::copy(local.begin(), local.end(), partial.begin() + s * 2 * channels);
        }
    });
    first.assign(size_t(channels), 0.0);
    second.assign(size_t(channels), 0.0);
    for (int64_t s = 0; s < slices; ++s)
        for (int64_t c = 0; c < channels; ++c) {
            first[size_t(c)] += partial[size_t(s * 2 * channels + c)];
            second[size_t(c)] += partial[size_t(s * 2 * channels + channels + c)];
        }
}

std::atomic<int64_t> fusedCount{0};

/// relu(x·scale + offset [+ shortcut]) with batch norm's gradient backward; the batch's mean and
/// 1/std come in (computed, and the running statistics updated, by batchNormRelu).
struct BatchNormReluFn : torch::autograd::Function<BatchNormReluFn> {
    /// `shortcut` is an empty tensor when there is none (autograd takes no undefined inputs).
    static torch::Tensor forward(AutogradContext* ctx, const torch::Tensor& x, const torch::Tensor& shortcut,
                                 const torch::Tensor& weight, const torch::Tensor& bias, const torch::Tensor& mean,
                                 const torch::Tensor& invstd)
    {
        const bool withShortcut = shortcut.numel() > 0;
        const int64_t channels = x.size(1), rows = x.numel() / channels;
        const auto w = weight.detach().to(torch::kFloat32).contiguous(), b = bias.detach().to(torch::kFloat32).contiguous();
        const auto scale = (invstd * w).contiguous();
        const auto offset = (b - mean * scale).contiguous();
        auto y = torch::empty_like(x, x.options().memory_format(torch::MemoryFormat::ChannelsLast));
        const float* in = x.data_ptr<float>();
        const float* extra = withShortcut ? shortcut.data_ptr<float>() : nullptr;
        float* out = y.data_ptr<float>();
        const float *sc = scale.data_ptr<float>(), *off = offset.data_ptr<float>();
        const auto run = kernels().forward;
        at::parallel_for(0, rows, grainRows(channels),
                         [&](int64_t from, int64_t to) { run(in, extra, out, sc, off, from, to, channels); });
        ctx->save_for_backward({x, y, w, mean, invstd});
        ctx->saved_data["shortcut"] = withShortcut;
        return y;
    }

    static variable_list backward(AutogradContext* ctx, variable_list grads)
    {
        const auto saved = ctx->get_saved_variables();
        const torch::Tensor &x = saved[0], &y = saved[1], &w = saved[2], &mean = saved[3], &invstd = saved[4];
        const bool withShortcut = ctx->saved_data["shortcut"].toBool();
        const torch::Tensor gradOut = grads[0].contiguous(torch::MemoryFormat::ChannelsLast);
        const int64_t channels = x.size(1), rows = x.numel() / channels;
        const float *go = gradOut.data_ptr<float>(), *yv = y.data_ptr<float>(), *xv = x.data_ptr<float>(),
                    *m = mean.data_ptr<float>();
        const Kernels k = kernels();
        std::vector<double> sumG, sumGx;
        sumRows(rows, channels, sumG, sumGx, [&](int64_t from, int64_t to, double* g, double* gx) {
            k.backwardStats(go, yv, xv, m, from, to, channels, g, gx);
        });
        // gradIn = w·invstd·(g - sumG/M - (x - mean)·invstd²·sumGx/M), as ATen's batch norm backward.
        std::vector<float> a(static_cast<size_t>(channels)), b(a.size()), d(a.size());
        auto gradWeight = torch::empty({channels}, x.options()), gradBias = torch::empty({channels}, x.options());
        float *gw = gradWeight.data_ptr<float>(), *gb = gradBias.data_ptr<float>();
        const float *wv = w.data_ptr<float>(), *is = invstd.data_ptr<float>();
        for (int64_t c = 0; c < channels; ++c) {
            const double inv = is[c], scale = double(wv[c]) * inv;
            a[size_t(c)] = float(scale);
            b[size_t(c)] = float(-scale * inv * inv * sumGx[size_t(c)] / double(rows));
            d[size_t(c)] = float(-scale * sumG[size_t(c)] / double(rows));
            gw[c] = float(sumGx[size_t(c)] * inv);
            gb[c] = float(sumG[size_t(c)]);
        }
        const auto layout = torch::MemoryFormat::ChannelsLast;
        auto gradIn = torch::empty_like(x, x.options().memory_format(layout));
        torch::Tensor gradShortcut = withShortcut ? torch::empty_like(x, x.options().memory_format(layout)) : torch::Tensor();
        float* gi = gradIn.data_ptr<float>();
        float* gs = withShortcut ? gradShortcut.data_ptr<float>() : nullptr;
        at::parallel_for(0, rows, grainRows(channels), [&](int64_t from, int64_t to) {
            k.backward(go, yv, xv, m, a.data(), b.data(), d.data(), gi, gs, from, to, channels);
        });
        return {gradIn, gradShortcut, gradWeight, gradBias, torch::Tensor(), torch::Tensor()};
    }
};

} // namespace

bool batchNormReluApplies(const torch::Tensor& x, torch::nn::BatchNorm2dImpl& bn, const torch::Tensor& shortcut)
{
    const auto& o = bn.options;
    const bool input = x.defined() && x.device().is_cpu() && x.scalar_type() == torch::kFloat32 && x.dim() == 4 &&
                       x.size(1) == o.num_features() && x.numel() > 0 && x.numel() / x.size(1) > 1 &&
                       x.is_contiguous(torch::MemoryFormat::ChannelsLast) && !x.is_contiguous();
    const bool norm = bn.is_training() && o.affine() && o.track_running_stats() && bn.weight.scalar_type() == torch::kFloat32 &&
                      bn.running_mean.defined() && bn.running_mean.scalar_type() == torch::kFloat32;
    const bool extra =
        !shortcut.defined() || (shortcut.device().is_cpu() && shortcut.scalar_type() == torch::kFloat32 &&
                                shortcut.sizes() == x.sizes() && shortcut.is_contiguous(torch::MemoryFormat::ChannelsLast));
    return input && norm && extra && fusedKernelsWanted() && !cpuAutocast();
}

torch::Tensor batchNormRelu(const torch::Tensor& x, torch::nn::BatchNorm2dImpl& bn, const torch::Tensor& shortcut)
{
    if (!batchNormReluApplies(x, bn, shortcut)) {
        const auto normed = bn.forward(x);
        return torch::relu(shortcut.defined() ? normed + shortcut : normed);
    }
    const int64_t channels = x.size(1), rows = x.numel() / channels;
    const auto xc = x.detach();
    const float* in = xc.data_ptr<float>();
    // The shift: each channel's mean over the first pixels (one pixel far out would cancel as badly as
    // a large mean).
    std::vector<float> shift(size_t(channels), 0.0f);
    {
        const int64_t first = std::min<int64_t>(rows, kBlock);
        std::vector<double> sum(size_t(channels), 0.0);
        for (int64_t p = 0; p < first; ++p)
            for (int64_t c = 0; c < channels; ++c)
                sum[size_t(c)] += in[p * channels + c];
        for (int64_t c = 0; c < channels; ++c)
            shift[size_t(c)] = float(sum[size_t(c)] / double(first));
    }
    const auto stats = kernels().stats;
    std::vector<double> sum, squares;
    sumRows(rows, channels, sum, squares,
            [&](int64_t from, int64_t to, double* s, double* q) { stats(in, shift.data(), from, to, channels, s, q); });
    auto mean = torch::empty({channels}, x.options()), invstd = torch::empty({channels}, x.options());
    auto variance = torch::empty({channels}, x.options().dtype(torch::kFloat64));
    float *meanOut = mean.data_ptr<float>(), *invstdOut = invstd.data_ptr<float>();
    double* varianceOut = variance.data_ptr<double>();
    const double eps = bn.options.eps();
    for (int64_t c = 0; c < channels; ++c) {
        const double m = sum[size_t(c)] / double(rows);
        const double variance = squares[size_t(c)] / double(rows) - m * m;
        varianceOut[c] = variance < 0 ? 0.0 : variance; // rounding below 0 is 0; NaN stays NaN, as ATen's
        meanOut[c] = float(double(shift[size_t(c)]) + m);
        invstdOut[c] = float(1.0 / std::sqrt(varianceOut[c] + eps));
    }
    {
        // As BatchNorm2d's forward: the batch count, then a running average by momentum (or, without
        // one, the cumulative average), the variance unbiased.
        torch::NoGradGuard noGrad;
        double factor = bn.options.momentum().value_or(0.0);
        if (bn.num_batches_tracked.defined()) {
            bn.num_batches_tracked += 1;
            if (!bn.options.momentum())
                factor = 1.0 / bn.num_batches_tracked.item<double>();
        }
        const auto unbiased = (variance * (double(rows) / double(rows - 1))).to(torch::kFloat32);
        bn.running_mean.mul_(1.0 - factor).add_(mean, factor);
        bn.running_var.mul_(1.0 - factor).add_(unbiased, factor);
    }
    fusedCount.fetch_add(1, std::memory_order_relaxed);
    return BatchNormReluFn::apply(x, shortcut.defined() ? shortcut : torch::empty({0}, x.options()), bn.weight, bn.bias, mean,
                                  invstd);
}

int64_t fusedBatchNorms()
{
    return fusedCount.load(std::memory_order_relaxed);
}

} // namespace entrena
