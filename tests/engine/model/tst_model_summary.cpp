// Model summaries: parameter counts and FLOPs against hand counts.
#include "entrena/model/ModelSummary.h"

#include <QtTest>
#include <map>

using namespace entrena;

class TestModelSummary : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void mlpCountsByHand()
    {
        ModelSpec m;
        m.arch = ModelArch::Mlp;
        m.hidden = {256, 128};
        const ModelSummary s = summarizeModel(m, 1, 28, 28, 10);
        QCOMPARE(s.parameters, int64_t(784 * 256 + 256 + 256 * 128 + 128 + 128 * 10 + 10));
        QCOMPARE(s.flopsPerSample, 2.0 * (784 * 256 + 256 * 128 + 128 * 10));
        QCOMPARE(s.layers.back().outputShape, (std::vector<int64_t>{10}));
    }

    void cnnCountsByHand()
    {
        ModelSpec m;
        m.arch = ModelArch::Cnn;
        m.channels = {32, 64};
        const ModelSummary s = summarizeModel(m, 1, 28, 28, 10);
        const double conv1 = 2.0 * 1 * 9 * 32 * 28 * 28, conv2 = 2.0 * 32 * 9 * 64 * 14 * 14;
        const double fc = 2.0 * 64 * 7 * 7 * 128, out = 2.0 * 128 * 10;
        QCOMPARE(s.flopsPerSample, conv1 + conv2 + fc + out);
        QCOMPARE(s.parameters, int64_t((9 * 32 + 32) + (32 * 9 * 64 + 64) + (3136 * 128 + 128) + (128 * 10 + 10)));
        QCOMPARE(s.layers.front().kind, std::string("Conv2d"));
        QCOMPARE(s.layers.front().outputShape, (std::vector<int64_t>{32, 28, 28}));
    }

    void resnetFitsBothInputSizes_data()
    {
        QTest::addColumn<int>("channels");
        QTest::addColumn<int>("size");
        QTest::newRow("28x28 grey") << 1 << 28;
        QTest::newRow("32x32 colour") << 3 << 32;
    }

    void resnetFitsBothInputSizes()
    {
        QFETCH(int, channels);
        QFETCH(int, size);
        ModelSpec m;
        m.arch = ModelArch::Resnet;
        m.channels = {16, 32, 64};
        const ModelSummary s = summarizeModel(m, channels, size, size, 10);
        QCOMPARE(s.layers.back().outputShape, (std::vector<int64_t>{10}));
        QVERIFY(s.parameters > 50000);
        // The first block's two 3×3 convs at full resolution alone cost 2·16·9·16·H·W each.
        QVERIFY(s.flopsPerSample > 2 * 2.0 * 16 * 9 * 16 * size * size);
        bool hasBlock = false;
        for (const auto& l : s.layers)
            hasBlock |= l.kind == "ResidualBlock" && l.flops > 0;
        QVERIFY(hasBlock);
    }

    // Each block's convolutions at the resolution they compute at: a block that halves the
    // resolution runs conv2 and its projection on the halved map (it was counted at the full one,
    // 4× conv2's operations, which inflated a resnet's model-FLOP utilisation).
    void aResidualBlockCountsEachConvolutionAtItsResolution()
    {
        ModelSpec m;
        m.arch = ModelArch::Resnet;
        m.channels = {8, 16};
        m.blocks = 1;
        const ModelSummary s = summarizeModel(m, 1, 28, 28, 10);
        std::map<std::string, double> flops;
        for (const auto& l : s.layers)
            flops[l.name] = l.flops;
        const double full = 28.0 * 28.0, half = 14.0 * 14.0;
        // stage 1: 8 → 8 at 28×28, two 3×3 convolutions, no projection.
        QCOMPARE(flops.at("stage1_block1"), 2 * (2.0 * 8 * 9 * 8 * full));
        // stage 2: 8 → 16, stride 2: conv1 8→16 and conv2 16→16 at 14×14, the 1×1 projection 8→16.
        QCOMPARE(flops.at("stage2_block1"), 2.0 * 8 * 9 * 16 * half + 2.0 * 16 * 9 * 16 * half + 2.0 * 8 * 16 * half);
    }
};

QTEST_APPLESS_MAIN(TestModelSummary)
#include "tst_model_summary.moc"
