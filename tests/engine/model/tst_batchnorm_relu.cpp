// The fused batch norm and ReLU (BatchNormRelu), with and without a shortcut added before the ReLU,
// against ATen's ops: outputs, the gradients of the input, the shortcut, the weight and the bias, and
// the running statistics, to float rounding, in each instruction set's copy of the kernels, at one and
// two threads, with channel counts that leave a tail of lanes and a large mean; the cases it leaves
// to ATen; and the resnet's block through both.
#include "model/BatchNormRelu.h"
#include "model/Lanes.h"
#include "model/PoolRelu.h"
#include "model/ResidualBlock.h"

#include <ATen/Parallel.h>
#include <QtTest>

using namespace entrena;

namespace {

struct Narrowed {
    explicit Narrowed(lanes::Isa isa) { lanes::narrowedIsa() = int(isa); }
    ~Narrowed() { lanes::narrowedIsa() = -1; }
};

struct Pass {
    torch::Tensor out, gradIn, gradShortcut, gradWeight, gradBias, runningMean, runningVar;
};

/// One training forward and backward of relu(bn(x) [+ shortcut]) with a fresh batch norm whose affine
/// parameters and running statistics are set from `seed`; fused or through ATen's ops.
Pass pass(const torch::Tensor& x0, const torch::Tensor& shortcut0, const torch::Tensor& gradOut, bool fused)
{
    const int64_t c = x0.size(1);
    torch::nn::BatchNorm2d bn(c);
    {
        torch::NoGradGuard noGrad;
        torch::manual_seed(5);
        bn->weight.uniform_(0.5, 1.5);
        bn->bias.uniform_(-0.5, 0.5);
        bn->running_mean.uniform_(-1, 1);
        bn->running_var.uniform_(0.5, 2);
    }
    auto x = x0.clone().requires_grad_();
    auto shortcut = shortcut0.defined() ? shortcut0.clone().requires_grad_() : torch::Tensor();
    torch::Tensor out;
    if (fused) {
        out = batchNormRelu(x, *bn, shortcut);
    } else {
        const auto normed = bn->forward(x);
        out = torch::relu(shortcut.defined() ? normed + shortcut : normed);
    }
    out.backward(gradOut);
    return {out.detach(),           x.grad(),        shortcut.defined() ? shortcut.grad() : torch::Tensor(),
            bn->weight.grad(),      bn->bias.grad(), bn->running_mean.clone(),
            bn->running_var.clone()};
}

/// |a - b| within `tolerance` of b's largest magnitude (and both the same shape).
void close(const torch::Tensor& a, const torch::Tensor& b, double tolerance, const char* what)
{
    QVERIFY2(a.sizes() == b.sizes(), what);
    const double scale = std::max(1.0, b.abs().max().item<double>());
    const double worst = (a - b).abs().max().item<double>();
    QVERIFY2(worst <= tolerance * scale, qPrintable(QString("%1: %2 apart (scale %3)").arg(what).arg(worst).arg(scale)));
}

} // namespace

class TestBatchNormRelu : public QObject {
    Q_OBJECT

private slots:
    void matchesAtensBatchNormAndRelu_data()
    {
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("c");
        QTest::addColumn<int>("h");
        QTest::addColumn<bool>("withShortcut");
        QTest::addColumn<double>("mean");
        QTest::addColumn<int>("threads");
        QTest::newRow("16 channels") << 8 << 16 << 8 << false << 0.0 << 2;
        QTest::newRow("16 channels, shortcut") << 8 << 16 << 8 << true << 0.0 << 2;
        QTest::newRow("20 channels (a tail of 4), shortcut") << 4 << 20 << 7 << true << 0.0 << 2;
        QTest::newRow("3 channels (only the tail)") << 5 << 3 << 5 << false << 0.0 << 1;
        QTest::newRow("64 channels, a mean 30 standard deviations out") << 6 << 64 << 4 << true << 30.0 << 1;
    }

    void matchesAtensBatchNormAndRelu()
    {
        QFETCH(int, n);
        QFETCH(int, c);
        QFETCH(int, h);
        QFETCH(bool, withShortcut);
        QFETCH(double, mean);
        QFETCH(int, threads);
        const int before = at::get_num_threads();
        at::set_num_threads(threads);
        torch::manual_seed(3);
        const auto layout = torch::MemoryFormat::ChannelsLast;
        const auto x = (torch::randn({n, c, h, h}) + mean).contiguous(layout);
        const auto shortcut = withShortcut ? torch::randn({n, c, h, h}).contiguous(layout) : torch::Tensor();
        const auto gradOut = torch::randn({n, c, h, h}).contiguous(layout);
        QVERIFY(batchNormReluApplies(x, *torch::nn::BatchNorm2d(c), shortcut));
        const Pass aten = pass(x, shortcut, gradOut, false);
        for (int i = int(lanes::widestIsa()); i <= int(lanes::Isa::Baseline); ++i) {
            Narrowed narrowed{lanes::Isa(i)};
            const int64_t fusedBefore = fusedBatchNorms();
            const Pass own = pass(x, shortcut, gradOut, true);
            QCOMPARE(fusedBatchNorms(), fusedBefore + 1);
            QVERIFY(own.out.is_contiguous(layout));
            close(own.out, aten.out, 1e-5, "output");
            // Where ATen's output is exactly 0 the ReLU passed nothing back, and the fused one agrees.
            QVERIFY(torch::equal(own.out > 0, aten.out > 0));
            close(own.gradIn, aten.gradIn, 1e-4, "input's gradient");
            if (withShortcut)
                QVERIFY(torch::equal(own.gradShortcut, aten.gradShortcut));
            close(own.gradWeight, aten.gradWeight, 1e-4, "weight's gradient");
            close(own.gradBias, aten.gradBias, 1e-4, "bias's gradient");
            close(own.runningMean, aten.runningMean, 1e-5, "running mean");
            close(own.runningVar, aten.runningVar, 1e-5, "running variance");
        }
        at::set_num_threads(before);
    }

    void nansAndInfinitiesAsAten()
    {
        // An infinity in channel 0 makes its statistics NaN (every output of the channel NaN, its running
        // variance NaN); a NaN in the shortcut of channel 1 gives a NaN output whose gradient the ReLU
        // passes (ATen's threshold_backward zeroes only where the output is <= 0).
        torch::manual_seed(6);
        const auto layout = torch::MemoryFormat::ChannelsLast;
        auto x = torch::randn({4, 8, 6, 6});
        x[2][0][3][3] = std::numeric_limits<float>::infinity();
        auto shortcut = torch::randn({4, 8, 6, 6});
        shortcut[1][1][2][4] = std::numeric_limits<float>::quiet_NaN();
        x = x.contiguous(layout);
        shortcut = shortcut.contiguous(layout);
        const auto gradOut = torch::randn({4, 8, 6, 6}).contiguous(layout);
        const Pass aten = pass(x, shortcut, gradOut, false), own = pass(x, shortcut, gradOut, true);
        const auto sameNonFinite = [](const torch::Tensor& a, const torch::Tensor& b, const char* what) {
            QVERIFY2(torch::equal(a.isnan(), b.isnan()) && torch::equal(a.isinf(), b.isinf()), what);
            close(a.nan_to_num(0, 0, 0), b.nan_to_num(0, 0, 0), 1e-4, what);
        };
        QVERIFY(aten.out.isnan().any().item<bool>()); // the case is what it says
        sameNonFinite(own.out, aten.out, "output");
        sameNonFinite(own.gradIn, aten.gradIn, "input's gradient");
        sameNonFinite(own.gradShortcut, aten.gradShortcut, "shortcut's gradient");
        sameNonFinite(own.runningVar, aten.runningVar, "running variance");
        sameNonFinite(own.runningMean, aten.runningMean, "running mean");
    }

    void runningStatisticsWithoutMomentumAsAten()
    {
        // momentum unset: the cumulative average over the batches seen, counted in num_batches_tracked.
        torch::manual_seed(8);
        const auto layout = torch::MemoryFormat::ChannelsLast;
        torch::nn::BatchNorm2d fused(torch::nn::BatchNorm2dOptions(8).momentum(c10::nullopt)),
            plain(torch::nn::BatchNorm2dOptions(8).momentum(c10::nullopt));
        for (int step = 0; step < 3; ++step) {
            const auto x = (torch::randn({4, 8, 5, 5}) * (step + 1) + step).contiguous(layout);
            const int64_t before = fusedBatchNorms();
            batchNormRelu(x, *fused);
            QCOMPARE(fusedBatchNorms(), before + 1);
            torch::relu(plain->forward(x));
        }
        QCOMPARE(fused->num_batches_tracked.item<int64_t>(), int64_t(3));
        QCOMPARE(plain->num_batches_tracked.item<int64_t>(), int64_t(3));
        close(fused->running_mean, plain->running_mean, 1e-5, "running mean");
        close(fused->running_var, plain->running_var, 1e-5, "running variance");
    }

    void leavesOtherCasesToAten()
    {
        torch::manual_seed(4);
        const auto channelsLast = torch::randn({4, 8, 6, 6}).contiguous(torch::MemoryFormat::ChannelsLast);
        torch::nn::BatchNorm2d bn(8);
        QVERIFY(!batchNormReluApplies(channelsLast.contiguous(), *bn));                                    // NCHW
        QVERIFY(!batchNormReluApplies(channelsLast.to(torch::kFloat64), *bn));                             // not fp32
        QVERIFY(!batchNormReluApplies(channelsLast, *bn, torch::randn({4, 8, 6, 6})));                     // shortcut NCHW
        QVERIFY(!batchNormReluApplies(channelsLast.narrow(0, 0, 1).narrow(2, 0, 1).narrow(3, 0, 1), *bn)); // one value
        bn->eval();
        QVERIFY(!batchNormReluApplies(channelsLast, *bn)); // evaluation uses the running statistics
        bn->train();
        QVERIFY(batchNormReluApplies(channelsLast, *bn));
        {
            qputenv("ENTRENA_FUSED", "0");
            QVERIFY(!batchNormReluApplies(channelsLast, *bn));
            qunsetenv("ENTRENA_FUSED");
        }
        // Left to ATen, it is ATen's pair exactly.
        const auto nchw = channelsLast.contiguous();
        const int64_t before = fusedBatchNorms();
        torch::nn::BatchNorm2d a(8), b(8);
        QVERIFY(torch::equal(batchNormRelu(nchw, *a), torch::relu(b->forward(nchw))));
        QCOMPARE(fusedBatchNorms(), before);
    }

    void theResidualBlockMatchesItsAtenForward()
    {
        // A block with a projection (stride 2, 8 to 16 channels), channels-last as the resnet runs it:
        // the fused forward's output and every parameter's gradient agree with ATen's.
        torch::manual_seed(9);
        ResidualBlock fused(8, 16, 2), plain(8, 16, 2);
        {
            torch::NoGradGuard noGrad;
            auto from = fused->named_parameters(), to = plain->named_parameters();
            for (const auto& p : from)
                to[p.key()].copy_(p.value());
        }
        fused->to(torch::kFloat32);
        for (auto* m : {&fused, &plain})
            for (auto& p : (*m)->parameters())
                if (p.dim() == 4) {
                    torch::NoGradGuard noGrad;
                    p.set_data(p.contiguous(torch::MemoryFormat::ChannelsLast));
                }
        const auto x = torch::randn({6, 8, 12, 12}).contiguous(torch::MemoryFormat::ChannelsLast);
        const int64_t before = fusedBatchNorms();
        const auto a = fused->forwardFused(x), b = plain->forward(x);
        QCOMPARE(fusedBatchNorms(), before + 2); // bn1 and bn2 (the projection's has no ReLU of its own)
        close(a, b, 1e-5, "block's output");
        const auto g = torch::randn_like(b);
        a.backward(g);
        b.backward(g);
        auto ours = fused->named_parameters(), theirs = plain->named_parameters();
        for (const auto& p : theirs)
            close(ours[p.key()].grad(), p.value().grad(), 1e-4, p.key().c_str());
    }
};

QTEST_GUILESS_MAIN(TestBatchNormRelu)
#include "tst_batchnorm_relu.moc"
