// entrena-cli sweep, experiments and import (docs/experiments.md), on a small Fashion-MNIST subset
// with seconds per trial: grid runs every combination; random and tpe stay inside their
// distributions; asha prunes and trains clearly fewer epochs than running every trial to the end;
// pbt records its exploits (parent run, copied weights); a sweep killed with SIGKILL leaves no
// trial behind and resumes to the same trials; import adds a store's runs once; a bad space exits 2
// and stores nothing.
#include "entrena/store/Checkpoints.h"
#include "entrena/store/RunStore.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <csignal>

using namespace entrena;

namespace {

struct Result {
    int exitCode = -1;
    QByteArray out, err;
    QList<QJsonObject> events(const QString& kind) const
    {
        QList<QJsonObject> found;
        for (const QByteArray& line : out.split('\n')) {
            const QJsonObject e = QJsonDocument::fromJson(line).object();
            if (e[QStringLiteral("event")].toString() == kind)
                found << e;
        }
        return found;
    }
};

/// The pids `pgrep args…` prints.
QList<qint64> pgrep(const QStringList& args)
{
    QProcess p;
    p.start(QStringLiteral("pgrep"), args);
    if (!p.waitForStarted())
        qFatal("pgrep is missing (procps; packaging/setup.sh installs it)");
    p.waitForFinished();
    QList<qint64> pids;
    for (const QByteArray& line : p.readAllStandardOutput().split('\n'))
        if (!line.trimmed().isEmpty())
            pids << line.trimmed().toLongLong();
    return pids;
}

/// The trial server of the sweep writing to `store`: the oldest process of that command line (its
/// trials are forks of it, with the same).
QList<qint64> trialServerOf(const QString& store)
{
    return pgrep({QStringLiteral("-o"), QStringLiteral("-f"), QStringLiteral("trial-server --fd [0-9]+ --db ") + store});
}

Result cli(const QStringList& args, int timeoutMs = 300000, const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment())
{
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(ENTRENA_CLI), args);
    p.waitForFinished(timeoutMs);
    return {p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError()};
}

void write(const QString& path, const QByteArray& text)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text);
}

} // namespace

class TestSweep : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString base_;

    QString file(const char* name, const QByteArray& text)
    {
        const QString path = dir_.filePath(QString::fromLatin1(name));
        write(path, text);
        return path;
    }
    /// Each store in a folder of its own.
    QString db(const char* name) const
    {
        const QString folder = dir_.filePath(QString::fromLatin1(name) + QStringLiteral(".d"));
        QDir().mkpath(folder);
        return folder + QLatin1Char('/') + QString::fromLatin1(name);
    }

    Result sweep(const QString& store, const QByteArray& space, const QStringList& more,
                 const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment())
    {
        return cli(QStringList{QStringLiteral("sweep"), QStringLiteral("--config"), base_, QStringLiteral("--space"),
                               file("space.json", space), QStringLiteral("--db"), store, QStringLiteral("--json")} +
                       more,
                   300000, env);
    }

    /// A grid sweep of three slow trials, two at a time, started and left running once a trial has
    /// its first checkpoint: a trial is in the middle of its work.
    void startSlowSweep(QProcess& p, const QString& store)
    {
        const QString slow = file("slow.json", QByteArray(R"({"name": "slow", "data": {"path": "FMNIST", "train_limit": 6000,
            "test_limit": 200, "batch_size": 32, "workers": 0}, "model": {"arch": "cnn", "channels": [4, 8]},
            "scheduler": {"name": "constant"}, "train": {"epochs": 2, "log_every": 10}})")
                                                   .replace("FMNIST", ENTRENA_FMNIST_DIR));
        p.start(QStringLiteral(ENTRENA_CLI),
                {QStringLiteral("sweep"), QStringLiteral("--config"), slow, QStringLiteral("--space"),
                 file("lrs.json", R"({"optimizer.lr": {"choice": [0.01, 0.03, 0.05]}})"), QStringLiteral("--method"),
                 QStringLiteral("grid"), QStringLiteral("--parallel"), QStringLiteral("2"), QStringLiteral("--db"), store,
                 QStringLiteral("--json")});
        QVERIFY(p.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(
            QFile::exists(store) &&
                [&] {
                    RunStore s(store.toStdString());
                    for (const auto& run : s.listRuns())
                        if (!s.checkpoints(run.id).empty())
                            return true;
                    return false;
                }(),
            120000);
    }

private Q_SLOTS:
    void initTestCase()
    {
        base_ = file("base.json", QByteArray(R"({"name": "fm", "data": {"path": "FMNIST", "train_limit": 1500,
            "test_limit": 300, "batch_size": 64, "workers": 0},
            "model": {"arch": "mlp", "hidden": [16]}, "optimizer": {"name": "sgd", "lr": 0.05, "momentum": 0.9},
            "scheduler": {"name": "constant"}, "train": {"epochs": 4, "log_every": 10}})")
                                      .replace("FMNIST", ENTRENA_FMNIST_DIR));
    }

    void gridRunsEveryCombination()
    {
        const Result r =
            sweep(db("grid.sqlite"), R"({"optimizer.lr": {"choice": [0.01, 0.1]},
                                                      "model.hidden": {"choice": [[8], [16]]}})",
                  {QStringLiteral("--method"), QStringLiteral("grid"), QStringLiteral("--parallel"), QStringLiteral("2")});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.events(QStringLiteral("sweep_start")).first()[QStringLiteral("trials")].toInt(), 4);
        QSet<QString> seen;
        for (const QJsonObject& e : r.events(QStringLiteral("trial_start")))
            seen << QString::fromUtf8(QJsonDocument(e[QStringLiteral("params")].toObject()).toJson(QJsonDocument::Compact));
        QCOMPARE(seen.size(), 4);
        QVERIFY(seen.contains(QStringLiteral(R"({"model.hidden":[8],"optimizer.lr":0.1})")));
        const auto ends = r.events(QStringLiteral("trial_end"));
        QCOMPARE(ends.size(), 4);
        for (const QJsonObject& e : ends)
            QCOMPARE(e[QStringLiteral("status")].toString(), QStringLiteral("finished"));
        // Every trial is a run of the experiment, with the values it was given.
        RunStore store(db("grid.sqlite").toStdString());
        const auto trials = store.trialsOf(1);
        QCOMPARE(trials.size(), size_t(4));
        const QJsonObject config = QJsonDocument::fromJson(QByteArray::fromStdString(trials[0].configJson)).object();
        QCOMPARE(config[QStringLiteral("model")].toObject()[QStringLiteral("hidden")].toArray().first().toInt(), 8);
        const Result runs = cli({QStringLiteral("runs"), QStringLiteral("--db"), db("grid.sqlite"), QStringLiteral("--json")});
        QCOMPARE(QJsonDocument::fromJson(runs.out).array().first().toObject()[QStringLiteral("experiment")].toInt(), 1);
        // Issue 29: every trial was "fm" in the runs list. Each is named by its experiment, its number
        // and what it tries.
        QSet<QString> names;
        for (const auto& t : trials) {
            const QString name = QString::fromStdString(t.name);
            QVERIFY2(name.startsWith(QStringLiteral("fm-grid trial %1: ").arg(t.trial)) && name.contains(QStringLiteral("lr=")) &&
                         name.contains(QStringLiteral("hidden=[")),
                     qPrintable(name));
            names << name;
        }
        QCOMPARE(names.size(), 4);
    }

    void sweepingTheOptimizerStartsEachFromItsOwnDefaults()
    {
        // The base is sgd with momentum 0.9; an adam trial does not inherit sgd's momentum (adam has
        // no such key), an sgd trial keeps it.
        const QString store = db("optimizers.sqlite");
        const Result r = sweep(store, R"({"optimizer.name": {"choice": ["sgd", "adam"]}})",
                               {QStringLiteral("--method"), QStringLiteral("grid"), QStringLiteral("--parallel"), QStringLiteral("2")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        RunStore runs(store.toStdString());
        QMap<QString, QJsonObject> byName;
        for (const auto& trial : runs.trialsOf(1)) {
            QCOMPARE(trial.status, RunStatus::Finished);
            const QJsonObject optimizer = QJsonDocument::fromJson(QByteArray::fromStdString(trial.configJson))
                                              .object()[QStringLiteral("optimizer")].toObject();
            byName[optimizer[QStringLiteral("name")].toString()] = optimizer;
        }
        QCOMPARE(byName.size(), 2);
        QCOMPARE(byName[QStringLiteral("sgd")][QStringLiteral("momentum")].toDouble(), 0.9);
        QVERIFY(!byName[QStringLiteral("adam")].contains(QStringLiteral("momentum")));
        QCOMPARE(byName[QStringLiteral("adam")][QStringLiteral("lr")].toDouble(), 0.05);
    }

    void randomAndTpeKeepToTheirDistributions_data()
    {
        QTest::addColumn<QString>("method");
        QTest::newRow("random") << "random";
        QTest::newRow("tpe") << "tpe";
    }

    void randomAndTpeKeepToTheirDistributions()
    {
        QFETCH(QString, method);
        const QString store = db(qPrintable(method + QStringLiteral(".sqlite")));
        const Result r = sweep(store, R"({"optimizer.lr": {"log_uniform": [0.001, 0.2]},
                                          "optimizer.momentum": {"uniform": [0.5, 0.9]},
                                          "train.epochs": {"int_uniform": [1, 2]},
                                          "data.batch_size": {"choice": [32, 128]}})",
                               {QStringLiteral("--method"), method, QStringLiteral("--trials"), QStringLiteral("8"),
                                QStringLiteral("--parallel"), QStringLiteral("2")});
        QCOMPARE(r.exitCode, 0);
        const auto starts = r.events(QStringLiteral("trial_start"));
        QCOMPARE(starts.size(), 8);
        int lowDecade = 0;
        QSet<int> epochs;
        for (const QJsonObject& e : starts) {
            const QJsonObject p = e[QStringLiteral("params")].toObject();
            const double lr = p[QStringLiteral("optimizer.lr")].toDouble();
            QVERIFY2(lr >= 0.001 && lr <= 0.2, qPrintable(QString::number(lr)));
            lowDecade += lr < 0.01;
            const double m = p[QStringLiteral("optimizer.momentum")].toDouble();
            QVERIFY(m >= 0.5 && m <= 0.9);
            const double ep = p[QStringLiteral("train.epochs")].toDouble();
            QCOMPARE(ep, std::round(ep));
            epochs << int(ep);
            QVERIFY(ep == 1 || ep == 2);
            const int batch = p[QStringLiteral("data.batch_size")].toInt();
            QVERIFY(batch == 32 || batch == 128);
        }
        if (method == QStringLiteral("random"))
            QVERIFY2(lowDecade >= 1, "log_uniform should reach the low decade"); // 8 draws, P(none) < 0.05
        // The trials trained what they were given: each run's epochs are its value.
        for (const QJsonObject& e : r.events(QStringLiteral("trial_end")))
            QVERIFY(e[QStringLiteral("epochs")].toInt() == 1 || e[QStringLiteral("epochs")].toInt() == 2);
        const Result best = cli({QStringLiteral("experiments"), QStringLiteral("--db"), store, QStringLiteral("--json")});
        const QJsonObject e = QJsonDocument::fromJson(best.out).array().first().toObject();
        QCOMPARE(e[QStringLiteral("method")].toString(), method);
        QCOMPARE(e[QStringLiteral("trials")].toInt(), 8);
        QVERIFY(e[QStringLiteral("best_metric")].toDouble() > 0.5);
    }

    void ashaPrunesAndTrainsFewerEpochs()
    {
        const QString store = db("asha.sqlite");
        const Result r =
            sweep(store, R"({"optimizer.lr": {"log_uniform": [0.0001, 0.5]}})",
                  {QStringLiteral("--method"), QStringLiteral("asha"), QStringLiteral("--trials"), QStringLiteral("8"),
                   QStringLiteral("--min-epochs"), QStringLiteral("1"), QStringLiteral("--reduction"), QStringLiteral("2"),
                   QStringLiteral("--parallel"), QStringLiteral("2")});
        QCOMPARE(r.exitCode, 0);
        const auto ends = r.events(QStringLiteral("trial_end"));
        QCOMPARE(ends.size(), 8);
        int epochs = 0, pruned = 0, full = 0;
        for (const QJsonObject& e : ends) {
            epochs += e[QStringLiteral("epochs")].toInt();
            pruned += e[QStringLiteral("status")].toString() == QStringLiteral("pruned");
            full += e[QStringLiteral("epochs")].toInt() == 4;
        }
        QVERIFY2(pruned >= 4, qPrintable(QString::number(pruned)));
        QVERIFY(full >= 1);
        QVERIFY2(epochs <= 8 * 4 / 2, qPrintable(QString::number(epochs))); // every trial to the end: 32
        QCOMPARE(r.events(QStringLiteral("sweep_end")).first()[QStringLiteral("pruned")].toInt(), pruned);
        // Issue 33: a sweep kept every trial's every epoch, pruned trials included. A pruned trial's
        // checkpoints go when the sweep ends (its metrics stay); the others keep their best and latest.
        {
            RunStore s(store.toStdString());
            for (const auto& run : s.trialsOf(1)) {
                const auto kept = s.checkpoints(run.id);
                if (run.status == RunStatus::Pruned)
                    QVERIFY2(kept.empty() && !s.metrics(run.id, "val_accuracy").empty(), run.name.c_str());
                else
                    QVERIFY2(!kept.empty() && kept.size() <= 2, run.name.c_str());
            }
        }
        // With --keep-pruned a pruned trial keeps its checkpoint and continues by hand to the full epochs.
        const QString kept = db("asha-kept.sqlite");
        const Result k = sweep(kept, R"({"optimizer.lr": {"log_uniform": [0.0001, 0.5]}})",
                               {QStringLiteral("--method"), QStringLiteral("asha"), QStringLiteral("--trials"), QStringLiteral("4"),
                                QStringLiteral("--reduction"), QStringLiteral("2"), QStringLiteral("--keep-pruned")});
        QCOMPARE(k.exitCode, 0);
        int64_t prunedRun = 0;
        {
            RunStore s(kept.toStdString());
            for (const auto& run : s.trialsOf(1))
                if (run.status == RunStatus::Pruned) {
                    prunedRun = run.id;
                    QVERIFY(!s.checkpoints(run.id).empty());
                }
        }
        QVERIFY(prunedRun > 0);
        const Result resumed = cli({QStringLiteral("train"), QStringLiteral("--resume"), QString::number(prunedRun),
                                    QStringLiteral("--db"), kept, QStringLiteral("--json")});
        QVERIFY2(resumed.exitCode == 0, resumed.err.constData());
        QCOMPARE(resumed.events(QStringLiteral("epoch")).last()[QStringLiteral("epoch")].toInt(), 4);
    }

    void pbtCopiesTheBestAndRecordsIt()
    {
        // Every checkpoint kept (train.keep_checkpoints 0), so that the copies can be compared with
        // their sources afterwards; by default only the best and the latest stay.
        const QString usual = base_;
        base_ = file("pbt-base.json", QByteArray(R"({"name": "fm", "data": {"path": "FMNIST", "train_limit": 1500,
            "test_limit": 300, "batch_size": 64, "workers": 0},
            "model": {"arch": "mlp", "hidden": [16]}, "optimizer": {"name": "sgd", "lr": 0.05, "momentum": 0.9},
            "scheduler": {"name": "constant"}, "train": {"epochs": 4, "log_every": 10, "keep_checkpoints": 0}})")
                                              .replace("FMNIST", ENTRENA_FMNIST_DIR));
        const QString store = db("pbt.sqlite");
        const Result r =
            sweep(store, R"({"optimizer.lr": {"log_uniform": [0.0005, 0.3]},
                                          "optimizer.momentum": {"uniform": [0.5, 0.95]}})",
                  {QStringLiteral("--method"), QStringLiteral("pbt"), QStringLiteral("--trials"), QStringLiteral("4"),
                   QStringLiteral("--interval"), QStringLiteral("1"), QStringLiteral("--parallel"), QStringLiteral("2")});
        base_ = usual;
        QCOMPARE(r.exitCode, 0);
        const auto exploits = r.events(QStringLiteral("exploit"));
        QCOMPARE(exploits.size(), 3); // one of four each generation, after generations 1, 2 and 3
        RunStore s(store.toStdString());
        for (const QJsonObject& e : exploits) {
            const int64_t run = e[QStringLiteral("run_id")].toInteger(), source = e[QStringLiteral("source_run")].toInteger();
            QVERIFY(run != source);
            QVERIFY(s.findRun(std::to_string(run))->parentRun != 0);
            // The copied state is the source's, tensor for tensor: the next step starts from its weights.
            const int64_t step = e[QStringLiteral("step")].toInteger();
            std::string copied, original;
            for (const auto& c : s.checkpoints(run))
                if (c.step == step && c.path.find("exploit") != std::string::npos)
                    copied = c.path;
            for (const auto& c : s.checkpoints(source))
                if (c.step == step)
                    original = c.path;
            QVERIFY2(!copied.empty() && !original.empty(), qPrintable(QString::number(step)));
            QCOMPARE(maxParameterDifference(copied, original), 0.0);
        }
        bool recorded = false;
        for (const auto& ev : s.events(exploits.first()[QStringLiteral("run_id")].toInteger()))
            recorded = recorded || ev.kind == "exploit";
        QVERIFY(recorded);
        // Every member trained to the end (4 epochs), and the learning rate it applied changed.
        for (const QJsonObject& e : r.events(QStringLiteral("trial_end")))
            QCOMPARE(e[QStringLiteral("epochs")].toInt(), 4);
        const auto lr = s.metrics(exploits.last()[QStringLiteral("run_id")].toInteger(), "lr");
        QVERIFY(lr.front().value != lr.back().value);
        const Result runs = cli({QStringLiteral("runs"), QStringLiteral("--db"), store, QStringLiteral("--json")});
        bool parent = false;
        for (const auto& v : QJsonDocument::fromJson(runs.out).array())
            parent = parent || v.toObject()[QStringLiteral("parent_run")].toInt() > 0;
        QVERIFY(parent);
    }

    void aKilledSweepResumesToTheSameTrials()
    {
        const QString store = db("killed.sqlite");
        QProcess p;
        startSlowSweep(p, store);
        ::kill(pid_t(p.processId()), SIGKILL);
        QVERIFY(p.waitForFinished());
        // No trial outlives it.
        QTRY_VERIFY_WITH_TIMEOUT(QProcess::execute(QStringLiteral("pgrep"), {QStringLiteral("-f"), store}) == 1, 10000); // 1: none (not -2: no pgrep)
        const Result r = cli({QStringLiteral("sweep"), QStringLiteral("--resume"), QStringLiteral("1"), QStringLiteral("--db"),
                              store, QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(r.events(QStringLiteral("sweep_end")).first()[QStringLiteral("trials")].toInt(), 3);
        RunStore s(store.toStdString());
        const auto trials = s.trialsOf(1);
        QCOMPARE(trials.size(), size_t(3));
        QSet<int64_t> numbers;
        for (const auto& t : trials) {
            QCOMPARE(t.status, RunStatus::Finished);
            numbers << t.trial;
        }
        QCOMPARE(numbers, (QSet<int64_t>{0, 1, 2}));
    }

    // Trials are forked by the sweep's trial server (docs/experiments.md, "How trials run"): each
    // must train exactly as a trial started with exec, every value of every epoch the same.
    void forkedTrialsTrainAsTrialsStartedWithExec()
    {
        const QByteArray space = R"({"optimizer.lr": {"log_uniform": [0.005, 0.2]},
                                     "data.batch_size": {"choice": [32, 64]}})";
        // random: each trial's values are fixed by the seed (tpe's depend on which trials ended first).
        const QStringList more{QStringLiteral("--method"), QStringLiteral("random"), QStringLiteral("--trials"),
                               QStringLiteral("4"), QStringLiteral("--parallel"), QStringLiteral("2")};
        QProcessEnvironment fork = QProcessEnvironment::systemEnvironment(), exec = fork;
        fork.remove(QStringLiteral("ENTRENA_TRIAL_EXEC"));
        exec.insert(QStringLiteral("ENTRENA_TRIAL_EXEC"), QStringLiteral("1"));
        QCOMPARE(sweep(db("forked.sqlite"), space, more, fork).exitCode, 0);
        QCOMPARE(sweep(db("execd.sqlite"), space, more, exec).exitCode, 0);
        // The server's base configuration is written only when a sweep starts one.
        QVERIFY(QFile::exists(QFileInfo(db("forked.sqlite")).dir().filePath(QStringLiteral("experiments/experiment-1/base.json"))));
        QVERIFY(!QFile::exists(QFileInfo(db("execd.sqlite")).dir().filePath(QStringLiteral("experiments/experiment-1/base.json"))));
        RunStore forked(db("forked.sqlite").toStdString()), execd(db("execd.sqlite").toStdString());
        const auto a = forked.trialsOf(1), b = execd.trialsOf(1);
        QCOMPARE(a.size(), size_t(4));
        QCOMPARE(b.size(), a.size());
        for (size_t i = 0; i < a.size(); ++i) {
            QCOMPARE(a[i].trial, b[i].trial);
            QCOMPARE(a[i].status, RunStatus::Finished);
            for (const char* key : {"val_loss", "train_loss"}) {
                const auto x = forked.metrics(a[i].id, key), y = execd.metrics(b[i].id, key);
                QVERIFY(!x.empty());
                QCOMPARE(x.size(), y.size());
                for (size_t k = 0; k < x.size(); ++k)
                    QVERIFY2(x[k].value == y[k].value, key); // exactly: QCOMPARE on doubles is fuzzy
            }
        }
    }

    // One server forks every trial of a sweep; a trial that dies (here: killed) fails alone, with
    // the reason in its run, and the sweep goes on to its other trials.
    void aKilledTrialFailsAloneAndTheSweepGoesOn()
    {
        const QString store = db("one-killed.sqlite");
        QProcess p;
        startSlowSweep(p, store);
        const auto servers = trialServerOf(store);
        QCOMPARE(servers.size(), 1);
        const auto trials = pgrep({QStringLiteral("-P"), QString::number(servers.first()), QStringLiteral("entrena-trial")});
        QVERIFY2(!trials.isEmpty(), "the running trials are not the server's children");
        ::kill(pid_t(trials.first()), SIGKILL);
        QVERIFY(p.waitForFinished(300000));
        QCOMPARE(p.exitCode(), 0);
        const Result r{p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError()};
        QCOMPARE(r.events(QStringLiteral("trial_end")).size(), 3);
        RunStore s(store.toStdString());
        int failed = 0, finished = 0;
        for (const auto& run : s.trialsOf(1)) {
            if (run.status == RunStatus::Failed) {
                ++failed;
                QVERIFY2(run.error.find("killed by signal 9") != std::string::npos, run.error.c_str());
            }
            finished += run.status == RunStatus::Finished;
        }
        QCOMPARE(failed, 1);
        QCOMPARE(finished, 2);
        QTRY_VERIFY_WITH_TIMEOUT(pgrep({QStringLiteral("-f"), store}).isEmpty(), 10000);
    }

    // Without its server (killed from outside), the trials it ran die with it and fail, and the
    // sweep starts the rest with exec.
    void aSweepOutlivesItsTrialServer()
    {
        const QString store = db("server-killed.sqlite");
        QProcess p;
        startSlowSweep(p, store);
        const auto servers = trialServerOf(store);
        QCOMPARE(servers.size(), 1);
        ::kill(pid_t(servers.first()), SIGKILL);
        QVERIFY(p.waitForFinished(300000));
        QCOMPARE(p.exitCode(), 0);
        RunStore s(store.toStdString());
        const auto runs = s.trialsOf(1);
        QCOMPARE(runs.size(), size_t(3));
        QCOMPARE(runs.back().status, RunStatus::Finished); // the third, started after the server had gone
        for (const auto& run : runs)
            QVERIFY2(run.status == RunStatus::Finished || run.error.find("killed by signal 9") != std::string::npos,
                     run.error.c_str());
        QTRY_VERIFY_WITH_TIMEOUT(pgrep({QStringLiteral("-f"), store}).isEmpty(), 10000);
    }

    void aJobArraySplitsTheSweep()
    {
        // cluster-script --space: a Slurm array whose tasks run their share of the trials; two tasks
        // of a 4-combination grid run 2 each, together every combination once.
        const QString space = file("grid2.json", R"({"optimizer.lr": {"choice": [0.01, 0.1]},
                                                     "model.hidden": {"choice": [[8], [16]]}})");
        const Result script = cli({QStringLiteral("cluster-script"), QStringLiteral("--config"), base_, QStringLiteral("--space"),
                                   space, QStringLiteral("--method"), QStringLiteral("grid"), QStringLiteral("--nodes"), QStringLiteral("2")});
        QVERIFY2(script.exitCode == 0, script.err.constData());
        QVERIFY(script.out.contains("#SBATCH --array=0-1"));
        QVERIFY(script.out.contains("--shard \"$SLURM_ARRAY_TASK_ID/2\""));
        QVERIFY(script.out.contains("entrena-cli import"));
        QSet<QString> all;
        for (const QString shard : {QStringLiteral("0/2"), QStringLiteral("1/2")}) {
            const Result r = cli({QStringLiteral("sweep"), QStringLiteral("--config"), base_, QStringLiteral("--space"), space,
                                  QStringLiteral("--method"), QStringLiteral("grid"), QStringLiteral("--shard"), shard,
                                  QStringLiteral("--db"), db(shard == QStringLiteral("0/2") ? "shard0.sqlite" : "shard1.sqlite"),
                                  QStringLiteral("--json")});
            QVERIFY2(r.exitCode == 0, r.err.constData());
            const auto starts = r.events(QStringLiteral("trial_start"));
            QCOMPARE(starts.size(), 2);
            for (const QJsonObject& e : starts)
                all << QString::fromUtf8(QJsonDocument(e[QStringLiteral("params")].toObject()).toJson(QJsonDocument::Compact));
        }
        QCOMPARE(all.size(), 4);
    }

    void importIsIdempotent()
    {
        const QString target = db("home.sqlite");
        const Result first = cli({QStringLiteral("import"), db("grid.sqlite"), QStringLiteral("--db"), target});
        QVERIFY2(first.exitCode == 0, first.err.constData());
        QVERIFY(first.out.contains("imported 4 run(s) and 1 experiment(s)"));
        const Result again = cli({QStringLiteral("import"), db("grid.sqlite"), QStringLiteral("--db"), target});
        QVERIFY(again.out.contains("imported 0 run(s) and 0 experiment(s)"));
        RunStore home(target.toStdString()), node(db("grid.sqlite").toStdString());
        QCOMPARE(home.listRuns().size(), size_t(4));
        const auto original = node.listRuns().front();
        const auto copy = *home.findRun(std::to_string(home.listRuns().front().id));
        QCOMPARE(copy.uuid, original.uuid);
        QCOMPARE(home.metrics(copy.id, "train_loss").size(), node.metrics(original.id, "train_loss").size());
        QCOMPARE(home.trialsOf(home.listExperiments().front().id).size(), size_t(4));
        QSet<int64_t> numbers; // task K ran trials K and K + 2 of the whole sweep: no number twice
        for (const RunRecord& r : home.trialsOf(home.listExperiments().front().id))
            numbers << r.trial;
        QCOMPARE(numbers, (QSet<int64_t>{0, 1, 2, 3}));
        // Its checkpoints were copied beside this store, and load.
        const auto checkpoint = home.checkpoints(copy.id).back();
        QVERIFY(QFile::exists(QString::fromStdString(checkpoint.path)));
        QCOMPARE(fileChecksum(checkpoint.path), checkpoint.checksum);
    }

    void badSpacesExitTwoAndStoreNothing_data()
    {
        QTest::addColumn<QByteArray>("space");
        QTest::addColumn<QStringList>("more");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("unknown key") << QByteArray(R"({"optimizer.lrate": {"uniform": [0.1, 0.2]}})") << QStringList()
                                     << "optimizer.lrate";
        QTest::newRow("empty choice") << QByteArray(R"({"optimizer.lr": {"choice": []}})") << QStringList() << "empty";
        QTest::newRow("low above high") << QByteArray(R"({"optimizer.lr": {"uniform": [0.2, 0.1]}})") << QStringList()
                                        << "low < high";
        QTest::newRow("log range not positive")
            << QByteArray(R"({"optimizer.lr": {"log_uniform": [0, 0.1]}})") << QStringList() << "positive";
        QTest::newRow("grid with a range") << QByteArray(R"({"optimizer.lr": {"uniform": [0.01, 0.1]}})")
                                           << QStringList{QStringLiteral("--method"), QStringLiteral("grid")} << "choice";
        QTest::newRow("more parallel than cores")
            << QByteArray(R"({"optimizer.lr": {"choice": [0.1]}})")
            << QStringList{QStringLiteral("--parallel"), QStringLiteral("64")} << "--parallel";
        QTest::newRow("a value out of range")
            << QByteArray(R"({"data.batch_size": {"choice": [0, 32]}})") << QStringList() << "data.batch_size";
        QTest::newRow("pbt over optimizers")
            << QByteArray(R"({"optimizer.name": {"choice": ["sgd", "adam"]}})")
            << QStringList{QStringLiteral("--method"), QStringLiteral("pbt"), QStringLiteral("--interval"), QStringLiteral("1")}
            << "optimizer.name";
    }

    void badSpacesExitTwoAndStoreNothing()
    {
        QFETCH(QByteArray, space);
        QFETCH(QStringList, more);
        QFETCH(QString, mentions);
        const QString store = db("bad.sqlite");
        QFile::remove(store);
        const Result r = sweep(store, space, more);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(QString::fromUtf8(r.err).contains(mentions), r.err.constData());
        QVERIFY2(!QFile::exists(store), "a refused sweep created the store");
    }
};

QTEST_GUILESS_MAIN(TestSweep)
#include "tst_sweep.moc"
