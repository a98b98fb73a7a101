// A schedule, an optimizer, an architecture and a precision added from files of their own in this
// folder, each with one registration line (PolynomialScheduler.cpp, AdagradOptimizer.cpp,
// LogisticModel.cpp, ScaledBf16Precision.cpp): each is in its registry beside the engine's own, its
// keys are in the catalog `config-keys` prints with their defaults, they survive the configuration's
// JSON (and --set reaches them, into an object-valued key too), a key of another entry is refused by
// name, and a run with all four trains. tst_new_kinds_ui finds their rows in the workbench's form and
// the sweep dialog.
#include "entrena/config/Registry.h"
#include "entrena/train/Trainer.h"

#include <QtTest>
#include <cmath>

using namespace entrena;

namespace {

struct Recording : TrainingObserver {
    std::vector<StartEvent> starts;
    std::vector<EpochEvent> epochs;
    void onStart(const StartEvent& e) override { starts.push_back(e); }
    void onEpoch(const EpochEvent& e) override { epochs.push_back(e); }
};

const char* const kConfig = R"({"name": "new kinds", "seed": 5,
    "data": {"dataset": "synthetic", "batch_size": 64, "workers": 0},
    "model": {"arch": "logistic", "bias": false},
    "optimizer": {"name": "adagrad", "lr": 0.5, "lr_decay": 0.001},
    "scheduler": {"name": "polynomial", "total_iters": 2, "power": 2.0},
    "train": {"epochs": 3}})";

} // namespace

class TestNewKinds : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void eachIsRegisteredBesideTheEnginesOwn()
    {
        QVERIFY(fromString<SchedulerKind>("polynomial") && fromString<SchedulerKind>("one_cycle"));
        QVERIFY(fromString<OptimizerKind>("adagrad") && fromString<OptimizerKind>("sgd"));
        QVERIFY(fromString<ModelArch>("logistic") && fromString<ModelArch>("resnet"));
        QVERIFY(fromString<Precision>("bf16_scaled") && fromString<Precision>("fp32"));
        QCOMPARE(int(*fromString<Precision>("bf16_scaled")), int(Precision::Auto) + 1);
        QCOMPARE(std::string(toString(*fromString<Precision>("bf16_scaled"))), std::string("bf16_scaled"));
        QVERIFY(registryEntry(*fromString<Precision>("bf16_scaled")).scalesLoss);
        QVERIFY_THROWS_EXCEPTION(std::logic_error, registerPrecision(registryEntry(Precision::Bf16)));
        QCOMPARE(int(precisionRegistry().size()), 5);
        // Each has a kind of its own, which names it back.
        QCOMPARE(std::string(toString(*fromString<SchedulerKind>("polynomial"))), std::string("polynomial"));
        QCOMPARE(std::string(registryEntry(*fromString<ModelArch>("logistic")).name), std::string("logistic"));
        QCOMPARE(int(schedulerRegistry().size()), 8);
        QVERIFY_THROWS_EXCEPTION(std::logic_error, registerModel(registryEntry(*fromString<ModelArch>("logistic"))));
    }

    // A key that would fail later, in some reader, is refused when its entry registers, and the
    // registry is left as it was.
    void aBrokenEntryIsRefusedWhenItRegisters()
    {
        static constexpr char kWarmup[] = "warmup_steps";
        static constexpr char kUndeclared[] = "undeclared";
        static constexpr char kWrongType[] = "wrong_type";
        const auto withKey = [](const char* name, OptionKey<SchedulerSpec> key, ParamBlock defaults) {
            SchedulerEntry e{
                SchedulerKind{}, name,  "label", "None",
                "doc",           {key}, nullptr, [](const SchedulerSpec&, const ScheduleClock& c) { return c.baseLr; }};
            e.blockDefaults = std::move(defaults);
            return e;
        };
        const size_t before = schedulerRegistry().size();
        QVERIFY_THROWS_EXCEPTION(std::logic_error,
                                 registerScheduler(withKey("a", blockKey<SchedulerSpec, kWarmup>(ValueKind::Integer, 0, 9, "d"),
                                                           {{kWarmup, OptionValue(int64_t(0))}})));
        QVERIFY_THROWS_EXCEPTION(
            std::logic_error,
            registerScheduler(withKey("b", blockKey<SchedulerSpec, kUndeclared>(ValueKind::Number, 0, 9, "d"), {})));
        QVERIFY_THROWS_EXCEPTION(std::logic_error,
                                 registerScheduler(withKey("c", blockKey<SchedulerSpec, kWrongType>(ValueKind::Number, 0, 9, "d"),
                                                           {{kWrongType, OptionValue(int64_t(1))}})));
        QCOMPARE(schedulerRegistry().size(), before);
        QVERIFY(!fromString<SchedulerKind>("a") && !fromString<SchedulerKind>("c"));
    }

    void theirKeysAreInTheCatalogWithTheirDefaults()
    {
        std::map<std::string, std::string> found;
        for (const ConfigKeyInfo& k : configKeyCatalog())
            found[k.key + "@" + k.entry] = k.defaultValue;
        QCOMPARE(QString::fromStdString(found["scheduler.power@polynomial"]), QStringLiteral("1.0"));
        QCOMPARE(QString::fromStdString(found["scheduler.total_iters@polynomial"]), QStringLiteral("5"));
        QCOMPARE(QString::fromStdString(found["optimizer.lr_decay@adagrad"]), QStringLiteral("0.0"));
        QCOMPARE(QString::fromStdString(found["model.bias@logistic"]), QStringLiteral("true"));
        QCOMPARE(QString::fromStdString(found["model.init@logistic"]), QStringLiteral(R"({"bias":0.0,"weight_std":0.01})"));
    }

    // An object-valued key: read whole from the JSON, reached member by member through --set, written
    // back as it was read, and judged by its entry's check.
    void anObjectValuedKeyIsReadSetAndChecked()
    {
        const RunConfig given = RunConfig::fromJson(R"({"model": {"arch": "logistic", "init": {"weight_std": 0.5, "bias": 1}}})");
        QCOMPARE(std::get<JsonText>(given.model.param("init")).text, std::string(R"({"bias":1,"weight_std":0.5})"));
        const RunConfig set = RunConfig::fromJson(R"({"model": {"arch": "logistic"}})", {"model.init.weight_std=0"});
        QCOMPARE(std::get<JsonText>(set.model.param("init")).text, std::string(R"({"weight_std":0})"));
        QCOMPARE(RunConfig::fromJson(set.toJson()).toJson(), set.toJson());
        QVERIFY2(set.toJson().find(R"("init":{"weight_std":0})") != std::string::npos, set.toJson().c_str()); // an object
        const RunConfig byDefault = RunConfig::fromJson(R"({"model": {"arch": "logistic"}})");
        QCOMPARE(std::get<JsonText>(byDefault.model.param("init")).text, std::string(R"({"bias":0.0,"weight_std":0.01})"));
        for (const char* bad : {R"({"model": {"arch": "logistic", "init": 3}})",
                                R"({"model": {"arch": "logistic", "init": {"weight_std": "wide"}}})",
                                R"({"model": {"arch": "logistic", "init": {"weight_std": -1}}})"}) {
            try {
                RunConfig::fromJson(bad);
                QFAIL(bad);
            } catch (const ConfigError& e) {
                QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("model.init")), e.what());
            }
        }
    }

    void theySurviveTheJsonAndSetReachesThem()
    {
        const RunConfig c = RunConfig::fromJson(kConfig, {"scheduler.power=3", "model.bias=true"});
        QCOMPARE(std::string(toString(c.scheduler.kind)), std::string("polynomial"));
        QCOMPARE(std::get<double>(c.scheduler.param("power")), 3.0);
        QCOMPARE(std::get<int64_t>(c.scheduler.param("total_iters")), int64_t(2));
        QCOMPARE(std::get<double>(c.optimizer.param("lr_decay")), 0.001);
        QCOMPARE(std::get<double>(c.optimizer.param("initial_accumulator_value")), 0.0); // the default
        QCOMPARE(std::get<bool>(c.model.param("bias")), true);
        const RunConfig back = RunConfig::fromJson(c.toJson());
        QCOMPARE(back.toJson(), c.toJson());
        QCOMPARE(std::get<double>(back.scheduler.param("power")), 3.0);
        QVERIFY2(c.toJson().find("\"lr_decay\": 0.001") != std::string::npos ||
                     c.toJson().find("\"lr_decay\":0.001") != std::string::npos,
                 c.toJson().c_str());
    }

    void aKeyOfAnotherEntryIsRefusedByName()
    {
        try {
            RunConfig::fromJson(R"({"scheduler": {"name": "step", "power": 2.0}})");
            QFAIL("power was taken for the step schedule");
        } catch (const ConfigError& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("belongs to 'polynomial'")), e.what());
        }
        try {
            RunConfig::fromJson(R"({"scheduler": {"name": "polynomial", "power": 50.0}})");
            QFAIL("a power out of range was taken");
        } catch (const ConfigError& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("scheduler.power")), e.what());
        }
    }

    void aRunWithAllFourTrains()
    {
        const RunConfig c = RunConfig::fromJson(kConfig, {"train.precision=bf16_scaled"});
        QCOMPARE(RunConfig::fromJson(c.toJson()).train.precision, *fromString<Precision>("bf16_scaled"));
        Recording rec;
        StopToken stop;
        const RunResult r = Trainer(c).run(rec, stop);
        QCOMPARE(r.end.status, RunStatus::Finished);
        QCOMPARE(int(rec.epochs.size()), 3);
        // The schedule's own formula: 0.5 × (1 − min(e, 2) / 2)², e the epochs ended.
        for (int e = 0; e < 3; ++e)
            QVERIFY2(std::abs(rec.epochs[size_t(e)].lr - 0.5 * std::pow(1.0 - std::min(e, 2) / 2.0, 2.0)) < 1e-12,
                     qPrintable(QString::number(rec.epochs[size_t(e)].lr)));
        // One linear layer without its bias: inputs × classes weights.
        const auto& shape = rec.starts.at(0).inputShape;
        int64_t inputs = 1;
        for (int64_t d : shape)
            inputs *= d;
        QCOMPARE(rec.starts.at(0).parameters, inputs * int64_t(rec.starts.at(0).classes.size()));
        // Adagrad learned: the synthetic classes are separable far above chance.
        QVERIFY2(r.end.testAccuracy > 2.0 / double(rec.starts.at(0).classes.size()),
                 qPrintable(QString::number(r.end.testAccuracy)));
        // It trained in its precision: bf16 products, so not fp32's losses.
        QCOMPARE(rec.starts.at(0).precision, std::string("bf16_scaled"));
        Recording fp32;
        Trainer(RunConfig::fromJson(kConfig)).run(fp32, stop);
        QVERIFY(fp32.epochs.at(0).trainLoss != rec.epochs.at(0).trainLoss);
        QCOMPARE(fp32.starts.at(0).precision, std::string("fp32"));
    }
};

QTEST_GUILESS_MAIN(TestNewKinds)
#include "tst_new_kinds.moc"
