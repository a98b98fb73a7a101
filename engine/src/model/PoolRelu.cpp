#include "model/PoolRelu.h"

#include "model/BatchNormRelu.h"
#include "model/ConvPoolRelu.h"
#include "model/Lanes.h"
#include "model/OpenMpRequired.h"

#include <ATen/Parallel.h>
#include <ATen/autocast_mode.h>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace entrena {
namespace {

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

using namespace lanes;

/// One output row: `width` windows of `channels` values; `in` points at the window row's first value.
/// Writes the outputs and each output's code.
inline __attribute__((always_inline)) void forwardRow(const float* in, float* out, uint8_t* codes, int64_t width,
                                                      int64_t channels, int64_t inRow)
{
    for (int64_t w = 0; w < width; ++w) {
        const float* p[4] = {in + 2 * w * channels, in + (2 * w + 1) * channels, in + inRow + 2 * w * channels,
                             in + inRow + (2 * w + 1) * channels};
        float* o = out + w * channels;
        uint8_t* k = codes + w * channels;
        int64_t c = 0;
        for (; c + 8 <= channels; c += 8) {
            const F8 v[4] = {load(p[0] + c), load(p[1] + c), load(p[2] + c), load(p[3] + c)};
            I8 code;
            const F8 m = poolRelu(v, code);
            store(o + c, m);
            storeCodes(k + c, code);
        }
        for (; c < channels; ++c)
            o[c] = poolRelu({p[0][c], p[1][c], p[2][c], p[3][c]}, k[c]);
    }
}

/// The input gradient of one output row's windows: each output's gradient to the input its code
/// names, 0 to the others. Every input of a window is written.
inline __attribute__((always_inline)) void backwardRow(const uint8_t* codes, const float* gradOut, float* gradIn, int64_t width,
                                                       int64_t channels, int64_t inRow)
{
    for (int64_t w = 0; w < width; ++w) {
        float* g[4] = {gradIn + 2 * w * channels, gradIn + (2 * w + 1) * channels, gradIn + inRow + 2 * w * channels,
                       gradIn + inRow + (2 * w + 1) * channels};
        const float* go = gradOut + w * channels;
        const uint8_t* k = codes + w * channels;
        int64_t c = 0;
        for (; c + 8 <= channels; c += 8) {
            const I8 code = loadCodes(k + c), grad = loadBits(go + c);
            for (int i = 0; i < 4; ++i)
                store(g[i] + c, (code == i) & grad);
        }
        for (; c < channels; ++c)
            for (int i = 0; i < 4; ++i)
                g[i][c] = k[c] == i ? go[c] : 0.0f;
    }
}

#define ENTRENA_POOL_VARIANT(name, target)                                                                                       \
    target void name##Forward(const float* in, float* out, uint8_t* codes, int64_t width, int64_t channels, int64_t inRow)       \
    {                                                                                                                            \
        forwardRow(in, out, codes, width, channels, inRow);                                                                      \
    }                                                                                                                            \
    target void name##Backward(const uint8_t* codes, const float* gradOut, float* gradIn, int64_t width, int64_t channels,       \
                               int64_t inRow)                                                                                    \
    {                                                                                                                            \
        backwardRow(codes, gradOut, gradIn, width, channels, inRow);                                                             \
    }
// Compiled for AVX-512, AVX2 and the baseline, as ATen's kernels are.
#if defined(__x86_64__) || defined(__i386__)
ENTRENA_POOL_VARIANT(avx512, ENTRENA_TARGET_AVX512)
ENTRENA_POOL_VARIANT(avx2, ENTRENA_TARGET_AVX2)
#endif
ENTRENA_POOL_VARIANT(plain, )
#undef ENTRENA_POOL_VARIANT

struct Kernels {
    void (*forward)(const float*, float*, uint8_t*, int64_t, int64_t, int64_t);
    void (*backward)(const uint8_t*, const float*, float*, int64_t, int64_t, int64_t);
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

/// Output rows per parallel chunk: ATen's grain (32,768 elements) in rows of the input.
int64_t grainRows(int64_t rowElements)
{
    return std::max<int64_t>(1, 32768 / std::max<int64_t>(1, rowElements));
}

struct PoolRelu : torch::autograd::Function<PoolRelu> {
    static torch::Tensor forward(AutogradContext* ctx, const torch::Tensor& x)
    {
        const int64_t n = x.size(0), c = x.size(1), h = x.size(2), w = x.size(3), oh = h / 2, ow = w / 2;
        const auto layout = torch::MemoryFormat::ChannelsLast;
        auto out = torch::empty({n, c, oh, ow}, x.options().memory_format(layout));
        // A byte per output instead of the input (4 floats) or ATen's int64 index: backward reads 1/16.
        auto codes = torch::empty({n, c, oh, ow}, x.options().dtype(torch::kUInt8).memory_format(layout));
        const float* in = x.data_ptr<float>();
        float* o = out.data_ptr<float>();
        uint8_t* k = codes.data_ptr<uint8_t>();
        const auto run = kernels().forward;
        at::parallel_for(0, n * oh, grainRows(2 * w * c), [&](int64_t from, int64_t to) {
            for (int64_t r = from; r < to; ++r) {
                const int64_t image = r / oh, row = r % oh;
                run(in + ((image * h + 2 * row) * w) * c, o + r * ow * c, k + r * ow * c, ow, c, w * c);
            }
        });
        ctx->save_for_backward({codes});
        ctx->saved_data["height"] = h;
        ctx->saved_data["width"] = w;
        return out;
    }

    static variable_list backward(AutogradContext* ctx, variable_list grads)
    {
        const torch::Tensor codes = ctx->get_saved_variables()[0];
        const torch::Tensor gradOut = grads[0].contiguous(torch::MemoryFormat::ChannelsLast);
        const int64_t n = codes.size(0), c = codes.size(1), oh = codes.size(2), ow = codes.size(3);
        const int64_t h = ctx->saved_data["height"].toInt(), w = ctx->saved_data["width"].toInt();
        const auto layout = torch::MemoryFormat::ChannelsLast;
        const auto options = gradOut.options().memory_format(layout);
        // An odd last row or column is in no window: its gradient is 0 (then the windows write the rest).
        auto gradIn = torch::empty({n, c, h, w}, options); // (torch::zeros would not keep the layout)
        if (h % 2 || w % 2)
            gradIn.zero_();
        const uint8_t* k = codes.data_ptr<uint8_t>();
        const float* go = gradOut.data_ptr<float>();
        float* gi = gradIn.data_ptr<float>();
        const auto run = kernels().backward;
        at::parallel_for(0, n * oh, grainRows(2 * w * c), [&](int64_t from, int64_t to) {
            for (int64_t r = from; r < to; ++r) {
                const int64_t image = r / oh, row = r % oh;
                run(k + r * ow * c, go + r * ow * c, gi + ((image * h + 2 * row) * w) * c, ow, c, w * c);
            }
        });
        return {gradIn};
    }
};

bool fusable(const torch::Tensor& x)
{
    return x.device().is_cpu() && x.scalar_type() == torch::kFloat32 && x.dim() == 4 && x.size(2) >= 2 && x.size(3) >= 2 &&
           x.size(0) > 0 && x.size(1) > 0 && x.is_contiguous(torch::MemoryFormat::ChannelsLast) &&
           !x.is_contiguous(); // a tensor that is both layouts (one channel, or 1×1) is left to ATen
}

bool isPool2(const std::shared_ptr<torch::nn::Module>& m)
{
    const auto* pool = m->as<torch::nn::MaxPool2d>();
    if (!pool)
        return false;
    const auto& o = pool->options;
    const auto two = torch::ExpandingArray<2>(2), one = torch::ExpandingArray<2>(1), zero = torch::ExpandingArray<2>(0);
    return *o.kernel_size() == *two && *o.stride() == *two && *o.padding() == *zero && *o.dilation() == *one && !o.ceil_mode();
}

} // namespace

bool cpuAutocast()
{
#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 4)
    return at::autocast::is_autocast_enabled(at::kCPU);
#else
    return at::autocast::is_cpu_enabled();
#endif
}

bool fusedKernelsWanted()
{
    const char* v = std::getenv("ENTRENA_FUSED"); // read each time: a test switches it
    return !(v && std::string(v) == "0");
}

torch::Tensor maxPool2Relu(const torch::Tensor& x)
{
    if (!fusedKernelsWanted() || !fusable(x))
        return torch::relu(torch::max_pool2d(x, 2));
    return PoolRelu::apply(x);
}

namespace {
std::atomic<int64_t> fusedPasses{0};
} // namespace

int64_t fusedForwards()
{
    return fusedPasses.load();
}

bool hasFusableBlocks(torch::nn::Sequential& model)
{
    for (size_t i = 0; i < model->size(); ++i) {
        const bool beforeRelu = i + 1 < model->size() && model->ptr(i + 1)->as<torch::nn::ReLU>();
        if ((beforeRelu && (isPool2(model->ptr(i)) || model->ptr(i)->as<torch::nn::BatchNorm2d>())) ||
            dynamic_cast<FusedForward*>(model->ptr(i).get()))
            return true;
    }
    return false;
}

torch::Tensor forwardFused(torch::nn::Sequential& model, torch::Tensor x, bool allowed)
{
    const bool fuse = allowed && fusedKernelsWanted() && !cpuAutocast();
    const size_t n = model->size();
    auto module = model->begin();
    const auto poolReluAt = [&](size_t i) {
        return i + 1 < n && isPool2(model->ptr(i)) && model->ptr(i + 1)->as<torch::nn::ReLU>();
    };
    bool fused = false;
    const int64_t batchNormsBefore = fusedBatchNorms();
    for (size_t i = 0; i < n; ++i, ++module) {
        auto* conv = fuse ? model->ptr(i)->as<torch::nn::Conv2d>() : nullptr;
        if (conv && poolReluAt(i + 1) && convPoolReluApplies(x, *conv)) {
            x = convPoolRelu(x, *conv);
            i += 2;
            module += 2;
            fused = true;
        } else if (fuse && poolReluAt(i) && fusable(x)) {
            x = PoolRelu::apply(x);
            ++i;
            ++module;
            fused = true;
        } else if (auto* bn = fuse && i + 1 < n && model->ptr(i + 1)->as<torch::nn::ReLU>()
                                  ? model->ptr(i)->as<torch::nn::BatchNorm2d>()
                                  : nullptr) {
            x = batchNormRelu(x, *bn); // ATen's pair where it does not apply
            ++i;
            ++module;
        } else if (auto* block = fuse ? dynamic_cast<FusedForward*>(model->ptr(i).get()) : nullptr) {
            x = block->forwardFused(x);
        } else {
            x = module->forward<torch::Tensor>(x);
        }
    }
    fused = fused || fusedBatchNorms() > batchNormsBefore;
    if (fused)
        fusedPasses.fetch_add(1, std::memory_order_relaxed);
    return x;
}

} // namespace entrena
