// Learning-rate schedules against PyTorch's own (tests/data/scheduler_reference.json, written by
// tests/tools/scheduler_reference.py with Debian's python3-torch 1.13.1).
#include "entrena/optim/LrScheduler.h"

#include <QtTest>
#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>

using entrena::LrScheduler;
using entrena::SchedulerSpec;
using nlohmann::json;

namespace {

json reference()
{
    std::ifstream in(ENTRENA_TEST_DATA "/scheduler_reference.json");
    return json::parse(in);
}

// Through the configuration parser, as a file would give them: the registry's keys and names.
SchedulerSpec specFrom(const json& c)
{
    json scheduler = c["params"];
    scheduler["name"] = c["name"];
    return entrena::RunConfig::fromJson(json{{"scheduler", scheduler}}.dump()).scheduler;
}

} // namespace

class TestSchedulers : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void matchesPyTorch_data()
    {
        QTest::addColumn<int>("index");
        const json ref = reference();
        for (size_t i = 0; i < ref["cases"].size(); ++i) {
            const json& c = ref["cases"][i];
            QTest::newRow(qPrintable(QString::fromStdString(c["name"].get<std::string>() + " " + c["params"].dump())))
                << int(i);
        }
    }

    void matchesPyTorch()
    {
        QFETCH(int, index);
        const json ref = reference();
        const json& c = ref["cases"][size_t(index)];
        const auto expected = c["lr"].get<std::vector<double>>();
        const int epochs = ref["epochs"];
        LrScheduler s(specFrom(c), ref["base_lr"].get<double>(), epochs);
        for (int e = 0; e < epochs; ++e) {
            const double lr = s.lr();
            const double rel = std::abs(lr - expected[size_t(e)]) / std::max(1e-300, std::abs(expected[size_t(e)]));
            QVERIFY2(rel <= 1e-9, qPrintable(QStringLiteral("epoch %1: %2, PyTorch %3")
                                                 .arg(e)
                                                 .arg(lr, 0, 'g', 17)
                                                 .arg(expected[size_t(e)], 0, 'g', 17)));
            for (int b = 0; b < 3; ++b) // the rate holds within an epoch for epoch schedulers
                s.stepBatch();
            QCOMPARE(s.lr(), lr);
            const double metric = c["metrics"].is_null() ? 0.0 : c["metrics"][size_t(e)].get<double>();
            s.stepEpoch(metric);
        }
    }

    void oneCycleMatchesPyTorchPerStep_data()
    {
        QTest::addColumn<int>("index");
        const json ref = reference();
        for (size_t i = 0; i < ref["step_cases"].size(); ++i)
            QTest::newRow(qPrintable(QString::fromStdString(ref["step_cases"][i]["params"].dump()))) << int(i);
    }

    void oneCycleMatchesPyTorchPerStep()
    {
        QFETCH(int, index);
        const json ref = reference();
        const json& c = ref["step_cases"][size_t(index)];
        const auto lrs = c["lr"].get<std::vector<double>>();
        const auto momenta = c["momentum"].get<std::vector<double>>();
        LrScheduler s(specFrom(c), 0.1, 1);
        for (size_t i = 0; i < lrs.size(); ++i) {
            QVERIFY2(std::abs(s.lr() - lrs[i]) <= 1e-9 * std::abs(lrs[i]),
                     qPrintable(QStringLiteral("step %1: lr %2, PyTorch %3").arg(i).arg(s.lr(), 0, 'g', 17).arg(lrs[i], 0, 'g', 17)));
            QVERIFY2(std::abs(s.momentum() - momenta[i]) <= 1e-9 * std::abs(momenta[i]),
                     qPrintable(QStringLiteral("step %1: momentum %2, PyTorch %3").arg(i).arg(s.momentum()).arg(momenta[i])));
            s.stepBatch();
            if ((i + 1) % 10 == 0)
                s.stepEpoch(0.0); // epochs do not move a per-step schedule
        }
    }

    void oneCycleShorterThanTheRunIsRefused()
    {
        SchedulerSpec spec;
        spec.kind = entrena::SchedulerKind::OneCycle;
        spec.totalSteps = 10;
        QVERIFY_THROWS_EXCEPTION(entrena::ConfigError, LrScheduler(spec, 0.1, 1, 20));
    }

    void plateauReportsReduction()
    {
        SchedulerSpec spec;
        spec.patience = 1;
        spec.factor = 0.5;
        LrScheduler s(spec, 1.0, 10);
        QVERIFY(!s.stepEpoch(1.0));
        QVERIFY(!s.stepEpoch(1.0)); // one bad epoch: within patience
        QVERIFY(s.stepEpoch(1.0));  // two: reduce
        QCOMPARE(s.lr(), 0.5);
    }

    void warmupRampsLinearly()
    {
        SchedulerSpec spec;
        spec.kind = entrena::SchedulerKind::Constant;
        spec.warmupSteps = 4;
        LrScheduler s(spec, 0.8, 1);
        const double expected[] = {0.2, 0.4, 0.6, 0.8, 0.8};
        for (double e : expected) {
            QCOMPARE(s.lr(), e);
            s.stepBatch();
        }
    }

    void plannedCurveCoversTheRun()
    {
        SchedulerSpec spec;
        spec.kind = entrena::SchedulerKind::Step;
        spec.stepSize = 1;
        spec.gamma = 0.5;
        const auto curve = LrScheduler::plannedCurve(spec, 1.0, 3, 4);
        QCOMPARE(curve.size(), size_t(12));
        QCOMPARE(curve.front(), 1.0);
        QCOMPARE(curve[4], 0.5);
        QCOMPARE(curve.back(), 0.25);
    }
};

QTEST_APPLESS_MAIN(TestSchedulers)
#include "tst_schedulers.moc"
