#include "model/ConvPoolRelu.h"

#include "model/Lanes.h"
#include "model/OpenMpRequired.h"

#include <ATen/Parallel.h>
#include <vector>

namespace entrena {
namespace {

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

using namespace lanes;

/// Channels per group: two vectors of eight, the unit every loop below works in.
constexpr int64_t kGroup = 16;

struct Geometry {
    int64_t outH, outW;       ///< pooled
    int64_t paddedH, paddedW; ///< the image with its border of zeros
    int64_t channels;         ///< out
};

/// Pooled output rows [from, to) (row = image·outH + y): for each window and group of 16 channels,
/// the four convolution outputs in registers (bias + nine taps), then poolRelu. `weights` is [9][C] (tap
/// = ky·3 + kx), `padded` [N][H + 2][W + 2].
ENTRENA_LANES_INLINE void forwardRows(const float* padded, const float* weights, const float* bias, float* out, uint8_t* codes,
                                      int64_t from, int64_t to, const Geometry& g)
{
    const int64_t c = g.channels;
    for (int64_t r = from; r < to; ++r) {
        const int64_t image = r / g.outH, y = r % g.outH;
        const float* top = padded + (image * g.paddedH + 2 * y) * g.paddedW; // the window's first padded row
        for (int64_t x = 0; x < g.outW; ++x) {
            float* o = out + (r * g.outW + x) * c;
            uint8_t* k = codes + (r * g.outW + x) * c;
            // The 4×4 patch of input under the window's four 3×3 convolutions.
            float patch[4][4];
            for (int i = 0; i < 4; ++i)
                for (int j = 0; j < 4; ++j)
                    patch[i][j] = top[i * g.paddedW + 2 * x + j];
            for (int64_t c0 = 0; c0 < c; c0 += kGroup) {
                F8 conv[2][4];
                for (int h = 0; h < 2; ++h) {
                    const F8 b = load(bias + c0 + 8 * h);
                    for (int q = 0; q < 4; ++q)
                        conv[h][q] = b;
                }
                for (int ky = 0; ky < 3; ++ky)
                    for (int kx = 0; kx < 3; ++kx) {
                        const float* w = weights + (ky * 3 + kx) * c + c0;
                        const F8 w0 = load(w), w1 = load(w + 8);
                        for (int q = 0; q < 4; ++q) {
                            const F8 v = broadcast(patch[(q >> 1) + ky][(q & 1) + kx]);
                            conv[0][q] += v * w0;
                            conv[1][q] += v * w1;
                        }
                    }
                for (int h = 0; h < 2; ++h) {
                    I8 code;
                    store(o + c0 + 8 * h, poolRelu(conv[h], code));
                    storeCodes(k + c0 + 8 * h, code);
                }
            }
        }
    }
}

/// Adds the weight's and bias's gradients from rows [from, to) into sums [10][C] (taps, then the
/// bias): each pooled output's gradient, on the window input its code names, times the 3×3 input
/// around that input. One group of 16 channels at a time, its sums in registers.
ENTRENA_LANES_INLINE void backwardRows(const float* padded, const float* gradOut, const uint8_t* codes, float* sums, int64_t from,
                                       int64_t to, const Geometry& g)
{
    const int64_t c = g.channels;
    for (int64_t c0 = 0; c0 < c; c0 += kGroup) {
        F8 acc[10][2] = {};
        for (int64_t r = from; r < to; ++r) {
            const int64_t image = r / g.outH, y = r % g.outH;
            const float* top = padded + (image * g.paddedH + 2 * y) * g.paddedW;
            for (int64_t x = 0; x < g.outW; ++x) {
                const int64_t at = (r * g.outW + x) * c + c0;
                float patch[4][4];
                for (int i = 0; i < 4; ++i)
                    for (int j = 0; j < 4; ++j)
                        patch[i][j] = top[i * g.paddedW + 2 * x + j];
                const I8 code[2] = {loadCodes(codes + at), loadCodes(codes + at + 8)};
                const F8 grad[2] = {load(gradOut + at), load(gradOut + at + 8)};
                for (int h = 0; h < 2; ++h)
                    acc[9][h] += where(code[h] != int(kNone), grad[h]);
                for (int q = 0; q < 4; ++q) {
                    const F8 g0 = where(code[0] == q, grad[0]), g1 = where(code[1] == q, grad[1]);
                    for (int ky = 0; ky < 3; ++ky)
                        for (int kx = 0; kx < 3; ++kx) {
                            const F8 v = broadcast(patch[(q >> 1) + ky][(q & 1) + kx]);
                            acc[ky * 3 + kx][0] += v * g0;
                            acc[ky * 3 + kx][1] += v * g1;
                        }
                }
            }
        }
        for (int t = 0; t < 10; ++t)
            for (int h = 0; h < 2; ++h)
                store(sums + t * c + c0 + 8 * h, load(sums + t * c + c0 + 8 * h) + acc[t][h]);
    }
}

#define ENTRENA_CPR_VARIANT(name, target)                                                                                        \
    target void name##Forward(const float* padded, const float* weights, const float* bias, float* out, uint8_t* codes,          \
                              int64_t from, int64_t to, const Geometry& g)                                                       \
    {                                                                                                                            \
        forwardRows(padded, weights, bias, out, codes, from, to, g);                                                             \
    }                                                                                                                            \
    target void name##Backward(const float* padded, const float* gradOut, const uint8_t* codes, float* sums, int64_t from,       \
                               int64_t to, const Geometry& g)                                                                    \
    {                                                                                                                            \
        backwardRows(padded, gradOut, codes, sums, from, to, g);                                                                 \
    }
// Compiled for AVX-512 (its 32 vector registers hold a group's 20 sums), AVX2 and the baseline.
#if defined(__x86_64__) || defined(__i386__)
ENTRENA_CPR_VARIANT(avx512, ENTRENA_TARGET_AVX512)
ENTRENA_CPR_VARIANT(avx2, ENTRENA_TARGET_AVX2)
#endif
ENTRENA_CPR_VARIANT(plain, )
#undef ENTRENA_CPR_VARIANT

struct Kernels {
    void (*forward)(const float*, const float*, const float*, float*, uint8_t*, int64_t, int64_t, const Geometry&);
    void (*backward)(const float*, const float*, const uint8_t*, float*, int64_t, int64_t, const Geometry&);
};

Kernels kernels()
{
#if defined(__x86_64__) || defined(__i386__)
    if (isa() == Isa::Avx512)
        return Kernels{&avx512Forward, &avx512Backward};
    if (isa() == Isa::Avx2)
        return Kernels{&avx2Forward, &avx2Backward};
#endif
    return Kernels{&plainForward, &plainBackward};
}

Geometry geometry(const torch::Tensor& x, int64_t channels)
{
    return {x.size(2) / 2, x.size(3) / 2, x.size(2) + 2, x.size(3) + 2, channels};
}

/// The images with a border of one zero: [N, H + 2, W + 2].
torch::Tensor padded(const torch::Tensor& x)
{
    const int64_t n = x.size(0), h = x.size(2), w = x.size(3);
    auto p = torch::zeros({n, h + 2, w + 2}, x.options());
    p.narrow(1, 1, h).narrow(2, 1, w).copy_(x.reshape({n, h, w}));
    return p;
}

/// Rows per parallel chunk: enough windows to be worth a thread (ATen's grain, 32,768 elements).
int64_t grainRows(const Geometry& g)
{
    return std::max<int64_t>(1, 32768 / std::max<int64_t>(1, g.outW * g.channels));
}

struct ConvPoolReluFn : torch::autograd::Function<ConvPoolReluFn> {
    static torch::Tensor forward(AutogradContext* ctx, const torch::Tensor& x, const torch::Tensor& weight,
                                 const torch::Tensor& bias)
    {
        const int64_t n = x.size(0), c = weight.size(0);
        const Geometry g = geometry(x, c);
        const torch::Tensor images = padded(x);
        // [9][C]: one tap's weights over the channels, contiguous.
        const torch::Tensor taps = weight.reshape({c, 9}).t().contiguous();
        const torch::Tensor b = bias.contiguous();
        const auto layout = torch::MemoryFormat::ChannelsLast;
        auto out = torch::empty({n, c, g.outH, g.outW}, x.options().memory_format(layout));
        auto codes = torch::empty({n, c, g.outH, g.outW}, x.options().dtype(torch::kUInt8).memory_format(layout));
        const float* in = images.data_ptr<float>();
        const float* w = taps.data_ptr<float>();
        const float* bp = b.data_ptr<float>();
        float* o = out.data_ptr<float>();
        uint8_t* k = codes.data_ptr<uint8_t>();
        const auto run = kernels().forward;
        at::parallel_for(0, n * g.outH, grainRows(g), [&](int64_t from, int64_t to) { run(in, w, bp, o, k, from, to, g); });
        ctx->save_for_backward({images, codes, weight});
        ctx->saved_data["height"] = x.size(2);
        ctx->saved_data["width"] = x.size(3);
        return out;
    }

    static variable_list backward(AutogradContext* ctx, variable_list grads)
    {
        const auto saved = ctx->get_saved_variables();
        const torch::Tensor &images = saved[0], &codes = saved[1], &weight = saved[2];
        const int64_t c = weight.size(0), n = images.size(0);
        const Geometry g{codes.size(2), codes.size(3), images.size(1), images.size(2), c};
        const torch::Tensor gradOut = grads[0].contiguous(torch::MemoryFormat::ChannelsLast);
        const int threads = at::get_num_threads();
        std::vector<float> partial(size_t(threads) * 10 * c, 0.0f);
        const auto run = kernels().backward;
        const float* in = images.data_ptr<float>();
        const float* go = gradOut.data_ptr<float>();
        const uint8_t* k = codes.data_ptr<uint8_t>();
        at::parallel_for(0, n * g.outH, grainRows(g), [&](int64_t from, int64_t to) {
            run(in, go, k, partial.data() + size_t(at::get_thread_num()) * 10 * c, from, to, g);
        });
        auto sums = torch::zeros({10, c}, weight.options());
        for (int t = 0; t < threads; ++t)
            sums += torch::from_blob(partial.data() + size_t(t) * 10 * c, {10, c}, torch::kFloat32);
        // Into the weight's own layout (channels-last or not: the same memory for one input channel).
        torch::Tensor gradWeight = torch::empty_like(weight);
        gradWeight.copy_(sums.narrow(0, 0, 9).t().reshape(weight.sizes()));
        return {torch::Tensor(), gradWeight, sums[9].clone()};
    }
};

} // namespace

bool convPoolReluApplies(const torch::Tensor& x, torch::nn::Conv2dImpl& conv)
{
    const auto& o = conv.options;
    if (!c10::holds_alternative<torch::ExpandingArray<2>>(o.padding()) ||
        !c10::holds_alternative<torch::enumtype::kZeros>(o.padding_mode()))
        return false;
    const auto& w = conv.weight;
    return x.device().is_cpu() && x.scalar_type() == torch::kFloat32 && x.dim() == 4 && x.size(0) > 0 && x.size(1) == 1 &&
           x.size(2) >= 2 && x.size(3) >= 2 && !x.requires_grad() && w.device().is_cpu() && w.scalar_type() == torch::kFloat32 &&
           (!conv.bias.defined() || conv.bias.scalar_type() == torch::kFloat32) && o.in_channels() == 1 &&
           o.out_channels() % kGroup == 0 && *o.kernel_size() == *torch::ExpandingArray<2>(3) &&
           *c10::get<torch::ExpandingArray<2>>(o.padding()) == *torch::ExpandingArray<2>(1) &&
           *o.stride() == *torch::ExpandingArray<2>(1) && *o.dilation() == *torch::ExpandingArray<2>(1) && o.groups() == 1;
}

torch::Tensor convPoolRelu(const torch::Tensor& x, torch::nn::Conv2dImpl& conv)
{
    // Without a bias, zeros that want no gradient (autograd takes no undefined input).
    return ConvPoolReluFn::apply(x, conv.weight,
                                 conv.bias.defined() ? conv.bias : torch::zeros({conv.weight.size(0)}, x.options()));
}

} // namespace entrena
