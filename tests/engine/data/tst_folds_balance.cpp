// Issue 31: k-fold cross-validation's folds and balanced data.
// - Folds partition the training data, keep each class's share (stratified), are the same for the
//   same seed and differ for another; a run without folds splits exactly as before.
// - Too many folds for a class, and balancing one class, are refused with what to do.
// - `balance: weights` weights the loss as PyTorch's cross_entropy(weight=…) does (to 1e-6), with
//   scikit-learn's "balanced" weights; `balance: sampler` draws the classes evenly, the same order
//   on every rank.
// - On a real imbalanced table (Fashion-MNIST with 10% of its shirts), either mode raises the rare
//   class's recall and the macro-averaged recall clearly over `none`, at the same budget.
#include "data/BatchLoader.h"
#include "data/Holdout.h"
#include "data/IdxReader.h"
#include "entrena/train/Trainer.h"
#include "model/Model.h"
#include "train/TrainStep.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <map>
#include <set>

using namespace entrena;

namespace {

/// Labels 0, 1, 2 with 50, 40 and 13 samples, interleaved.
torch::Tensor unevenLabels()
{
    std::vector<int64_t> y;
    for (int k = 0; k < 50; ++k) {
        y.push_back(0);
        if (k < 40)
            y.push_back(1);
        if (k < 13)
            y.push_back(2);
    }
    return torch::tensor(y, torch::kInt64);
}

HeldOut split(const torch::Tensor& labels, int folds, int fold, bool stratify, uint64_t seed)
{
    DataSpec spec;
    spec.folds = folds;
    spec.fold = fold;
    spec.stratify = stratify;
    auto gen = at::detail::createCPUGenerator(seed);
    return holdOut(labels, spec, gen, "samples", {"a", "b", "c"});
}

std::vector<int64_t> sorted(const torch::Tensor& t)
{
    auto s = std::get<0>(t.sort()).contiguous();
    return {s.data_ptr<int64_t>(), s.data_ptr<int64_t>() + s.numel()};
}

struct Ending : TrainingObserver {
    StartEvent start;
    void onStart(const StartEvent& e) override { start = e; }
};

} // namespace

class TestFoldsBalance : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void foldsPartitionTheDataAndKeepEachClassShare()
    {
        const auto y = unevenLabels();
        const int64_t n = y.numel();
        std::vector<int> seen(size_t(n), 0);
        std::vector<int64_t> sizes;
        for (int k = 0; k < 5; ++k) {
            const HeldOut h = split(y, 5, k, true, 7);
            QCOMPARE(h.train.numel() + h.val.numel(), n);
            const auto tr = sorted(h.train), va = sorted(h.val);
            std::vector<int64_t> both;
            std::set_intersection(tr.begin(), tr.end(), va.begin(), va.end(), std::back_inserter(both));
            QVERIFY(both.empty());
            for (int64_t i : va)
                ++seen[size_t(i)];
            sizes.push_back(h.val.numel());
            // Each class's count in the fold is its count / 5, rounded down or up.
            const auto counts = torch::bincount(y.index_select(0, h.val), {}, 3).contiguous();
            const int64_t of[] = {50, 40, 13};
            for (int c = 0; c < 3; ++c) {
                const int64_t got = counts.data_ptr<int64_t>()[c];
                QVERIFY2(got == of[c] / 5 || got == of[c] / 5 + 1,
                         qPrintable(QStringLiteral("fold %1 class %2: %3 of %4").arg(k).arg(c).arg(got).arg(of[c])));
            }
        }
        for (int s : seen)
            QCOMPARE(s, 1); // every sample is held out exactly once
        QVERIFY(*std::max_element(sizes.begin(), sizes.end()) - *std::min_element(sizes.begin(), sizes.end()) <= 1);
    }

    void foldsAreStableForASeedAndDifferForAnother()
    {
        const auto y = unevenLabels();
        QCOMPARE(sorted(split(y, 4, 2, true, 7).val), sorted(split(y, 4, 2, true, 7).val));
        QVERIFY(sorted(split(y, 4, 2, true, 7).val) != sorted(split(y, 4, 2, true, 8).val));
        // Unstratified folds partition too, and are not the stratified ones.
        std::vector<int> seen(size_t(y.numel()), 0);
        for (int k = 0; k < 4; ++k)
            for (int64_t i : sorted(split(y, 4, k, false, 7).val))
                ++seen[size_t(i)];
        for (int s : seen)
            QCOMPARE(s, 1);
        QVERIFY(sorted(split(y, 4, 0, false, 7).val) != sorted(split(y, 4, 0, true, 7).val));
    }

    void withoutFoldsTheSplitIsAsBefore()
    {
        // The split every run before cross-validation made: the first val_fraction of one randperm.
        const auto y = unevenLabels();
        DataSpec spec; // val_fraction 0.1, no folds
        auto gen = at::detail::createCPUGenerator(3);
        const HeldOut h = holdOut(y, spec, gen, "samples");
        auto again = at::detail::createCPUGenerator(3);
        const auto order = torch::randperm(y.numel(), again, torch::kInt64);
        QVERIFY(torch::equal(h.val, order.slice(0, 0, 10)));
        QVERIFY(torch::equal(h.train, order.slice(0, 10)));
    }

    void tooManyFoldsForAClassIsRefusedWithTheClassNamed()
    {
        const auto y = unevenLabels(); // class "c" has 13
        try {
            split(y, 14, 0, true, 1);
            QFAIL("14 stratified folds of a class of 13 were accepted");
        } catch (const std::runtime_error& e) {
            const QString m = QString::fromUtf8(e.what());
            QVERIFY2(m.contains(QStringLiteral("'c'")) && m.contains(QStringLiteral("at most 13")), qPrintable(m));
        }
        QCOMPARE(split(y, 14, 0, false, 1).val.numel() > 0, true); // unstratified: any class size
        // data.folds 1 and a fold out of range are configuration errors naming the key.
        for (const char* bad : {R"({"data": {"folds": 1}})", R"({"data": {"folds": 3, "fold": 3}})"}) {
            try {
                RunConfig::fromJson(bad);
                QFAIL(bad);
            } catch (const ConfigError& e) {
                QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("data.fold")), e.what());
            }
        }
    }

    void classWeightsAreScikitLearnsBalancedAndNeedTwoClasses()
    {
        const auto w = balancedClassWeights(torch::tensor({0, 0, 0, 1}, torch::kInt64), 3);
        QVERIFY(std::abs(w[0].item<double>() - 4.0 / 6.0) < 1e-6);
        QVERIFY(std::abs(w[1].item<double>() - 2.0) < 1e-6);
        QCOMPARE(w[2].item<double>(), 0.0); // absent from training: no weight
        try {
            balancedClassWeights(torch::tensor({1, 1, 1}, torch::kInt64), 2);
            QFAIL("one class was balanced");
        } catch (const std::runtime_error& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("set data.balance to none")), e.what());
        }
    }

    void weightedLossIsPyTorchsCrossEntropyWithWeight()
    {
        torch::manual_seed(5);
        ModelSpec spec;
        spec.arch = ModelArch::Mlp;
        spec.hidden = {8};
        Model model = Model::build(spec, 1, 1, 6, 3);
        const auto x = torch::randn({16, 1, 1, 6});
        const auto y = torch::randint(0, 3, {16}, torch::kInt64);
        const auto w = torch::tensor({0.5f, 2.0f, 1.25f});
        TrainSpec train;
        const double weighted = makeLossFn(model, torch::kCPU, train, Task::Classification, w)(x, y).item<double>();
        const double plain = makeLossFn(model, torch::kCPU, train, Task::Classification)(x, y).item<double>();
        // cross_entropy(weight=w): Σ w[y_i] (logsumexp(z_i) − z_i[y_i]) / Σ w[y_i], here in double.
        torch::NoGradGuard noGrad;
        const auto z = model.forward(x).to(torch::kFloat64).contiguous();
        double num = 0, den = 0;
        for (int64_t i = 0; i < 16; ++i) {
            const int64_t t = y[i].item<int64_t>();
            double m = -1e300;
            for (int64_t c = 0; c < 3; ++c)
                m = std::max(m, z[i][c].item<double>());
            double s = 0;
            for (int64_t c = 0; c < 3; ++c)
                s += std::exp(z[i][c].item<double>() - m);
            const double wi = w[t].item<double>();
            num += wi * (m + std::log(s) - z[i][t].item<double>());
            den += wi;
        }
        QVERIFY2(std::abs(weighted - num / den) < 1e-6, qPrintable(QStringLiteral("%1 vs %2").arg(weighted).arg(num / den)));
        QVERIFY(std::abs(weighted - plain) > 1e-3); // the weights took effect
    }

    void theSamplerDrawsClassesEvenlyAndTheSameOnEveryRank()
    {
        std::vector<int64_t> labels(1800, 0);
        labels.resize(2000, 1);
        const auto y = torch::tensor(labels, torch::kInt64);
        const auto weights = balancedSampleWeights(y, 2);
        const auto order = BatchLoader::epochOrder(2000, 4, 1, weights);
        QCOMPARE(order.numel(), int64_t(2000));
        const double share = y.index_select(0, order).to(torch::kFloat64).mean().item<double>();
        QVERIFY2(share > 0.45 && share < 0.55, qPrintable(QString::number(share))); // 0.1 without the sampler
        QVERIFY(torch::equal(order, BatchLoader::epochOrder(2000, 4, 1, weights)));  // what every rank computes
        QVERIFY(!torch::equal(order, BatchLoader::epochOrder(2000, 4, 2, weights))); // another epoch, other draws
        // Two ranks' shards of it are the two halves of the same draws.
        const auto r0 = shardOrder(order, Shard{0, 2}), r1 = shardOrder(order, Shard{1, 2});
        QVERIFY(torch::equal(torch::stack({r0, r1}, 1).flatten(), order));
    }

    void balancingRaisesTheRareClassRecallOnARealTable()
    {
        // Fashion-MNIST as a table (14×14 pixels, averaged from 28×28) with only 10% of its shirts.
        const QString dir = QStringLiteral(ENTRENA_FMNIST_DIR);
        auto writeCsv = [](const QString& path, torch::Tensor x, torch::Tensor y, bool thinShirts) {
            x = torch::avg_pool2d(x.to(torch::kFloat32), 2).flatten(1).round().contiguous();
            QFile f(path);
            if (!f.open(QIODevice::WriteOnly))
                return false;
            QByteArray text;
            for (int c = 0; c < 196; ++c)
                text += "p" + QByteArray::number(c) + ",";
            text += "label\n";
            int shirts = 0;
            for (int64_t i = 0; i < x.size(0); ++i) {
                const int64_t label = y[i].item<int64_t>();
                if (thinShirts && label == 6 && shirts++ % 10 != 0)
                    continue;
                const float* row = x[i].data_ptr<float>();
                for (int c = 0; c < 196; ++c)
                    text += QByteArray::number(int(row[c])) + ",";
                text += QByteArray::number(label) + "\n";
            }
            return f.write(text) == text.size();
        };
        QTemporaryDir tmp;
        const QString train = tmp.filePath(QStringLiteral("train.csv")), test = tmp.filePath(QStringLiteral("test.csv"));
        QVERIFY(writeCsv(train, readIdxImages((dir + "/train-images-idx3-ubyte.gz").toStdString(), 6000),
                         readIdxLabels((dir + "/train-labels-idx1-ubyte.gz").toStdString(), 6000), true));
        QVERIFY(writeCsv(test, readIdxImages((dir + "/t10k-images-idx3-ubyte.gz").toStdString(), 2000),
                         readIdxLabels((dir + "/t10k-labels-idx1-ubyte.gz").toStdString(), 2000), false));
        std::map<std::string, std::pair<double, double>> recall; // mode → (shirt recall, macro recall)
        for (const char* mode : {"none", "weights", "sampler"}) {
            const RunConfig c = RunConfig::fromJson(QStringLiteral(R"({"seed": 2, "data": {"dataset": "csv", "path": "%1",
                "test_path": "%2", "batch_size": 64, "balance": "%3"}, "model": {"arch": "mlp", "hidden": [64]},
                "optimizer": {"name": "adam", "lr": 0.002, "weight_decay": 0}, "scheduler": {"name": "constant"},
                "train": {"epochs": 6}})")
                                                        .arg(train, test, QLatin1String(mode))
                                                        .toStdString());
            Ending events;
            StopToken stop;
            const RunResult r = Trainer(c).run(events, stop);
            QVERIFY2(r.end.status == RunStatus::Finished, r.end.error.c_str());
            QCOMPARE(r.end.evaluation.split, std::string("test"));
            QCOMPARE(events.start.balance, std::string(mode));
            QCOMPARE(events.start.classWeights.empty(), std::string(mode) != "weights");
            double macro = 0;
            for (const auto& s : r.end.evaluation.perClass)
                macro += s.recall / double(r.end.evaluation.perClass.size());
            recall[mode] = {r.end.evaluation.perClass[6].recall, macro};
            qInfo("%-8s shirt recall %.3f, macro recall %.3f, test accuracy %.3f", mode, recall[mode].first, macro,
                  r.end.testAccuracy);
        }
        for (const char* mode : {"weights", "sampler"}) {
            QVERIFY2(recall[mode].first > recall["none"].first + 0.15,
                     qPrintable(QStringLiteral("%1: shirt recall %2 against %3").arg(mode).arg(recall[mode].first).arg(recall["none"].first)));
            QVERIFY2(recall[mode].second > recall["none"].second + 0.005,
                     qPrintable(QStringLiteral("%1: macro recall %2 against %3").arg(mode).arg(recall[mode].second).arg(recall["none"].second)));
        }
    }
};

QTEST_GUILESS_MAIN(TestFoldsBalance)
#include "tst_folds_balance.moc"
