// A user's TorchScript model is trained in full: every parameter and buffer changes.
#include "entrena/model/ModelSummary.h"
#include "entrena/store/Checkpoints.h"
#include "entrena/store/RunStore.h"
#include "entrena/train/Trainer.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace entrena;

class TestTorchScript : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;

    QString fixture(const QString& kind)
    {
        const QString file = dir_.filePath(kind + QStringLiteral(".pt"));
        QProcess p;
        p.start(QStringLiteral(MAKE_TORCHSCRIPT), {kind, file});
        p.waitForFinished(60000);
        return p.exitCode() == 0 ? file : QString();
    }

    RunConfig config(const QString& modelFile)
    {
        return RunConfig::fromJson(R"({"name": "ts", "seed": 4,
            "data": {"path": ")" ENTRENA_FMNIST_DIR R"(", "train_limit": 3000, "test_limit": 1000, "batch_size": 64},
            "model": {"arch": "torchscript", "path": ")" +
                                   modelFile.toStdString() + R"("},
            "optimizer": {"name": "sgd", "lr": 0.05, "momentum": 0.9},
            "scheduler": {"name": "constant"}, "train": {"epochs": 2, "keep_checkpoints": 0}})");
    }

private Q_SLOTS:
    void trainsEveryParameterAndBuffer()
    {
        const QString model = fixture(QStringLiteral("mlp"));
        QVERIFY(!model.isEmpty());
        RunStore store(dir_.filePath(QStringLiteral("ts.sqlite")).toStdString());
        TrainingObserver quiet;
        StopToken stop;
        const RunResult r = Trainer(config(model)).run(quiet, stop, &store, true);
        QVERIFY2(r.end.status == RunStatus::Finished, r.end.error.c_str());
        QVERIFY2(r.end.testAccuracy >= 0.75, qPrintable(QString::number(r.end.testAccuracy)));
        const auto checkpoints = store.checkpoints(r.runId);
        QCOMPARE(checkpoints.size(), size_t(2));
        const auto changes = tensorChanges(checkpoints[0].path, checkpoints[1].path);
        QCOMPARE(changes.size(), size_t(5)); // w1 b1 w2 b2 and the running_mean buffer
        for (const auto& [name, change] : changes)
            QVERIFY2(change > 0, qPrintable(QString::fromStdString(name) + QStringLiteral(" did not change")));
    }

    void summaryCountsTheParameters()
    {
        ModelSpec spec;
        spec.arch = ModelArch::TorchScript;
        spec.path = fixture(QStringLiteral("mlp")).toStdString();
        const ModelSummary s = summarizeModel(spec, 1, 28, 28, 10);
        QCOMPARE(s.parameters, int64_t(784 * 64 + 64 + 64 * 10 + 10));
    }

    void shapesThatDoNotFitAreNamed_data()
    {
        QTest::addColumn<int>("features");
        QTest::addColumn<int>("classes");
        QTest::addColumn<QString>("mentions");
        // The fixture takes 784 values (a 28×28 image, flattened) and gives 10 scores.
        QTest::newRow("input") << 3 << 10 << "does not take this data's samples, [1, 1, 3]";
        QTest::newRow("classes") << 784 << 3 << "gives scores of shape [N, 10]";
    }

    void shapesThatDoNotFitAreNamed()
    {
        QFETCH(int, features);
        QFETCH(int, classes);
        QFETCH(QString, mentions);
        const QString csv = dir_.filePath(QStringLiteral("table-%1.csv").arg(features));
        QFile f(csv);
        QVERIFY(f.open(QIODevice::WriteOnly));
        for (int row = 0; row < 60; ++row) {
            QStringList cells;
            for (int i = 0; i < features; ++i)
                cells << QString::number((row * 7 + i) % 11);
            cells << QString::number(row % classes);
            f.write(cells.join(QLatin1Char(',')).toUtf8() + "\n");
        }
        f.close();
        const RunConfig c = RunConfig::fromJson(config(fixture(QStringLiteral("mlp"))).toJson(),
                                                {"data.dataset=csv", "data.path=" + csv.toStdString(), "data.header=false",
                                                 "data.label_column=\"" + std::to_string(features) + "\""});
        TrainingObserver quiet;
        StopToken stop;
        const RunResult r = Trainer(c).run(quiet, stop);
        QCOMPARE(r.end.status, RunStatus::Failed);
        QVERIFY2(QString::fromStdString(r.end.error).contains(mentions), r.end.error.c_str());
        QVERIFY2(QString::fromStdString(r.end.error).startsWith(QStringLiteral("the TorchScript module")), r.end.error.c_str());
    }

    void badModelFilesFailWithAMessage_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("not TorchScript") << "text"
                                         << "is not a TorchScript module";
        QTest::newRow("no parameters") << "noparams"
                                       << "has no parameters";
        QTest::newRow("missing file") << "missing"
                                      << "does not exist";
    }

    void badModelFilesFailWithAMessage()
    {
        QFETCH(QString, kind);
        QFETCH(QString, mentions);
        QString file;
        if (kind == QStringLiteral("text")) {
            file = dir_.filePath(QStringLiteral("notes.pt"));
            QFile f(file);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("not a model");
        } else if (kind == QStringLiteral("missing")) {
            file = dir_.filePath(QStringLiteral("missing.pt"));
        } else {
            file = fixture(kind);
        }
        TrainingObserver quiet;
        StopToken stop;
        const RunResult r = Trainer(config(file)).run(quiet, stop);
        QCOMPARE(r.end.status, RunStatus::Failed);
        QVERIFY2(QString::fromStdString(r.end.error).contains(mentions), r.end.error.c_str());
        QVERIFY(!QString::fromStdString(r.end.error).contains(QStringLiteral("Exception raised from")));
    }
};

QTEST_APPLESS_MAIN(TestTorchScript)
#include "tst_torchscript.moc"
