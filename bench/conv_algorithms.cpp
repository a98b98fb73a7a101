// oneDNN's convolution algorithms on the resnets' 3x3 convolutions, forward and both backward passes.
//
// LibTorch 1.13 always asks oneDNN for its direct algorithm; oneDNN 2.6 (the library Debian's LibTorch
// links, libdnnl.so.2) also has Winograd's F(4x4, 3x3) for fp32 on AVX-512 (jit_wino_4x3), in its
// blocked layout only. This measures, per shape, what a convolution path of Entrena's own could win:
//   - "nhwc direct": what a channels-last run gets today (src and dst channels-last, weights as oneDNN
//     prefers);
//   - "blocked direct" and "blocked winograd": src, dst and weights in the layout oneDNN prefers;
//   - "reorders": nhwc -> blocked for src and the output gradient, blocked -> nhwc for dst and the
//     input gradient, which a path that keeps channels-last tensors between layers would pay.
// Each algorithm's times include its weights' reorders (a channels-last weight into the formats the
// forward and backward-data passes read, the weight gradient back), paid every step because the
// weights change every step; for Winograd this is where the weights are transformed.
// Medians of 15 runs after 3 warm-up runs, in milliseconds, at OMP_NUM_THREADS threads.
//
//   OMP_NUM_THREADS=1 build/test/bench/conv_algorithms
#include "BenchCpu.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <dnnl.hpp>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace {

using dnnl::memory;
using Tag = memory::format_tag;

struct Shape {
    const char* name;
    int batch, channelsIn, channelsOut, size;
};

double medianMs(const std::function<void()>& run)
{
    std::vector<double> ms;
    for (int i = 0; i < 18; ++i) {
        const auto start = std::chrono::steady_clock::now();
        run();
        if (i >= 3)
            ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
}

struct Times {
    double forward = 0, backwardData = 0, backwardWeights = 0;
    /// The weights change every step: ohwi (a channels-last weight) into the forward's and the
    /// backward data pass's formats, and the weight gradient back to ohwi. LibTorch pays these too.
    double weights = 0;
    double total() const { return forward + backwardData + backwardWeights + weights; }
};

/// The three passes of a 3x3, stride 1, padding 1 convolution; nullopt where oneDNN has no
/// implementation of `algorithm` for these layouts on this CPU.
std::optional<Times> timePasses(dnnl::engine& engine, dnnl::stream& stream, const Shape& s, dnnl::algorithm algorithm,
                                Tag activations)
{
    const memory::dims src{s.batch, s.channelsIn, s.size, s.size}, weights{s.channelsOut, s.channelsIn, 3, 3},
        bias{s.channelsOut}, dst{s.batch, s.channelsOut, s.size, s.size}, strides{1, 1}, padding{1, 1};
    const auto desc = [](const memory::dims& d, Tag tag) { return memory::desc(d, memory::data_type::f32, tag); };
    try {
        const dnnl::convolution_forward::primitive_desc forward({dnnl::prop_kind::forward_training, algorithm,
                                                                 desc(src, activations), desc(weights, Tag::any),
                                                                 desc(dst, activations), strides, padding, padding},
                                                                engine);
        if (algorithm == dnnl::algorithm::convolution_winograd &&
            std::string(forward.impl_info_str()).find("wino") == std::string::npos)
            return std::nullopt; // a reference fallback, hundreds of times slower
        const dnnl::convolution_backward_data::primitive_desc data(
            {algorithm, desc(src, activations), desc(weights, Tag::any), desc(dst, activations), strides, padding, padding},
            engine, forward);
        const dnnl::convolution_backward_weights::primitive_desc grads({algorithm, desc(src, activations),
                                                                        desc(weights, Tag::any), desc(bias, Tag::any),
                                                                        desc(dst, activations), strides, padding, padding},
                                                                       engine, forward);
        memory x(forward.src_desc(), engine), w(forward.weights_desc(), engine), y(forward.dst_desc(), engine),
            wData(data.weights_desc(), engine), plainW(desc(weights, Tag::acdb), engine),
            plainDw(desc(weights, Tag::acdb), engine);
        memory dx(data.diff_src_desc(), engine), dy(data.diff_dst_desc(), engine), dw(grads.diff_weights_desc(), engine),
            db(grads.diff_bias_desc(), engine);
        for (memory* m : {&x, &plainW, &dy}) {
            auto* p = static_cast<float*>(m->get_data_handle());
            for (size_t i = 0; i < m->get_desc().get_size() / sizeof(float); ++i)
                p[i] = float((i * 7919) % 1000) * 1e-3f - 0.5f;
        }
        dnnl::convolution_forward f(forward);
        dnnl::convolution_backward_data d(data);
        dnnl::convolution_backward_weights g(grads);
        dnnl::reorder toForward(plainW, w), toData(plainW, wData), fromGrads(dw, plainDw);
        Times t;
        t.weights = medianMs([&] {
            toForward.execute(stream, plainW, w);
            toData.execute(stream, plainW, wData);
            fromGrads.execute(stream, dw, plainDw);
            stream.wait();
        });
        t.forward = medianMs([&] {
            f.execute(stream, {{DNNL_ARG_SRC, x}, {DNNL_ARG_WEIGHTS, w}, {DNNL_ARG_DST, y}});
            stream.wait();
        });
        t.backwardData = medianMs([&] {
            d.execute(stream, {{DNNL_ARG_DIFF_DST, dy}, {DNNL_ARG_WEIGHTS, wData}, {DNNL_ARG_DIFF_SRC, dx}});
            stream.wait();
        });
        t.backwardWeights = medianMs([&] {
            g.execute(stream,
                      {{DNNL_ARG_SRC, x}, {DNNL_ARG_DIFF_DST, dy}, {DNNL_ARG_DIFF_WEIGHTS, dw}, {DNNL_ARG_DIFF_BIAS, db}});
            stream.wait();
        });
        return t;
    } catch (const dnnl::error&) {
        return std::nullopt;
    }
}

/// nhwc -> blocked for the input and the output's gradient, blocked -> nhwc for the output and the
/// input's gradient: what a Winograd path between channels-last layers pays per step.
double reorderMs(dnnl::engine& engine, dnnl::stream& stream, const Shape& s)
{
    // Winograd's blocked layouts for the input (and its gradient) and the output (and its gradient).
    const dnnl::convolution_forward::primitive_desc pd(
        {dnnl::prop_kind::forward_training,
         dnnl::algorithm::convolution_winograd,
         memory::desc({s.batch, s.channelsIn, s.size, s.size}, memory::data_type::f32, Tag::any),
         memory::desc({s.channelsOut, s.channelsIn, 3, 3}, memory::data_type::f32, Tag::any),
         memory::desc({s.batch, s.channelsOut, s.size, s.size}, memory::data_type::f32, Tag::any),
         {1, 1},
         {1, 1},
         {1, 1}},
        engine);
    double total = 0;
    for (const auto& [channels, blocked] : {std::pair{s.channelsIn, pd.src_desc()}, std::pair{s.channelsOut, pd.dst_desc()}}) {
        memory nhwc({{s.batch, channels, s.size, s.size}, memory::data_type::f32, Tag::nhwc}, engine), block(blocked, engine);
        dnnl::reorder in(nhwc, block), out(block, nhwc);
        total += medianMs([&] {
            in.execute(stream, nhwc, block);
            stream.wait();
        });
        total += medianMs([&] {
            out.execute(stream, block, nhwc);
            stream.wait();
        });
    }
    return total; // the input and the output gradient in, the output and the input gradient out
}

} // namespace

int main()
{
    dnnl::engine engine(dnnl::engine::kind::cpu, 0);
    dnnl::stream stream(engine);
    const char* threads = std::getenv("OMP_NUM_THREADS");
    const dnnl::version_t* v = dnnl::version();
    std::printf("CPU: %s; oneDNN %d.%d.%d; OMP_NUM_THREADS=%s; ms per pass (forward + backward data + backward weights + the "
                "weights' reorders)\n",
                entrena::bench::cpuName().c_str(), v->major, v->minor, v->patch, threads ? threads : "unset");
    const Shape shapes[] = {
        {"resnet stage 1, 16 ch @32x32, batch 128", 128, 16, 16, 32},
        {"resnet stage 2, 32 ch @16x16, batch 128", 128, 32, 32, 16},
        {"resnet stage 3, 64 ch @8x8, batch 128", 128, 64, 64, 8},
        {"resnet18 layer1, 64 ch @8x8, batch 64", 64, 64, 64, 8},
        {"resnet18 layer2, 128 ch @4x4, batch 64", 64, 128, 128, 4},
        {"resnet18 layer3, 256 ch @2x2, batch 64", 64, 256, 256, 2},
        {"resnet18 layer4, 512 ch @1x1, batch 64", 64, 512, 512, 1},
    };
    std::printf("| shape | nhwc direct (LibTorch) | blocked direct | blocked winograd | reorders | winograd + reorders vs nhwc "
                "direct |\n");
    std::printf("|---|---:|---:|---:|---:|---:|\n");
    const auto show = [](const std::optional<Times>& t) {
        char b[64];
        if (!t)
            return std::string("none here");
        std::snprintf(b, sizeof b, "%.2f + %.2f + %.2f + %.2f", t->forward, t->backwardData, t->backwardWeights, t->weights);
        return std::string(b);
    };
    for (const Shape& s : shapes) {
        const auto nhwc = timePasses(engine, stream, s, dnnl::algorithm::convolution_direct, Tag::nhwc);
        const auto direct = timePasses(engine, stream, s, dnnl::algorithm::convolution_direct, Tag::any);
        const auto winograd = timePasses(engine, stream, s, dnnl::algorithm::convolution_winograd, Tag::any);
        const double reorders = winograd ? reorderMs(engine, stream, s) : 0;
        char ratio[32] = "–";
        if (nhwc && winograd)
            std::snprintf(ratio, sizeof ratio, "%.2fx", nhwc->total() / (winograd->total() + reorders));
        std::printf("| %s | %s | %s | %s | %.2f | %s |\n", s.name, show(nhwc).c_str(), show(direct).c_str(),
                    show(winograd).c_str(), reorders, ratio);
    }
}
