// The fused 2×2 max-pool and ReLU (PoolRelu) against ATen's pair: exactly the same outputs and input
// gradients, ties, zeros, negatives and NaNs included, in odd sizes and at one and two
// threads; the layouts it leaves to ATen. The fused first block (ConvPoolRelu: convolution of the
// data, pool, ReLU) against oneDNN's convolution and ATen's pool: outputs and the weight's and bias's
// gradients to float rounding. And the CNN's forward through both.
#include "entrena/train/Trainer.h"
#include "model/ConvPoolRelu.h"
#include "model/Lanes.h"
#include "model/Model.h"
#include "model/Models.h"
#include "train/Precision.h"
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

/// The instruction sets whose copy of the kernels this CPU can run, widest first.
std::vector<lanes::Isa> isas()
{
    std::vector<lanes::Isa> all;
    for (int i = int(lanes::widestIsa()); i <= int(lanes::Isa::Baseline); ++i)
        all.push_back(lanes::Isa(i));
    return all;
}

const char* isaName(lanes::Isa isa)
{
    return isa == lanes::Isa::Avx512 ? "AVX-512" : isa == lanes::Isa::Avx2 ? "AVX2" : "baseline";
}

struct Narrowed {
    explicit Narrowed(lanes::Isa isa) { lanes::narrowedIsa() = int(isa); }
    ~Narrowed() { lanes::narrowedIsa() = -1; }
};

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

/// Equal values, NaN where NaN.
bool same(const torch::Tensor& a, const torch::Tensor& b)
{
    return a.sizes() == b.sizes() && torch::equal(a.isnan(), b.isnan()) &&
           torch::equal(a.nan_to_num(0, 0, 0), b.nan_to_num(0, 0, 0));
}

struct Losses : TrainingObserver {
    std::vector<double> train, steps;
    void onStep(const StepEvent& e) override { steps.push_back(e.loss); }
    void onEpoch(const EpochEvent& e) override { train.push_back(e.trainLoss); }
};

/// The default CNN on a Fashion-MNIST subset: 3,000 training images (300 held out), 2 epochs.
RunConfig cnnRun()
{
    return RunConfig::fromJson(std::string(R"({"name": "fused-cnn", "seed": 3, "data": {"path": ")") + ENTRENA_FMNIST_DIR +
                               R"(", "train_limit": 3000, "test_limit": 1000, "batch_size": 64},
        "model": {"arch": "cnn"}, "scheduler": {"name": "constant"},
        "optimizer": {"name": "sgd", "lr": 0.05, "momentum": 0.9, "nesterov": true, "weight_decay": 0.0005},
        "train": {"epochs": 2, "log_every": 10}, "devices": {"threads": 2}})");
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
        QTest::newRow("NaNs, vector and scalar channels") << 12 << 10 << true << 2;
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
        const Pair aten = run(x, gradOut, false);
        for (const lanes::Isa isa : isas()) { // each compiled copy of the kernels this CPU can run
            Narrowed scope(isa);
            const Pair fused = run(x, gradOut, true);
            QVERIFY2(same(fused.out, aten.out), isaName(isa));
            QVERIFY2(same(fused.grad, aten.grad), isaName(isa));
            QVERIFY(fused.out.is_contiguous(torch::MemoryFormat::ChannelsLast));
        }
        at::set_num_threads(before);
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

    void firstBlockMatchesConvolutionPoolAndRelu_data()
    {
        QTest::addColumn<int>("channels");
        QTest::addColumn<int>("size");
        QTest::addColumn<bool>("bias");
        QTest::addColumn<int>("threads");
        QTest::newRow("cnn's first block, 2 threads") << 32 << 28 << true << 2;
        QTest::newRow("cnn's first block, 1 thread") << 32 << 28 << true << 1;
        QTest::newRow("odd size, no bias") << 16 << 27 << false << 2;
        QTest::newRow("48 channels, small images") << 48 << 5 << true << 2;
    }

    void firstBlockMatchesConvolutionPoolAndRelu()
    {
        QFETCH(int, channels);
        QFETCH(int, size);
        QFETCH(bool, bias);
        QFETCH(int, threads);
        const int before = at::get_num_threads();
        at::set_num_threads(threads);
        torch::manual_seed(7);
        torch::nn::Conv2d conv(torch::nn::Conv2dOptions(1, channels, 3).padding(1).bias(bias));
        toChannelsLast(*conv);
        const auto x = torch::randn({16, 1, size, size}).contiguous(torch::MemoryFormat::ChannelsLast);
        QVERIFY(convPoolReluApplies(x, *conv));
        const auto gradOut = torch::randn({16, channels, size / 2, size / 2}).contiguous(torch::MemoryFormat::ChannelsLast);
        const auto reference = torch::relu(torch::max_pool2d(conv->forward(x), 2));
        reference.backward(gradOut);
        const auto refWeight = conv->weight.grad().clone();
        const auto refBias = bias ? conv->bias.grad().clone() : torch::Tensor();
        for (const lanes::Isa isa : isas()) {
            Narrowed scope(isa);
            conv->weight.mutable_grad() = torch::Tensor();
            if (bias)
                conv->bias.mutable_grad() = torch::Tensor();
            const auto fused = convPoolRelu(x, *conv);
            fused.backward(gradOut);
            QVERIFY(fused.is_contiguous(torch::MemoryFormat::ChannelsLast));
            QVERIFY2(torch::allclose(fused, reference, 1e-5, 1e-5), isaName(isa));
            QCOMPARE(conv->weight.grad().strides(), conv->weight.strides());
            const double scale = refWeight.abs().max().item<double>();
            const double off = (conv->weight.grad() - refWeight).abs().max().item<double>();
            QVERIFY2(off < 1e-5 * scale, qPrintable(QString("%1: weight gradient off by %2").arg(isaName(isa)).arg(off)));
            if (bias)
                QVERIFY2((conv->bias.grad() - refBias).abs().max().item<double>() < 1e-5 * refBias.abs().max().item<double>(),
                         isaName(isa));
        }
        at::set_num_threads(before);
    }

    void firstBlockLeavesOtherConvolutionsToAten()
    {
        const auto x = torch::randn({2, 1, 8, 8});
        torch::nn::Conv2d grey(torch::nn::Conv2dOptions(1, 16, 3).padding(1));
        QVERIFY(convPoolReluApplies(x, *grey));
        QVERIFY(!convPoolReluApplies(x.clone().requires_grad_(), *grey)); // the input's gradient is not computed
        QVERIFY(!convPoolReluApplies(torch::randn({2, 3, 8, 8}), *torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 16, 3).padding(1))));
        QVERIFY(!convPoolReluApplies(x, *torch::nn::Conv2d(torch::nn::Conv2dOptions(1, 16, 3).padding(1).stride(2))));
        QVERIFY(!convPoolReluApplies(x, *torch::nn::Conv2d(torch::nn::Conv2dOptions(1, 16, 5).padding(2))));
        QVERIFY(!convPoolReluApplies(x, *torch::nn::Conv2d(torch::nn::Conv2dOptions(1, 12, 3).padding(1))));
        QVERIFY(!convPoolReluApplies(x, *torch::nn::Conv2d(torch::nn::Conv2dOptions(1, 16, 3).padding(0))));
        QVERIFY(!convPoolReluApplies(x.to(torch::kFloat64), *grey));
    }

    void theCnnTrainsAsWithAtensOps()
    {
        Losses fused, aten;
        StopToken stop;
        const RunResult a = Trainer(cnnRun()).run(fused, stop);
        setenv("ENTRENA_FUSED", "0", 1);
        const RunResult b = Trainer(cnnRun()).run(aten, stop);
        unsetenv("ENTRENA_FUSED");
        QCOMPARE(a.end.status, RunStatus::Finished);
        QCOMPARE(b.end.status, RunStatus::Finished);
        // Two paths that round differently part ways as training goes on (chaotically: the gap between
        // their final accuracies depends on the CPU, 0.02 on one Xeon). So: the first logged step, ten
        // updates in, agrees to rounding; and each path learns on its own, far above chance (0.10).
        QVERIFY(!fused.steps.empty() && !aten.steps.empty());
        QVERIFY2(std::abs(fused.steps[0] - aten.steps[0]) < 1e-3 * aten.steps[0],
                 qPrintable(QString("step 10's loss %1 against ATen's %2").arg(fused.steps[0]).arg(aten.steps[0])));
        for (const auto* losses : {&fused, &aten}) {
            QCOMPARE(losses->train.size(), size_t(2));
            QVERIFY(losses->train[1] < losses->train[0]);
        }
        for (const double accuracy : {a.end.testAccuracy, b.end.testAccuracy})
            QVERIFY2(accuracy > 0.65, qPrintable(QString::number(accuracy)));
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
        // The graph holds the fused nodes: the first block (ConvPoolReluFn), then the second's pool and
        // ReLU; no max_pool2d_with_indices backward anywhere.
        QCOMPARE(poolNodes(fused), std::make_pair(2, 0));
        // A bf16 run's convolutions stay bf16: nothing fused under autocast.
        AutocastScope bf16(torch::kCPU, Precision::Bf16);
        QCOMPARE(poolNodes(model.forward(x)), std::make_pair(0, 2));
    }

private:
    /// The fused nodes and ATen's max-pool nodes in the graph behind `out`.
    static std::pair<int, int> poolNodes(const torch::Tensor& out)
    {
        std::pair<int, int> count{0, 0};
        std::vector<torch::autograd::Node*> todo{out.grad_fn().get()};
        while (!todo.empty()) {
            auto* node = todo.back();
            todo.pop_back();
            if (!node)
                continue;
            const std::string name = node->name();
            count.first += name.find("PoolRelu") != std::string::npos;
            count.second += name.find("MaxPool") != std::string::npos;
            for (const auto& edge : node->next_edges())
                todo.push_back(edge.function.get());
        }
        return count;
    }
};

QTEST_GUILESS_MAIN(TestPoolRelu)
#include "tst_pool_relu.moc"
