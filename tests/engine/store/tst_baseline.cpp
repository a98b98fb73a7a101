// The baseline check: one run per data set marked as the baseline; every other run's speed-up to
// the baseline's final accuracy and its change in final accuracy, and the "faster but worse" flag.
#include "entrena/store/Baseline.h"
#include "entrena/store/RunStore.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace entrena;

namespace {

struct Epochs {
    std::vector<double> valAccuracy;
    std::vector<double> seconds;
};

std::string config(const std::string& dataset, int64_t trainLimit = 0)
{
    return R"({"data": {"dataset": ")" + dataset + R"(", "train_limit": )" + std::to_string(trainLimit) + "}}";
}

/// A finished run with these epochs, test accuracy and throughput.
int64_t addRun(RunStore& store, const std::string& name, const std::string& configJson, const Epochs& e, double test,
               double samplesPerSec)
{
    const int64_t id = store.createRun(name, configJson, "{}");
    double total = 0;
    for (std::size_t i = 0; i < e.valAccuracy.size(); ++i) {
        const int epoch = int(i) + 1;
        store.addMetric(id, "val_accuracy", 100 * epoch, epoch, e.valAccuracy[i]);
        store.addMetric(id, "epoch_seconds", 100 * epoch, epoch, e.seconds[i]);
        total += e.seconds[i];
    }
    EndEvent end;
    end.testAccuracy = test;
    end.bestValAccuracy = *std::max_element(e.valAccuracy.begin(), e.valAccuracy.end());
    end.samplesPerSec = samplesPerSec;
    end.seconds = total;
    store.finishRun(id, RunStatus::Finished, end, 0.5);
    return id;
}

} // namespace

class TestBaseline : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;

private Q_SLOTS:
    void timeToAccuracySumsTheEpochsUntilTheFirstThatReachesIt()
    {
        const std::vector<MetricPoint> acc = {{100, 1, 0, 0.80}, {200, 2, 0, 0.86}, {300, 3, 0, 0.85}, {400, 4, 0, 0.90}};
        const std::vector<MetricPoint> secs = {{100, 1, 0, 10}, {200, 2, 0, 12}, {300, 3, 0, 11}, {400, 4, 0, 9}};
        QCOMPARE(secondsToAccuracy(acc, secs, 0.80).value(), 10.0);
        QCOMPARE(secondsToAccuracy(acc, secs, 0.86).value(), 22.0);
        QCOMPARE(secondsToAccuracy(acc, secs, 0.88).value(), 42.0); // epoch 3 fell back: epoch 4 reaches it
        QVERIFY(!secondsToAccuracy(acc, secs, 0.95));
        QVERIFY(!secondsToAccuracy(acc, {{100, 1, 0, 10}}, 0.86)); // epoch 2's time is missing
    }

    void runsAreMeasuredAgainstTheirDataSetsBaseline()
    {
        RunStore store(dir_.filePath(QStringLiteral("b.sqlite")).toStdString());
        const std::string fmnist = config("fashion-mnist");
        const int64_t base = addRun(store, "baseline", fmnist, {{0.80, 0.85, 0.88}, {10, 10, 10}}, 0.87, 2000);
        const int64_t good = addRun(store, "faster", fmnist, {{0.86, 0.89}, {5, 5}}, 0.875, 4000);
        const int64_t trap = addRun(store, "faster-worse", fmnist, {{0.88, 0.85}, {4, 4}}, 0.85, 5000);
        const int64_t slow = addRun(store, "slow", fmnist, {{0.70, 0.75}, {30, 30}}, 0.74, 1000);
        const int64_t other = addRun(store, "mnist", config("mnist"), {{0.97}, {3}}, 0.97, 9000);
        const int64_t subset = addRun(store, "subset", config("fashion-mnist", 6000), {{0.80}, {1}}, 0.79, 9000);

        store.setBaseline(base);
        QCOMPARE(store.baselines().size(), size_t(1));
        QCOMPARE(store.baselines().at("fashion-mnist"), base);
        const auto c = compareWithBaselines(store, store.listRuns(), 0.005);
        QVERIFY(!c.count(other));  // another data set
        QVERIFY(!c.count(subset)); // a subset is another data set too

        QVERIFY(c.at(base).isBaseline);
        QCOMPARE(c.at(base).targetAccuracy, 0.88);
        QCOMPARE(c.at(base).speedup.value(), 1.0);
        QVERIFY(!c.at(base).warn());

        const BaselineComparison& g = c.at(good);
        QCOMPARE(g.baselineRun, base);
        QCOMPARE(g.baselineSeconds.value(), 30.0);
        QCOMPARE(g.runSeconds.value(), 10.0);
        QCOMPARE(g.speedup.value(), 3.0);
        QCOMPARE(g.accuracyKind, std::string("test"));
        QVERIFY(std::abs(*g.deltaAccuracy - 0.005) < 1e-12);
        QVERIFY(g.faster && !g.worse && !g.warn());

        const BaselineComparison& t = c.at(trap);
        QCOMPARE(t.speedup.value(), 7.5);
        QVERIFY(std::abs(*t.deltaAccuracy + 0.02) < 1e-12);
        QVERIFY(t.warn()); // 7.5x faster to 88%, but 2 points worse at the end

        const BaselineComparison& s = c.at(slow);
        QVERIFY(!s.speedup); // never reaches 88%
        QVERIFY(!s.faster && s.worse && !s.warn());

        // A looser tolerance lets the trap pass.
        QVERIFY(!compareWithBaselines(store, store.listRuns(), 0.03).at(trap).warn());
    }

    void markingReplacesTheDataSetsBaselineAndDeletingClearsIt()
    {
        RunStore store(dir_.filePath(QStringLiteral("m.sqlite")).toStdString());
        const std::string fmnist = config("fashion-mnist");
        const int64_t a = addRun(store, "a", fmnist, {{0.80}, {10}}, 0.8, 1000);
        const int64_t b = addRun(store, "b", fmnist, {{0.82}, {10}}, 0.8, 1000);
        store.setBaseline(a);
        store.setBaseline(b);
        QCOMPARE(store.baselines().at("fashion-mnist"), b);
        QCOMPARE(compareWithBaselines(store, store.listRuns(), 0.005).at(a).targetAccuracy, 0.82);
        store.clearBaseline(b);
        QVERIFY(store.baselines().empty());
        store.setBaseline(a);
        store.deleteRun(a);
        QVERIFY(store.baselines().empty());
    }

    void onlyAFinishedRunCanBeABaseline()
    {
        RunStore store(dir_.filePath(QStringLiteral("r.sqlite")).toStdString());
        const int64_t live = store.createRun("live", config("fashion-mnist"), "{}");
        try {
            store.setBaseline(live);
            QFAIL("expected a StoreError");
        } catch (const StoreError& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("only a finished run")), e.what());
        }
        QVERIFY_THROWS_EXCEPTION(StoreError, store.setBaseline(999));
        QVERIFY(store.baselines().empty());
    }
};

QTEST_GUILESS_MAIN(TestBaseline)
#include "tst_baseline.moc"
