// The configuration contract: defaults, overrides, and errors that name the key.
#include "entrena/config/Config.h"

#include <QtTest>

using entrena::ConfigError;
using entrena::RunConfig;
using namespace entrena;

class TestConfig : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void emptyObjectGivesDocumentedDefaults()
    {
        const RunConfig c = RunConfig::fromJson("{}");
        QCOMPARE(c.data.dataset, DatasetKind::FashionMnist);
        QCOMPARE(c.data.batchSize, int64_t(128));
        QCOMPARE(c.optimizer.kind, OptimizerKind::Sgd);
        QCOMPARE(c.optimizer.lr, 0.05);
        QCOMPARE(c.scheduler.kind, SchedulerKind::ReduceOnPlateau);
        QCOMPARE(c.train.logEvery, int64_t(50));
        QCOMPARE(c.devices.type, DeviceType::Cpu);
    }

    void designExampleParses()
    {
        // The example of docs/configuration.md, verbatim.
        const RunConfig c = RunConfig::fromJson(R"({
          "name": "fmnist-cnn", "seed": 1,
          "data": {"dataset": "fashion-mnist", "path": "/usr/share/datasets/fashion-mnist",
                   "val_fraction": 0.1, "batch_size": 128, "workers": 2},
          "model": {"arch": "cnn"},
          "optimizer": {"name": "sgd", "lr": 0.05, "momentum": 0.9, "nesterov": true, "weight_decay": 0.0005},
          "scheduler": {"name": "reduce_on_plateau", "metric": "val_loss", "mode": "min",
                        "factor": 0.5, "patience": 3, "threshold": 0.0001, "cooldown": 0, "min_lr": 0},
          "train": {"epochs": 5, "max_steps": 0, "grad_clip": 0, "accumulate": 1,
                    "precision": "fp32", "log_every": 50, "checkpoint_every": 1},
          "devices": {"type": "cpu", "ids": [], "threads": 0}})");
        QCOMPARE(c.name, std::string("fmnist-cnn"));
        QCOMPARE(c.model.arch, ModelArch::Cnn);
        QCOMPARE(c.scheduler.patience, int64_t(3));
        QCOMPARE(c.data.workers, 2);
    }

    void shippedDefaultConfigParses()
    {
        const RunConfig c = RunConfig::fromFile(ENTRENA_SOURCE_DIR "/resources/configs/default.json");
        QVERIFY(c.train.epochs > 0);
    }

    void toJsonRoundTrips()
    {
        RunConfig a = RunConfig::fromJson(R"({"optimizer": {"name": "adam", "lr": 0.002},
                                             "scheduler": {"name": "step", "step_size": 4, "gamma": 0.3},
                                             "model": {"arch": "mlp", "hidden": [64, 32]}})");
        const RunConfig b = RunConfig::fromJson(a.toJson());
        QCOMPARE(b.toJson(), a.toJson());
        QCOMPARE(b.optimizer.lr, 0.002);
        QCOMPARE(b.scheduler.stepSize, int64_t(4));
        QCOMPARE(b.model.hidden, (std::vector<int64_t>{64, 32}));
    }

    void defaultsFollowPyTorchPerChoice()
    {
        QCOMPARE(RunConfig::fromJson(R"({"optimizer": {"name": "adamw"}})").optimizer.weightDecay, 0.01);
        QCOMPARE(RunConfig::fromJson(R"({"optimizer": {"name": "adam"}})").optimizer.weightDecay, 0.0);
        QCOMPARE(RunConfig::fromJson(R"({"model": {"arch": "resnet"}})").model.channels,
                 (std::vector<int64_t>{16, 32, 64}));
        const RunConfig oc = RunConfig::fromJson(R"({"scheduler": {"name": "one_cycle"}})");
        QCOMPARE(oc.scheduler.pctStart, 0.3);
        QCOMPARE(oc.scheduler.divFactor, 25.0);
        QCOMPARE(oc.scheduler.finalDivFactor, 1e4);
        QVERIFY(oc.scheduler.cycleMomentum);
    }

    void overridesApply()
    {
        const RunConfig c = RunConfig::fromJson("{}", {"optimizer.lr=0.2", "model.arch=mlp", "train.epochs=3",
                                                      "scheduler.name=cosine", "scheduler.T_max=7"});
        QCOMPARE(c.optimizer.lr, 0.2);
        QCOMPARE(c.model.arch, ModelArch::Mlp);
        QCOMPARE(c.train.epochs, 3);
        QCOMPARE(c.scheduler.tMax, int64_t(7));
    }

    void errorsNameTheKey_data()
    {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QStringList>("overrides");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("unknown top-level key") << R"({"epochs": 3})" << QStringList() << "'epochs'";
        QTest::newRow("unknown nested key") << R"({"data": {"batchsize": 3}})" << QStringList() << "data.batchsize";
        QTest::newRow("negative lr") << R"({"optimizer": {"lr": -0.1}})" << QStringList() << "optimizer.lr";
        QTest::newRow("zero lr") << R"({"optimizer": {"lr": 0}})" << QStringList() << "optimizer.lr";
        QTest::newRow("batch size 0") << R"({"data": {"batch_size": 0}})" << QStringList() << "data.batch_size";
        QTest::newRow("batch size text") << R"({"data": {"batch_size": "big"}})" << QStringList() << "data.batch_size";
        QTest::newRow("fractional epochs") << R"({"train": {"epochs": 2.5}})" << QStringList() << "train.epochs";
        QTest::newRow("unknown arch") << R"({"model": {"arch": "transformer"}})" << QStringList() << "model.arch";
        QTest::newRow("unknown optimizer") << R"({"optimizer": {"name": "lion"}})" << QStringList() << "optimizer.name";
        QTest::newRow("unknown scheduler") << R"({"scheduler": {"name": "warm"}})" << QStringList() << "scheduler.name";
        QTest::newRow("key of another scheduler") << R"({"scheduler": {"name": "step", "patience": 2}})"
                                                  << QStringList() << "scheduler.patience";
        QTest::newRow("plateau factor 1") << R"({"scheduler": {"factor": 1.0}})" << QStringList() << "scheduler.factor";
        QTest::newRow("val fraction 1") << R"({"data": {"val_fraction": 1.0}})" << QStringList() << "data.val_fraction";
        QTest::newRow("unknown device type") << R"({"devices": {"type": "tpu"}})" << QStringList() << "devices.type";
        QTest::newRow("section not an object") << R"({"train": 5})" << QStringList() << "'train'";
        QTest::newRow("not JSON") << R"({"train": )" << QStringList() << "not valid JSON";
        QTest::newRow("override of unknown key") << "{}" << QStringList{"train.epoch=3"} << "train.epoch";
        QTest::newRow("override without =") << "{}" << QStringList{"train.epochs"} << "--set";
        QTest::newRow("csv key on IDX data") << R"({"data": {"test_path": "t.csv"}})" << QStringList() << "data.test_path";
        QTest::newRow("augmentation of csv") << R"({"data": {"dataset": "csv", "path": "a.csv", "augment_flip": true}, "model": {"arch": "mlp"}})"
                                             << QStringList() << "augment";
        QTest::newRow("cnn on csv") << R"({"data": {"dataset": "csv", "path": "a.csv"}, "model": {"arch": "cnn"}})"
                                    << QStringList() << "model.arch";
        QTest::newRow("one_cycle pct_start 1") << R"({"scheduler": {"name": "one_cycle", "pct_start": 1.0}})"
                                               << QStringList() << "scheduler.pct_start";
        QTest::newRow("one_cycle anneal") << R"({"scheduler": {"name": "one_cycle", "anneal_strategy": "square"}})"
                                          << QStringList() << "scheduler.anneal_strategy";
        QTest::newRow("label smoothing 0.6") << R"({"train": {"label_smoothing": 0.6}})" << QStringList()
                                             << "train.label_smoothing";
        QTest::newRow("early stop metric") << R"({"train": {"early_stop_metric": "speed"}})" << QStringList()
                                           << "train.early_stop_metric";
        QTest::newRow("adam key on rmsprop") << R"({"optimizer": {"name": "rmsprop", "beta1": 0.9}})" << QStringList()
                                             << "optimizer.beta1";
        QTest::newRow("fp16 on the CPU") << R"({"train": {"precision": "fp16"}})" << QStringList() << "train.precision 'fp16' needs a CUDA";
        QTest::newRow("a task without an entry")
            << R"({"data": {"task": "ranking"}})" << QStringList() << "data.task must be one of classification";
        QTest::newRow("adam key on sgd") << R"({"optimizer": {"name": "sgd", "beta1": 0.9}})" << QStringList()
                                         << "optimizer.beta1";
    }

    void errorsNameTheKey()
    {
        QFETCH(QString, json);
        QFETCH(QStringList, overrides);
        QFETCH(QString, mentions);
        std::vector<std::string> sets;
        for (const auto& o : overrides)
            sets.push_back(o.toStdString());
        try {
            RunConfig::fromJson(json.toStdString(), sets);
            QFAIL("accepted a bad configuration");
        } catch (const ConfigError& e) {
            const QString message = QString::fromStdString(e.what());
            QVERIFY2(message.contains(mentions), qPrintable(message));
        }
    }

    void missingFileIsAConfigError()
    {
        QVERIFY_THROWS_EXCEPTION(ConfigError, RunConfig::fromFile("/nonexistent/entrena.json"));
    }
};

QTEST_APPLESS_MAIN(TestConfig)
#include "tst_config.moc"
