// The built-in resnet's training step with oneDNN's Winograd convolutions on its 3x3, stride-1 layers
// of 32 channels or more (stages 2 and 3: where bench/conv_algorithms measures Winograd ahead), against
// the same step with ATen's convolutions, alternating step by step in one process; and how far each
// one's gradients are from a float64 reference. An experiment for issue 34, not an Entrena path: the
// model is written out here (ATen's batch norm and ReLU, SGD with Nesterov momentum, batch 128,
// CIFAR-shaped random data), and the Winograd convolution is an autograd function around oneDNN's
// primitives with the reorders a path between channels-last layers would pay.
//
//   OMP_WAIT_POLICY=PASSIVE build/test/bench/winograd_step 1     # threads
#include "BenchCpu.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <dnnl.hpp>
#include <map>
#include <string>
#include <torch/torch.h>
#include <tuple>
#include <vector>

using dnnl::memory;
using Tag = memory::format_tag;
namespace F = torch::nn::functional;

static dnnl::engine& eng()
{
    static dnnl::engine e(dnnl::engine::kind::cpu, 0);
    return e;
}
static dnnl::stream& strm()
{
    static dnnl::stream s(eng());
    return s;
}

struct Prims {
    dnnl::convolution_forward::primitive_desc fpd;
    dnnl::convolution_backward_data::primitive_desc dpd;
    dnnl::convolution_backward_weights::primitive_desc wpd;
    dnnl::convolution_forward f;
    dnnl::convolution_backward_data d;
    dnnl::convolution_backward_weights w;
};

static Prims& prims(int64_t n, int64_t c, int64_t o, int64_t h, int64_t wd)
{
    static std::map<std::tuple<int64_t, int64_t, int64_t, int64_t, int64_t>, std::unique_ptr<Prims>> cache;
    auto& p = cache[{n, c, o, h, wd}];
    if (!p) {
        auto md = [](memory::dims d) { return memory::desc(d, memory::data_type::f32, Tag::any); };
        memory::dims src{n, c, h, wd}, wei{o, c, 3, 3}, bias{o}, dst{n, o, h, wd}, s{1, 1}, pad{1, 1};
        auto alg = dnnl::algorithm::convolution_winograd;
        dnnl::convolution_forward::primitive_desc fpd(
            {dnnl::prop_kind::forward_training, alg, md(src), md(wei), md(dst), s, pad, pad}, eng());
        dnnl::convolution_backward_data::primitive_desc dpd({alg, md(src), md(wei), md(dst), s, pad, pad}, eng(), fpd);
        dnnl::convolution_backward_weights::primitive_desc wpd({alg, md(src), md(wei), md(dst), s, pad, pad}, eng(), fpd);
        p.reset(new Prims{fpd, dpd, wpd, dnnl::convolution_forward(fpd), dnnl::convolution_backward_data(dpd),
                          dnnl::convolution_backward_weights(wpd)});
    }
    return *p;
}

static memory::desc nhwc(const torch::Tensor& t)
{
    return memory::desc({t.size(0), t.size(1), t.size(2), t.size(3)}, memory::data_type::f32, Tag::nhwc);
}

// x -> memory in desc `want` (reordered from x's nhwc storage)
static memory in(const torch::Tensor& t, const memory::desc& want)
{
    memory plain(nhwc(t), eng(), t.data_ptr());
    if (plain.get_desc() == want)
        return plain;
    memory m(want, eng());
    dnnl::reorder(plain, m).execute(strm(), plain, m);
    return m;
}
static torch::Tensor out(const memory& m, at::IntArrayRef sizes)
{
    auto t = torch::empty(sizes, torch::TensorOptions().memory_format(torch::MemoryFormat::ChannelsLast));
    memory plain(nhwc(t), eng(), t.data_ptr());
    dnnl::reorder(m, plain).execute(strm(), const_cast<memory&>(m), plain);
    return t;
}

struct Wino : torch::autograd::Function<Wino> {
    static torch::Tensor forward(torch::autograd::AutogradContext* ctx, torch::Tensor x, torch::Tensor w)
    {
        x = x.contiguous(torch::MemoryFormat::ChannelsLast);
        w = w.contiguous(torch::MemoryFormat::ChannelsLast);
        ctx->save_for_backward({x, w});
        auto& p = prims(x.size(0), x.size(1), w.size(0), x.size(2), x.size(3));
        memory src = in(x, p.fpd.src_desc()), wei = in(w, p.fpd.weights_desc());
        memory dst(p.fpd.dst_desc(), eng());
        p.f.execute(strm(), {{DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, wei}, {DNNL_ARG_DST, dst}});
        auto y = out(dst, {x.size(0), w.size(0), x.size(2), x.size(3)});
        strm().wait();
        return y;
    }
    static torch::autograd::tensor_list backward(torch::autograd::AutogradContext* ctx, torch::autograd::tensor_list g)
    {
        auto s = ctx->get_saved_variables();
        auto x = s[0], w = s[1];
        auto dy = g[0].contiguous(torch::MemoryFormat::ChannelsLast);
        auto& p = prims(x.size(0), x.size(1), w.size(0), x.size(2), x.size(3));
        memory ddst = in(dy, p.dpd.diff_dst_desc()), wei = in(w, p.dpd.weights_desc());
        memory dsrc(p.dpd.diff_src_desc(), eng());
        p.d.execute(strm(), {{DNNL_ARG_DIFF_DST, ddst}, {DNNL_ARG_WEIGHTS, wei}, {DNNL_ARG_DIFF_SRC, dsrc}});
        auto dx = out(dsrc, x.sizes());
        memory src = in(x, p.wpd.src_desc()),
               ddst2 = p.wpd.diff_dst_desc() == ddst.get_desc() ? ddst : in(dy, p.wpd.diff_dst_desc());
        memory dwei(p.wpd.diff_weights_desc(), eng());
        p.w.execute(strm(), {{DNNL_ARG_SRC, src}, {DNNL_ARG_DIFF_DST, ddst2}, {DNNL_ARG_DIFF_WEIGHTS, dwei}});
        auto dw = out(dwei, w.sizes());
        strm().wait();
        return {dx, dw};
    }
};

bool gWino = false; ///< the eligible layers take Winograd
struct ConvImpl : torch::nn::Module {
    torch::nn::Conv2d c{nullptr};
    bool eligible;
    ConvImpl(int64_t i, int64_t o, int64_t k, int64_t s, bool elig)
        : eligible(elig)
    {
        c = register_module("c", torch::nn::Conv2d(torch::nn::Conv2dOptions(i, o, k).stride(s).padding(k / 2).bias(false)));
    }
    torch::Tensor forward(torch::Tensor x)
    {
        if (gWino && eligible)
            return Wino::apply(x, c->weight);
        return c->forward(x);
    }
};
TORCH_MODULE(Conv);

struct BlockImpl : torch::nn::Module {
    Conv c1{nullptr}, c2{nullptr}, proj{nullptr};
    torch::nn::BatchNorm2d b1{nullptr}, b2{nullptr}, bp{nullptr};
    BlockImpl(int64_t i, int64_t o, int64_t s)
    {
        c1 = register_module("c1", Conv(i, o, 3, s, s == 1 && i >= 32));
        c2 = register_module("c2", Conv(o, o, 3, 1, o >= 32));
        b1 = register_module("b1", torch::nn::BatchNorm2d(o));
        b2 = register_module("b2", torch::nn::BatchNorm2d(o));
        if (s != 1 || i != o) {
            proj = register_module("p", Conv(i, o, 1, s, false));
            bp = register_module("bp", torch::nn::BatchNorm2d(o));
        }
    }
    torch::Tensor forward(torch::Tensor x)
    {
        auto y = torch::relu(b1(c1(x)));
        y = b2(c2(y));
        auto sc = proj ? bp(proj(x)) : x;
        return torch::relu(y + sc);
    }
};
TORCH_MODULE(Block);

struct NetImpl : torch::nn::Module {
    Conv stem{nullptr};
    torch::nn::BatchNorm2d bn{nullptr};
    Block s1{nullptr}, s2{nullptr}, s3{nullptr};
    torch::nn::Linear fc{nullptr};
    NetImpl()
    {
        stem = register_module("stem", Conv(3, 16, 3, 1, false));
        bn = register_module("bn", torch::nn::BatchNorm2d(16));
        s1 = register_module("s1", Block(16, 16, 1));
        s2 = register_module("s2", Block(16, 32, 2));
        s3 = register_module("s3", Block(32, 64, 2));
        fc = register_module("fc", torch::nn::Linear(64, 10));
    }
    torch::Tensor forward(torch::Tensor x)
    {
        x = torch::relu(bn(stem(x)));
        x = s3(s2(s1(x)));
        return fc(x.mean({2, 3}));
    }
};
TORCH_MODULE(Net);

/// Every parameter's gradient of the loss on (x, y), in eval mode, with or without Winograd.
std::vector<torch::Tensor> gradients(Net& net, const torch::Tensor& x, const torch::Tensor& y, bool winograd)
{
    gWino = winograd;
    net->eval();
    for (auto& p : net->parameters())
        p.mutable_grad() = torch::Tensor();
    F::cross_entropy(net->forward(x), y).backward();
    std::vector<torch::Tensor> out;
    for (auto& p : net->parameters())
        out.push_back(p.grad().to(torch::kFloat64));
    net->train();
    return out;
}

/// The largest difference from the reference over the parameters, each relative to its largest
/// reference gradient.
double worstRelative(const std::vector<torch::Tensor>& got, const std::vector<torch::Tensor>& reference)
{
    double worst = 0;
    for (size_t i = 0; i < got.size(); ++i)
        worst = std::max(worst, ((got[i] - reference[i]).abs().max() / reference[i].abs().max()).item<double>());
    return worst;
}

int main(int argc, char** argv)
{
    const int threads = argc > 1 ? std::atoi(argv[1]) : 1;
    torch::set_num_threads(threads);
    torch::manual_seed(0);
    Net net;
    for (auto& p : net->parameters())
        if (p.dim() == 4)
            p.set_data(p.contiguous(torch::MemoryFormat::ChannelsLast));
    torch::optim::SGD opt(net->parameters(), torch::optim::SGDOptions(0.05).momentum(0.9).nesterov(true).weight_decay(5e-4));
    const auto x = torch::randn({128, 3, 32, 32}).contiguous(torch::MemoryFormat::ChannelsLast);
    const auto y = torch::randint(0, 10, {128});
    std::printf("CPU: %s; %d thread(s)\n", entrena::bench::cpuName().c_str(), threads);

    // Numerics: the same weights in float64, ATen's convolutions, as the reference.
    Net reference;
    reference->to(torch::kFloat64);
    {
        torch::NoGradGuard noGrad;
        const auto from = net->parameters();
        auto to = reference->parameters();
        for (size_t i = 0; i < from.size(); ++i)
            to[i].copy_(from[i]);
    }
    const auto exact = gradients(reference, x.to(torch::kFloat64), y, false);
    std::printf("gradients against float64, worst relative to each parameter's largest: ATen %.2e, Winograd %.2e\n",
                worstRelative(gradients(net, x, y, false), exact), worstRelative(gradients(net, x, y, true), exact));

    // Speed: training steps alternating between the two, medians of 20 each after 6 to warm up.
    const auto step = [&] {
        opt.zero_grad();
        F::cross_entropy(net->forward(x), y).backward();
        opt.step();
    };
    std::vector<double> aten, winograd;
    for (int i = 0; i < 46; ++i) {
        gWino = i % 2 == 1;
        const auto start = std::chrono::steady_clock::now();
        step();
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        if (i >= 6)
            (gWino ? winograd : aten).push_back(ms);
    }
    const auto median = [](std::vector<double> v) {
        std::sort(v.begin(), v.end());
        return v[v.size() / 2];
    };
    std::printf("ms per step: ATen's convolutions %.1f, Winograd on stages 2 and 3: %.1f, speed-up %.3fx\n", median(aten),
                median(winograd), median(aten) / median(winograd));
}
