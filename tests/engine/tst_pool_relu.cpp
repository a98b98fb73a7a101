// The fused 2×2 max-pool and ReLU (PoolRelu) against ATen's pair: the same outputs and input
// gradients bit for bit, ties, zeros, negatives and NaNs included, in odd sizes and at one and two
// threads; the layouts it leaves to ATen; and the CNN's forward through it.
#include "model/Model.h"
#include "model/PoolRelu.h"

#include <ATen/Parallel.h>
#include <QtTest>

using namespace entrena;

namespace {

/// Values with many ties and signs: integers in [-3, 3], some NaN.
torch::Tensor tricky(int64_t n, int64_t c, int64_t h, int64_t w, bool nans)
{
    torch::manual_seed(11);
    auto x = torch::randint(-3, 4, {n, c, h, w}).to(torch::kFloat32);
    if (nans)
        x.masked_fill_(torch::rand({n, c, h, w}) < 0.01, std::numeric_limits<float>::quiet_NaN());
    return x.contiguous(torch::MemoryFormat::ChannelsLast);
}

struct Pair {
    torch::Tensor out, grad;
};

Pair run(const torch::Tensor& x0, const torch::Tensor& gradOut, bool fused)
{
    auto x = x0.clone().requires_grad_();
    auto out = fused ? maxPool2Relu(x) : torch::relu(torch::max_pool2d(x, 2));
    out.backward(gradOut);
    return {out.detach(), x.grad()};
}

/// Equal bit for bit, NaN where NaN.
bool same(const torch::Tensor& a, const torch::Tensor& b)
{
    return a.sizes() == b.sizes() && torch::equal(a.isnan(), b.isnan()) &&
           torch::equal(a.nan_to_num(0, 0, 0), b.nan_to_num(0, 0, 0));
}

} // namespace

class TestPoolRelu : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void matchesAtensPoolAndRelu_data()
    {
        QTest::addColumn<int>("channels");
        QTest::addColumn<int>("size");
        QTest::addColumn<bool>("nans");
        QTest::addColumn<int>("threads");
        QTest::newRow("cnn's first block") << 32 << 28 << false << 2;
        QTest::newRow("cnn's second block, 1 thread") << 64 << 14 << false << 1;
        QTest::newRow("odd size, odd channels") << 5 << 7 << false << 2;
        QTest::newRow("NaNs") << 16 << 10 << true << 2;
    }

    void matchesAtensPoolAndRelu()
    {
        QFETCH(int, channels);
        QFETCH(int, size);
        QFETCH(bool, nans);
        QFETCH(int, threads);
        const int before = at::get_num_threads();
        at::set_num_threads(threads);
        const auto x = tricky(6, channels, size, size, nans);
        const auto gradOut = torch::randn({6, channels, size / 2, size / 2}).contiguous(torch::MemoryFormat::ChannelsLast);
        const Pair aten = run(x, gradOut, false), fused = run(x, gradOut, true);
        at::set_num_threads(before);
        QVERIFY(same(fused.out, aten.out));
        QVERIFY(same(fused.grad, aten.grad));
        QVERIFY(fused.out.is_contiguous(torch::MemoryFormat::ChannelsLast));
        // Ties are common here: a wrong choice of window element would show.
        QVERIFY(aten.grad.ne(0).sum().item<int64_t>() > 0);
    }

    void leavesOtherLayoutsToAten()
    {
        const auto nchw = tricky(2, 4, 6, 6, false).contiguous();
        const auto gradOut = torch::randn({2, 4, 3, 3});
        const Pair aten = run(nchw, gradOut, false), fused = run(nchw, gradOut, true);
        QVERIFY(same(fused.out, aten.out));
        QVERIFY(same(fused.grad, aten.grad));
        const auto node = [](const torch::Tensor& x) { return maxPool2Relu(x.clone().requires_grad_()).grad_fn()->name(); };
        QCOMPARE(node(nchw), std::string("ReluBackward0")); // ATen's own ops
        QVERIFY(node(tricky(2, 4, 6, 6, false)).find("PoolRelu") != std::string::npos);
        QCOMPARE(node(tricky(2, 1, 6, 6, false)), std::string("ReluBackward0")); // one channel: both layouts at once
        setenv("ENTRENA_FUSED", "0", 1);
        const std::string off = node(tricky(2, 4, 6, 6, false));
        unsetenv("ENTRENA_FUSED");
        QCOMPARE(off, std::string("ReluBackward0"));
    }

    void theCnnRunsThroughIt()
    {
        ModelSpec spec;
        spec.arch = ModelArch::Cnn;
        torch::manual_seed(3);
        Model model = Model::buildOn(torch::kCPU, spec, 1, 28, 28, 10);
        auto x = torch::randn({8, 1, 28, 28}).contiguous(torch::MemoryFormat::ChannelsLast);
        auto fused = model.forward(x);
        auto reference = model.sequential()->forward(x); // ATen's modules one by one
        QVERIFY(torch::allclose(fused, reference, 1e-5, 1e-6));
        // The graph holds the fused node: no max_pool2d_with_indices backward on the way to conv2.
        bool seenFused = false;
        std::vector<torch::autograd::Node*> todo{fused.grad_fn().get()};
        while (!todo.empty()) {
            auto* node = todo.back();
            todo.pop_back();
            if (!node)
                continue;
            seenFused |= std::string(node->name()).find("PoolRelu") != std::string::npos;
            QVERIFY(std::string(node->name()).find("MaxPool") == std::string::npos);
            for (const auto& edge : node->next_edges())
                todo.push_back(edge.function.get());
        }
        QVERIFY(seenFused);
    }
};

QTEST_GUILESS_MAIN(TestPoolRelu)
#include "tst_pool_relu.moc"
