// The entrena-cli contract of docs/cli.md: JSON lines, exit statuses, --set, --db, signals.
#include "entrena/store/RunStore.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <signal.h>

namespace {

struct Result {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

Result cli(const QStringList& args, int timeoutMs = 240000)
{
    QProcess p;
    p.start(QStringLiteral(ENTRENA_CLI), args);
    p.waitForFinished(timeoutMs);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
            p.readAllStandardError()};
}

QList<QJsonObject> jsonLines(const QByteArray& out)
{
    QList<QJsonObject> events;
    for (const QByteArray& line : out.split('\n')) {
        if (line.isEmpty())
            continue;
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(line, &error);
        if (error.error != QJsonParseError::NoError || !doc.isObject()) {
            qWarning() << "not a JSON object line:" << line;
            return {};
        }
        events.push_back(doc.object());
    }
    return events;
}

} // namespace

class TestCli : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;
    QString config_;
    QString db_;

    QString writeConfig(const QString& name, const QByteArray& json)
    {
        const QString path = dir_.filePath(name);
        QFile f(path);
        f.open(QIODevice::WriteOnly);
        f.write(json);
        return path;
    }

    QJsonArray runs(const QString& db)
    {
        const Result r = cli({QStringLiteral("runs"), QStringLiteral("--db"), db, QStringLiteral("--json")});
        return QJsonDocument::fromJson(r.out).array();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        config_ = writeConfig(QStringLiteral("small.json"), R"({"name": "cli-small", "seed": 2,
            "data": {"path": ")" ENTRENA_FMNIST_DIR R"(", "train_limit": 3000, "test_limit": 1000, "batch_size": 64},
            "model": {"arch": "mlp"}, "scheduler": {"name": "constant"},
            "train": {"epochs": 2, "log_every": 5}})");
        db_ = dir_.filePath(QStringLiteral("runs.sqlite"));
    }

    void trainJsonStreamFollowsTheContract()
    {
        const Result r = cli({QStringLiteral("train"), QStringLiteral("--config"), config_, QStringLiteral("--db"), db_,
                              QStringLiteral("--json"), QStringLiteral("--set"), QStringLiteral("optimizer.lr=0.04")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QList<QJsonObject> events = jsonLines(r.out);
        QVERIFY(events.size() > 5);
        const QJsonObject start = events.front();
        QCOMPARE(start[QStringLiteral("event")].toString(), QStringLiteral("start"));
        QVERIFY(start[QStringLiteral("run_id")].toInt() > 0);
        QCOMPARE(start[QStringLiteral("name")].toString(), QStringLiteral("cli-small"));
        QCOMPARE(start[QStringLiteral("world_size")].toInt(), 1);
        QVERIFY(start[QStringLiteral("device")].toString().startsWith(QStringLiteral("cpu")));
        QCOMPARE(start[QStringLiteral("precision")].toString(), QStringLiteral("fp32"));

        int steps = 0, epochs = 0;
        for (const QJsonObject& e : events) {
            const QString kind = e[QStringLiteral("event")].toString();
            if (kind == QStringLiteral("step")) {
                ++steps;
                QCOMPARE(e[QStringLiteral("step")].toInt(), 5 * steps); // from 1, every log_every
                for (const char* key : {"epoch", "loss", "lr", "samples_per_s"})
                    QVERIFY2(e[QLatin1String(key)].isDouble(), key);
                QCOMPARE(e[QStringLiteral("lr")].toDouble(), 0.04); // --set applied
                if (steps >= 8)
                    break;
            }
        }
        QVERIFY(steps >= 8);
        for (const QJsonObject& e : events) {
            if (e[QStringLiteral("event")].toString() == QStringLiteral("epoch")) {
                ++epochs;
                QCOMPARE(e[QStringLiteral("epoch")].toInt(), epochs);
                for (const char* key : {"train_loss", "val_loss", "val_accuracy", "lr", "seconds"})
                    QVERIFY2(e[QLatin1String(key)].isDouble(), key);
            }
        }
        QCOMPARE(epochs, 2);
        const QJsonObject end = events.back();
        QCOMPARE(end[QStringLiteral("event")].toString(), QStringLiteral("end"));
        QCOMPARE(end[QStringLiteral("status")].toString(), QStringLiteral("finished"));
        QVERIFY(end[QStringLiteral("test_accuracy")].toDouble() > 0.7);
        QVERIFY(end[QStringLiteral("best_val_accuracy")].toDouble() > 0.7);
        QVERIFY(end[QStringLiteral("seconds")].toDouble() > 0);
        QVERIFY(end[QStringLiteral("samples_per_s")].toDouble() > 0);
        QVERIFY(end[QStringLiteral("error")].isNull());
    }

    // `auto` trains a convolutional model in bf16 where the CPU multiplies bf16 natively and in fp32
    // elsewhere (the tests run on either), and an MLP in fp32 everywhere: the start event and the
    // run's environment say which; the stored configuration keeps `auto`, for another machine.
    void autoPrecisionFollowsTheCpuAndTheModel_data()
    {
        QTest::addColumn<QString>("arch");
        QTest::addColumn<bool>("convolutional");
        QTest::newRow("mlp") << QStringLiteral("mlp") << false;
        QTest::newRow("cnn") << QStringLiteral("cnn") << true;
    }

    void autoPrecisionFollowsTheCpuAndTheModel()
    {
        QFETCH(QString, arch);
        QFETCH(bool, convolutional);
        QFile cpuinfo(QStringLiteral("/proc/cpuinfo"));
        QVERIFY(cpuinfo.open(QIODevice::ReadOnly));
        QByteArray flags;
        for (const QByteArray& line : cpuinfo.readAll().split('\n'))
            if (line.startsWith("flags")) {
                flags = " " + line.mid(line.indexOf(':') + 1).trimmed() + " ";
                break;
            }
        const bool native = flags.contains(" avx512_bf16 ") || flags.contains(" amx_bf16 ");
        const QString expected = native && convolutional ? QStringLiteral("bf16") : QStringLiteral("fp32");
        const QString db = dir_.filePath(QStringLiteral("auto-%1.sqlite").arg(arch));
        const Result r = cli({QStringLiteral("train"), QStringLiteral("--config"), config_, QStringLiteral("--db"), db,
                              QStringLiteral("--json"), QStringLiteral("--set"), QStringLiteral("train.precision=auto"),
                              QStringLiteral("--set"), QStringLiteral("train.epochs=1"), QStringLiteral("--set"),
                              QStringLiteral("model.arch=") + arch, QStringLiteral("--set"), QStringLiteral("model.channels=[8,16]")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QList<QJsonObject> events = jsonLines(r.out);
        QVERIFY(events.size() > 2);
        QCOMPARE(events.front()[QStringLiteral("event")].toString(), QStringLiteral("start"));
        QCOMPARE(events.front()[QStringLiteral("precision")].toString(), expected);
        QVERIFY2(events.back()[QStringLiteral("test_accuracy")].toDouble() > 0.5, "auto precision did not learn"); // chance: 0.1
        entrena::RunStore store(db.toStdString());
        const auto run = store.listRuns().front();
        QVERIFY(QByteArray::fromStdString(run.configJson).contains(R"("precision":"auto")"));
        QCOMPARE(QJsonDocument::fromJson(QByteArray::fromStdString(run.environmentJson))[QStringLiteral("precision")].toString(),
                 expected);
    }

    void runsJsonListsTheRun()
    {
        const QJsonArray all = runs(db_);
        QCOMPARE(all.size(), 1);
        const QJsonObject run = all[0].toObject();
        for (const char* key : {"id", "name", "status", "created", "best_val_accuracy"})
            QVERIFY2(run.contains(QLatin1String(key)), key);
        QCOMPARE(run[QStringLiteral("status")].toString(), QStringLiteral("finished"));
        QCOMPARE(run[QStringLiteral("name")].toString(), QStringLiteral("cli-small"));
        QVERIFY(run[QStringLiteral("best_val_accuracy")].toDouble() > 0.7);
    }

    void exportMetricsMatchesTheStore()
    {
        const QString csv = dir_.filePath(QStringLiteral("metrics.csv"));
        const Result r = cli({QStringLiteral("export"), QStringLiteral("--run"), QStringLiteral("cli-small"),
                              QStringLiteral("--db"), db_, QStringLiteral("--metrics"), QStringLiteral("csv"),
                              QStringLiteral("--out"), csv});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = f.readAll().trimmed().split('\n');
        QCOMPARE(lines.front(), QByteArray("key,step,epoch,wall_time,value"));
        int trainLoss = 0;
        for (const QByteArray& l : lines)
            trainLoss += l.startsWith("train_loss,");
        // 2,700 samples / 64 = 43 steps an epoch, 86 in all: logged every 5 (17) and the last.
        QCOMPARE(trainLoss, 18);

        const QString json = dir_.filePath(QStringLiteral("metrics.json"));
        const Result j = cli({QStringLiteral("export"), QStringLiteral("--run"), QStringLiteral("cli-small"),
                              QStringLiteral("--db"), db_, QStringLiteral("--metrics"), QStringLiteral("json"),
                              QStringLiteral("--out"), json});
        QCOMPARE(j.exitCode, 0);
        QFile jf(json);
        QVERIFY(jf.open(QIODevice::ReadOnly));
        const QJsonObject doc = QJsonDocument::fromJson(jf.readAll()).object();
        QCOMPARE(doc[QStringLiteral("metrics")].toObject()[QStringLiteral("train_loss")].toArray().size(), 18);
        QCOMPARE(doc[QStringLiteral("run")].toObject()[QStringLiteral("name")].toString(), QStringLiteral("cli-small"));
    }

    void exportOfAnUnknownRunOrToAnUnwritablePathLeavesNoFile()
    {
        const QString out = dir_.filePath(QStringLiteral("nothing.csv"));
        const Result unknown = cli({QStringLiteral("export"), QStringLiteral("--run"), QStringLiteral("999"),
                                    QStringLiteral("--db"), db_, QStringLiteral("--metrics"), QStringLiteral("csv"),
                                    QStringLiteral("--out"), out});
        QCOMPARE(unknown.exitCode, 2);
        QVERIFY(unknown.err.contains("no run '999'"));
        QVERIFY(!QFile::exists(out));
        const QString bad = dir_.filePath(QStringLiteral("no/such/folder/m.csv"));
        const Result unwritable = cli({QStringLiteral("export"), QStringLiteral("--run"), QStringLiteral("cli-small"),
                                       QStringLiteral("--db"), db_, QStringLiteral("--metrics"), QStringLiteral("csv"),
                                       QStringLiteral("--out"), bad});
        QCOMPARE(unwritable.exitCode, 1);
        QVERIFY2(unwritable.err.contains("cannot write"), unwritable.err.constData());
    }

    void runsFiltersByStatus()
    {
        const Result finished = cli({QStringLiteral("runs"), QStringLiteral("--db"), db_, QStringLiteral("--json"),
                                     QStringLiteral("--status"), QStringLiteral("finished")});
        QCOMPARE(QJsonDocument::fromJson(finished.out).array().size(), 1);
        const Result failed = cli({QStringLiteral("runs"), QStringLiteral("--db"), db_, QStringLiteral("--json"),
                                   QStringLiteral("--status"), QStringLiteral("failed")});
        QCOMPARE(QJsonDocument::fromJson(failed.out).array().size(), 0);
        const Result bad = cli({QStringLiteral("runs"), QStringLiteral("--db"), db_, QStringLiteral("--status"),
                                QStringLiteral("done")});
        QCOMPARE(bad.exitCode, 2);
    }

    void baselineIsMarkedAndReported()
    {
        // db_ holds one finished run (trainJsonStreamFollowsTheContract's).
        const auto finishedRun = [this] {
            const Result r = cli({QStringLiteral("runs"), QStringLiteral("--db"), db_, QStringLiteral("--json"),
                                  QStringLiteral("--status"), QStringLiteral("finished")});
            return QJsonDocument::fromJson(r.out).array().at(0).toObject();
        };
        QVERIFY(finishedRun()[QStringLiteral("baseline")].isNull());
        const QString id = QString::number(finishedRun()[QStringLiteral("id")].toInt());
        const Result mark = cli({QStringLiteral("baseline"), QStringLiteral("--run"), id, QStringLiteral("--db"), db_});
        QVERIFY2(mark.exitCode == 0, mark.err.constData());
        QVERIFY2(mark.out.contains("is the baseline of fashion-mnist, train_limit 3000"), mark.out.constData());
        const QJsonObject vs = finishedRun()[QStringLiteral("baseline")].toObject();
        QVERIFY(vs[QStringLiteral("is_baseline")].toBool());
        QCOMPARE(vs[QStringLiteral("speedup")].toDouble(), 1.0);
        QCOMPARE(vs[QStringLiteral("delta_accuracy")].toDouble(), 0.0);
        QVERIFY(!vs[QStringLiteral("warning")].toBool());

        const Result clear =
            cli({QStringLiteral("baseline"), QStringLiteral("--run"), id, QStringLiteral("--db"), db_, QStringLiteral("--clear")});
        QCOMPARE(clear.exitCode, 0);
        QVERIFY(finishedRun()[QStringLiteral("baseline")].isNull());
        const Result unknown =
            cli({QStringLiteral("baseline"), QStringLiteral("--run"), QStringLiteral("999"), QStringLiteral("--db"), db_});
        QCOMPARE(unknown.exitCode, 2);
        QVERIFY2(unknown.err.contains("no run '999'"), unknown.err.constData());
        const Result noRun = cli({QStringLiteral("baseline"), QStringLiteral("--db"), db_});
        QCOMPARE(noRun.exitCode, 2);
        QVERIFY(noRun.err.contains("baseline needs --run"));
    }

    void humanOutputWithoutJson()
    {
        const QString db = dir_.filePath(QStringLiteral("human.sqlite"));
        const Result r = cli({QStringLiteral("train"), QStringLiteral("--config"), config_, QStringLiteral("--db"), db,
                              QStringLiteral("--set"), QStringLiteral("train.epochs=1")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("epoch 1: train loss"));
        QVERIFY(r.out.contains("finished after"));
        QVERIFY(!r.out.startsWith('{'));
    }

    void badInputExitsTwoAndNamesTheProblem_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("unknown key") << QStringList{QStringLiteral("train"), QStringLiteral("--config"), QStringLiteral("@unknown")}
                                     << "data.shuffle";
        QTest::newRow("batch size 0") << QStringList{QStringLiteral("train"), QStringLiteral("--config"), QStringLiteral("@small"),
                                                     QStringLiteral("--set"), QStringLiteral("data.batch_size=0")}
                                      << "data.batch_size";
        QTest::newRow("negative lr") << QStringList{QStringLiteral("train"), QStringLiteral("--config"), QStringLiteral("@small"),
                                                    QStringLiteral("--set"), QStringLiteral("optimizer.lr=-1")}
                                     << "optimizer.lr";
        QTest::newRow("missing config file") << QStringList{QStringLiteral("train"), QStringLiteral("--config"), QStringLiteral("/nonexistent.json")}
                                             << "/nonexistent.json";
        QTest::newRow("no --config") << QStringList{QStringLiteral("train")} << "--config";
        QTest::newRow("unknown command") << QStringList{QStringLiteral("fly")} << "unknown command";
        QTest::newRow("unknown option") << QStringList{QStringLiteral("runs"), QStringLiteral("--fast")} << "--fast";
        QTest::newRow("no command") << QStringList{} << "no command";
    }

    void badInputExitsTwoAndNamesTheProblem()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, mentions);
        const QString unknown = writeConfig(QStringLiteral("unknown.json"), R"({"data": {"shuffle": true}})");
        const QString db = dir_.filePath(QStringLiteral("bad-input.sqlite"));
        for (QString& a : args) {
            if (a == QStringLiteral("@unknown")) a = unknown;
            if (a == QStringLiteral("@small")) a = config_;
        }
        if (!args.isEmpty() && args[0] == QStringLiteral("train"))
            args << QStringLiteral("--db") << db;
        const Result r = cli(args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(QString::fromUtf8(r.err).contains(mentions), r.err.constData());
        QVERIFY(r.out.isEmpty());
        QVERIFY(!r.err.contains("Exception raised from"));
        // Nothing was stored for a configuration that never started.
        if (QFile::exists(db))
            QCOMPARE(runs(db).size(), 0);
    }

    void missingDataFailsTheRunWithExitOne()
    {
        const QString db = dir_.filePath(QStringLiteral("missing-data.sqlite"));
        const Result r = cli({QStringLiteral("train"), QStringLiteral("--config"), config_, QStringLiteral("--db"), db,
                              QStringLiteral("--json"), QStringLiteral("--set"), QStringLiteral("data.path=/nonexistent/fmnist")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("/nonexistent/fmnist"), r.err.constData());
        const QList<QJsonObject> events = jsonLines(r.out);
        QVERIFY(!events.isEmpty());
        QCOMPARE(events.back()[QStringLiteral("status")].toString(), QStringLiteral("failed"));
        QVERIFY(events.back()[QStringLiteral("error")].toString().contains(QStringLiteral("/nonexistent/fmnist")));
        const QJsonArray all = runs(db);
        QCOMPARE(all.size(), 1);
        QCOMPARE(all[0].toObject()[QStringLiteral("status")].toString(), QStringLiteral("failed"));
    }

    void unwritableDatabaseExitsTwo()
    {
        const QString blocker = dir_.filePath(QStringLiteral("blocker"));
        QFile f(blocker);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.close();
        const Result r = cli({QStringLiteral("train"), QStringLiteral("--config"), config_, QStringLiteral("--db"),
                              blocker + QStringLiteral("/runs.sqlite")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--db"), r.err.constData());
    }

    void databaseThatIsNotSqliteIsNotDamaged()
    {
        const QString notes = writeConfig(QStringLiteral("notes.sqlite"), QByteArray("my notes\n").repeated(100));
        const Result r = cli({QStringLiteral("runs"), QStringLiteral("--db"), notes});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("not an Entrena run store"));
        QFile f(notes);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray("my notes\n").repeated(100));
    }

    void sigintStopsCleanly()
    {
        const QString db = dir_.filePath(QStringLiteral("sigint.sqlite"));
        QProcess p;
        p.start(QStringLiteral(ENTRENA_CLI), {QStringLiteral("train"), QStringLiteral("--config"), config_,
                                              QStringLiteral("--db"), db, QStringLiteral("--json"),
                                              QStringLiteral("--set"), QStringLiteral("train.epochs=200")});
        QVERIFY(p.waitForStarted());
        QByteArray out;
        QElapsedTimer t;
        t.start();
        while (!out.contains("\"event\":\"epoch\"") && t.elapsed() < 120000) {
            p.waitForReadyRead(1000);
            out += p.readAllStandardOutput();
        }
        QVERIFY(out.contains("\"event\":\"epoch\""));
        ::kill(pid_t(p.processId()), SIGINT);
        QVERIFY(p.waitForFinished(60000));
        out += p.readAllStandardOutput();
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 0);
        const QList<QJsonObject> events = jsonLines(out);
        QVERIFY(!events.isEmpty());
        QCOMPARE(events.back()[QStringLiteral("event")].toString(), QStringLiteral("end"));
        QCOMPARE(events.back()[QStringLiteral("status")].toString(), QStringLiteral("stopped"));
        bool checkpoint = false;
        for (const auto& e : events)
            checkpoint |= e[QStringLiteral("event")].toString() == QStringLiteral("checkpoint");
        QVERIFY(checkpoint);
        const QJsonArray all = runs(db);
        QCOMPARE(all.size(), 1);
        QCOMPARE(all[0].toObject()[QStringLiteral("status")].toString(), QStringLiteral("stopped"));
    }

    void killedRunIsInterruptedAndResumes()
    {
        // The whole training set, so an epoch lasts long enough for the kill to land mid-run.
        const QString db = dir_.filePath(QStringLiteral("killed.sqlite"));
        QProcess p;
        p.start(QStringLiteral(ENTRENA_CLI), {QStringLiteral("train"), QStringLiteral("--config"), config_,
                                              QStringLiteral("--db"), db, QStringLiteral("--json"),
                                              QStringLiteral("--set"), QStringLiteral("data.train_limit=0"),
                                              QStringLiteral("--set"), QStringLiteral("train.epochs=3"),
                                              QStringLiteral("--set"), QStringLiteral("train.log_every=100")});
        QVERIFY(p.waitForStarted());
        QByteArray out;
        QElapsedTimer t;
        t.start();
        while (!out.contains("\"event\":\"checkpoint\"") && t.elapsed() < 120000) {
            p.waitForReadyRead(1000);
            out += p.readAllStandardOutput();
        }
        QVERIFY(out.contains("\"event\":\"checkpoint\""));
        ::kill(pid_t(p.processId()), SIGKILL);
        QVERIFY(p.waitForFinished(30000));
        const QList<QJsonObject> before = jsonLines(out);
        const int runId = before.front()[QStringLiteral("run_id")].toInt();

        // The next open of the store sees that no process holds the run any more.
        QJsonArray all = runs(db);
        QCOMPARE(all.size(), 1);
        QCOMPARE(all[0].toObject()[QStringLiteral("status")].toString(), QStringLiteral("interrupted"));

        const Result r = cli({QStringLiteral("train"), QStringLiteral("--resume"), QString::number(runId),
                              QStringLiteral("--db"), db, QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QList<QJsonObject> events = jsonLines(r.out);
        QCOMPARE(events.front()[QStringLiteral("run_id")].toInt(), runId);
        QCOMPARE(events.back()[QStringLiteral("status")].toString(), QStringLiteral("finished"));
        int epochs = 0;
        for (const auto& e : events) {
            if (e[QStringLiteral("event")].toString() == QStringLiteral("epoch")) {
                QVERIFY(e[QStringLiteral("epoch")].toInt() >= 2); // continues, does not start over
                ++epochs;
            }
        }
        QVERIFY(epochs >= 1);
        all = runs(db);
        QCOMPARE(all.size(), 1);
        QCOMPARE(all[0].toObject()[QStringLiteral("status")].toString(), QStringLiteral("finished"));

        // A finished run has nothing to resume: exit 2, nothing changed.
        const Result again = cli({QStringLiteral("train"), QStringLiteral("--resume"), QString::number(runId),
                                  QStringLiteral("--db"), db});
        QCOMPARE(again.exitCode, 2);
        QVERIFY(again.err.contains("finished"));
    }

    void devicesReportsBlasAndGemm()
    {
        const Result r = cli({QStringLiteral("devices"), QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QVERIFY(o[QStringLiteral("threads")].toInt() >= 1);
        QVERIFY(o[QStringLiteral("gemm_gflops")].toDouble() > 0);
        QVERIFY(o[QStringLiteral("blas")].toObject().contains(QStringLiteral("library")));
        QVERIFY(o[QStringLiteral("devices")].toArray().size() >= 1);
        // The executable tuned its own environment before the BLAS loaded.
        QVERIFY(o[QStringLiteral("tuning")].toString().contains(QStringLiteral("OMP_WAIT_POLICY")));
        QVERIFY2(o[QStringLiteral("tuning")].toString().contains(QStringLiteral("OPENBLAS_THREAD_TIMEOUT=")),
                 qPrintable(o[QStringLiteral("tuning")].toString()));
        // NVML: "loaded", or why not (here: no NVIDIA driver).
        QVERIFY(!o[QStringLiteral("nvml")].toString().isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
