// The sweep methods as units, without trial processes: the registry's entries and what planSweep
// reads from them, the settings' JSON, ASHA's promotions and TPE's draws. (tst_sweep runs whole
// sweeps through entrena-cli.)
#include "entrena/experiment/SweepMethodRegistry.h"
#include "entrena/store/RunStore.h"
#include "entrena/experiment/MetricRegistry.h"
#include "experiment/SweepDriver.h"
#include "experiment/Tpe.h"

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <set>

using namespace entrena;

namespace {

RunConfig base(int epochs = 4)
{
    RunConfig c = RunConfig::fromJson(R"({"name": "units", "data": {"dataset": "synthetic"}, "model": {"arch": "mlp"}})");
    c.train.epochs = epochs;
    return c;
}

const char* const kLrSpace = R"({"optimizer.lr": {"log_uniform": [0.0001, 1.0]}})";

QString refusal(const RunConfig& c, const std::string& space, const SweepSettings& s)
{
    try {
        planSweep(c, space, s, 2);
    } catch (const SpaceError& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

} // namespace

class TestSweepMethods : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void everyMethodIsOneCompleteEntry()
    {
        std::set<std::string> names, flags;
        for (const SweepMethodEntry& m : sweepMethodRegistry()) {
            QVERIFY2(names.insert(m.name).second, m.name);
            QVERIFY(m.label && *m.label && m.title && *m.title && m.hint && *m.hint && m.doc && *m.doc);
            QVERIFY2(m.make, m.name);
            QVERIFY(m.defaultTrials > 0 || m.everyCombination);
            for (const auto& k : m.keys) {
                QVERIFY2(k.form.label, k.key); // a row in the sweep dialog
                QVERIFY2(flags.insert(settingFlag(k.key)).second, k.key); // one flag, one setting
            }
            QCOMPARE(findSweepMethod(m.name), &m);
        }
        QVERIFY(names.count(SweepSettings{}.method)); // the default is a method
        QVERIFY(!findSweepMethod("bogus"));
        QCOMPARE(settingFlag("min_epochs"), std::string("--min-epochs"));
    }

    void everySettingSurvivesTheStoredJson()
    {
        // Each method's own settings are written with the experiment and read back by --resume.
        SweepSettings s;
        for (const SweepMethodEntry& m : sweepMethodRegistry())
            for (const auto& k : m.keys)
                setMethodSetting(s, k, k.kind == ValueKind::Integer ? "3" : "0.3");
        const SweepSettings back = SweepSettings::fromJson(s.toJson());
        for (const SweepMethodEntry& m : sweepMethodRegistry())
            for (const auto& k : m.keys)
                QVERIFY2(k.get(back) == k.get(s), k.key);
        QCOMPARE(back.minEpochs, 3);
        QCOMPARE(back.quantile, 0.3);
    }

    void aSettingOutOfItsRangeIsNamedWithItsFlag()
    {
        SweepSettings s;
        const SweepMethodEntry* asha = findSweepMethod("asha");
        QVERIFY(asha && asha->keys.size() == 2);
        QVERIFY_THROWS_EXCEPTION(SpaceError, setMethodSetting(s, asha->keys[1], "1")); // reduction >= 2
        try {
            setMethodSetting(s, asha->keys[0], "two");
            QFAIL("'two' was taken as a number of epochs");
        } catch (const SpaceError& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("--min-epochs takes a whole number")), e.what());
        }
    }

    void planSweepReadsWhatEachEntrySays()
    {
        SweepSettings s;
        s.method = "bogus";
        QVERIFY2(refusal(base(), kLrSpace, s).contains(QStringLiteral("grid, random, tpe, asha or pbt")),
                 qPrintable(refusal(base(), kLrSpace, s)));
        // every combination: only choices, and as many trials as combinations
        s = SweepSettings{};
        s.method = "grid";
        QVERIFY(refusal(base(), kLrSpace, s).contains(QStringLiteral("only choice")));
        const SweepPlan grid = planSweep(base(), R"({"optimizer.lr": {"choice": [0.1, 0.01, 0.001]}})", s, 2);
        QCOMPARE(grid.settings.trials, 3);
        // defaults: pbt's population is 4, the others 10
        s.method = "pbt";
        QCOMPARE(planSweep(base(), kLrSpace, s, 2).settings.trials, 4);
        s.method = "tpe";
        QCOMPARE(planSweep(base(), kLrSpace, s, 2).settings.trials, 10);
        // only independent trials shard
        s.shards = 2;
        QVERIFY(refusal(base(), kLrSpace, s).contains(QStringLiteral("--shard")));
        s.shards = 1;
        // methods that give trials their epochs, and the one that copies weights
        s.method = "asha";
        QVERIFY(refusal(base(), R"({"train.epochs": {"choice": [2, 4]}})", s).contains(QStringLiteral("remove train.epochs")));
        s.method = "pbt";
        QVERIFY(refusal(base(), R"({"model.hidden": {"choice": [[8], [16]]}})", s).contains(QStringLiteral("remove model.hidden")));
        // each method's own rule
        s.method = "asha";
        s.minEpochs = 4;
        QVERIFY(refusal(base(4), kLrSpace, s).contains(QStringLiteral("--min-epochs < train.epochs")));
        s.minEpochs = 1;
        s.reduction = 1; // below the key's range
        QVERIFY(refusal(base(), kLrSpace, s).contains(QStringLiteral("--reduction from 2")));
    }

    // The compared figure comes from its registry entry, with its direction: the planner takes
    // each entry and names them all when given another.
    void everyMetricIsPlannedAndAnUnknownOneNamed()
    {
        SweepSettings s;
        s.method = "random";
        s.trials = 2;
        for (const MetricEntry& m : metricRegistry()) {
            s.metric = m.name;
            QCOMPARE(planSweep(base(), kLrSpace, s, 2).settings.metric, std::string(m.name));
        }
        s.metric = "val_acc";
        const QString refused = refusal(base(), kLrSpace, s);
        QVERIFY2(refused.contains(QString::fromStdString("--metric must be " + metricNames())), qPrintable(refused));
        QVERIFY(metricNames().find("val_loss") != std::string::npos);
    }

    // The same rungs with a loss (lower wins): the mirror of each accuracy promotes the same trials.
    void ashaPromotesTheBestOfARungOnly_data()
    {
        QTest::addColumn<QString>("metric");
        QTest::newRow("accuracy, higher wins") << QStringLiteral("val_accuracy");
        QTest::newRow("loss, lower wins") << QStringLiteral("val_loss");
    }

    void ashaPromotesTheBestOfARungOnly()
    {
        QFETCH(QString, metric);
        const bool loss = metric == QLatin1String("val_loss");
        QTemporaryDir dir;
        RunStore store(dir.filePath(QStringLiteral("asha.sqlite")).toStdString());
        SweepSettings s;
        s.metric = metric.toStdString();
        s.method = "asha";
        s.trials = 4;
        s.minEpochs = 1;
        s.reduction = 2;
        const SweepPlan plan = planSweep(base(4), kLrSpace, s, 2);
        SweepObserver quiet;
        SweepContext ctx(store, plan, quiet, 1);
        auto asha = makeSweepMethod(plan);
        // Rungs of 1, 2 and 4 epochs; a trial goes on once it is in the top half of those that
        // reached its rung, as soon as that is known (asynchronously: no waiting for the whole rung).
        const auto startAndEnd = [&](double accuracy) {
            const auto work = asha->next(ctx);
            QVERIFY(work && work->fresh);
            QCOMPARE(work->target, 1);
            work->trial->metrics = {loss ? 1.0 - accuracy : accuracy};
            work->trial->status = RunStatus::Finished;
            asha->stageEnded(ctx, *work->trial);
            QCOMPARE(work->trial->phase, SweepTrial::Phase::Paused);
        };
        const auto promotes = [&](int trial) {
            const auto work = asha->next(ctx);
            QVERIFY(work && !work->fresh);
            QCOMPARE(work->trial->index, trial);
            QCOMPARE(work->target, 2);
            work->trial->phase = SweepTrial::Phase::Running;
        };
        startAndEnd(0.5);
        startAndEnd(0.9);
        promotes(1);      // the better of two
        startAndEnd(0.7); // three reached the rung: one goes on, and that one already has
        startAndEnd(0.6);
        promotes(2); // four reached it: the top two go on, 0.9 and 0.7
        QVERIFY(!asha->next(ctx)); // 0.6 and 0.5 wait, and no fifth trial starts
        // At the end those still waiting are pruned.
        asha->finish(ctx);
        QCOMPARE(ctx.trials[0]->status, RunStatus::Pruned);
        QCOMPARE(ctx.trials[3]->status, RunStatus::Pruned);
        QCOMPARE(ctx.trials[1]->status, RunStatus::Finished);
    }

    void tpeDrawsWhereTheBestTrialsLie()
    {
        const SearchSpace space = SearchSpace::fromJson(kLrSpace, base());
        // The good trials had rates near 0.01; the rest far from it.
        std::vector<Observation> done;
        for (double lr : {0.008, 0.01, 0.012, 0.009, 0.011})
            done.push_back({{{"optimizer.lr", std::to_string(lr)}}, 1.0});
        for (double lr : {0.0002, 0.0005, 0.3, 0.5, 0.9, 0.0003, 0.7, 0.2, 0.6, 0.0004, 0.8, 0.25, 0.45, 0.35, 0.55})
            done.push_back({{{"optimizer.lr", std::to_string(lr)}}, 0.0});
        std::mt19937_64 rng(7);
        int near = 0;
        for (int i = 0; i < 100; ++i) {
            const double lr = std::stod(sampleTpe(space, done, rng).at(0).second);
            QVERIFY(lr >= 0.0001 && lr <= 1.0);
            near += lr > 0.003 && lr < 0.03;
        }
        // A uniform draw on the log scale lands there 25% of the time.
        QVERIFY2(near >= 60, qPrintable(QString::number(near)));
    }
};

QTEST_APPLESS_MAIN(TestSweepMethods)
#include "tst_sweep_methods.moc"
