// A sweep method added from outside the engine (HaltonMethod.cpp, compiled into this test only, with
// its one registration line): it is in the registry beside the engine's own, its setting lives in the
// settings' parameter block with its default, survives the experiment's stored JSON, is refused out
// of its range by its flag's name, and plans. tst_halton_sweep.sh runs it through entrena-cli.
#include "entrena/experiment/SweepMethodRegistry.h"

#include <QtTest>

using namespace entrena;

class TestNewSweepMethod : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void itIsRegisteredBesideTheEnginesOwn()
    {
        const SweepMethodEntry* halton = findSweepMethod("halton");
        QVERIFY(halton);
        QVERIFY(findSweepMethod("asha") && findSweepMethod("random"));
        QVERIFY2(sweepMethodNames().find("halton") != std::string::npos, sweepMethodNames().c_str());
        QCOMPARE(int(halton->keys.size()), 1);
        QCOMPARE(settingFlag(halton->keys[0].key), std::string("--skip"));
    }

    void itsSettingIsInItsBlockAndSurvivesTheStoredJson()
    {
        const auto& skip = findSweepMethod("halton")->keys.at(0);
        SweepSettings s;
        QVERIFY(s.params.empty());
        QCOMPARE(std::get<int64_t>(skip.get(s)), int64_t(1)); // the entry's default
        setMethodSetting(s, skip, "7");
        QCOMPARE(std::get<int64_t>(s.params.at("skip")), int64_t(7));
        const std::string json = s.toJson();
        QVERIFY2(json.find("\"skip\":7") != std::string::npos, json.c_str());
        const SweepSettings back = SweepSettings::fromJson(json);
        QCOMPARE(std::get<int64_t>(skip.get(back)), int64_t(7));
        // The engine's own methods' settings stay where they were.
        QCOMPARE(back.minEpochs, SweepSettings{}.minEpochs);
    }

    void aValueOutOfRangeIsNamedByItsFlag()
    {
        const auto& skip = findSweepMethod("halton")->keys.at(0);
        SweepSettings s;
        try {
            setMethodSetting(s, skip, "-1");
            QFAIL("a negative first point was taken");
        } catch (const SpaceError& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("--skip takes a whole number")), e.what());
        }
    }

    void itPlansWithItsDefaultTrials()
    {
        RunConfig base = RunConfig::fromJson(R"({"data": {"dataset": "synthetic"}, "model": {"arch": "mlp"}})");
        SweepSettings s;
        s.method = "halton";
        const SweepPlan plan = planSweep(base, R"({"optimizer.lr": {"log_uniform": [0.0001, 1.0]}})", s, 2);
        QCOMPARE(plan.settings.trials, 8);
    }

    void aSecondMethodOfTheSameNameIsRefused()
    {
        SweepMethodEntry twin = *findSweepMethod("halton");
        QVERIFY_THROWS_EXCEPTION(std::logic_error, registerSweepMethod(twin));
        twin.name = "halton2"; // a new name, but --skip is halton's
        QVERIFY_THROWS_EXCEPTION(std::logic_error, registerSweepMethod(twin));
        QVERIFY(!findSweepMethod("halton2"));
        // A setting named as one every sweep has (its stored "seed", the command's --json) is refused.
        static constexpr char kSeed[] = "seed";
        twin.keys = {blockSetting<kSeed>(ValueKind::Integer, 0, 9, "d", "Seed:")};
        QVERIFY_THROWS_EXCEPTION(std::logic_error, registerSweepMethod(twin));
        QVERIFY(!findSweepMethod("halton2"));
    }
};

QTEST_GUILESS_MAIN(TestNewSweepMethod)
#include "tst_new_sweep_method.moc"
