// entrena-cli cv (issue 31, docs/experiments.md "Cross-validation"), on a small Fashion-MNIST subset:
// every fold trains once, held out in turn, as the trials of one experiment; the reported mean and
// sd are those of the runs as stored; a Slurm job array's folds, run into stores of their own,
// import into one experiment, once; bad fold counts and data that cannot be folded or balanced exit 2
// and store nothing.
#include "entrena/store/RunStore.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <csignal>
#include <map>
#include <set>

using namespace entrena;

namespace {

struct Result {
    int exitCode = -1;
    QByteArray out, err;
    QJsonObject last(const QString& kind) const
    {
        QJsonObject found;
        for (const QByteArray& line : out.split('\n')) {
            const QJsonObject e = QJsonDocument::fromJson(line).object();
            if (e[QStringLiteral("event")].toString() == kind)
                found = e;
        }
        return found;
    }
    int count(const QString& kind) const
    {
        int n = 0;
        for (const QByteArray& line : out.split('\n'))
            n += QJsonDocument::fromJson(line).object()[QStringLiteral("event")].toString() == kind;
        return n;
    }
};

Result cli(const QStringList& args)
{
    QProcess p;
    p.start(QStringLiteral(ENTRENA_CLI), args);
    p.waitForFinished(600000);
    return {p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError()};
}

/// The fold a run held out, from its stored configuration.
int foldOf(const RunRecord& run)
{
    return QJsonDocument::fromJson(QByteArray::fromStdString(run.configJson))
        .object()[QStringLiteral("data")]
        .toObject()[QStringLiteral("fold")]
        .toInt();
}

} // namespace

class TestCrossValidation : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString config_;

    QString path(const QString& name) const { return dir_.filePath(name); }
    QString write(const QString& name, const QByteArray& text) const
    {
        QFile f(path(name));
        if (f.open(QIODevice::WriteOnly))
            f.write(text);
        return f.fileName();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        config_ = write(QStringLiteral("fm.json"),
                        QByteArray(R"({"name": "fm", "data": {"path": "FMNIST", "train_limit": 900, "test_limit": 300,
            "batch_size": 32, "workers": 0}, "model": {"arch": "mlp", "hidden": [32]},
            "optimizer": {"name": "adam", "lr": 0.003, "weight_decay": 0}, "scheduler": {"name": "constant"},
            "train": {"epochs": 2, "log_every": 10}})")
                            .replace("FMNIST", ENTRENA_FMNIST_DIR));
    }

    void everyFoldTrainsOnceAndTheMeanIsTheStoredRunsMean()
    {
        const QString db = path(QStringLiteral("cv.sqlite"));
        const Result r = cli({QStringLiteral("cv"), QStringLiteral("--config"), config_, QStringLiteral("--folds"), QStringLiteral("3"),
                              QStringLiteral("--parallel"), QStringLiteral("2"), QStringLiteral("--db"), db, QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(r.count(QStringLiteral("trial_start")), 3);
        const QJsonObject cv = r.last(QStringLiteral("cv_end"))[QStringLiteral("cv")].toObject();
        QCOMPARE(cv[QStringLiteral("folds")].toInt(), 3);
        QCOMPARE(cv[QStringLiteral("finished")].toInt(), 3);
        const QJsonObject acc = cv[QStringLiteral("figures")].toObject()[QStringLiteral("best_val_accuracy")].toObject();
        QCOMPARE(acc[QStringLiteral("values")].toArray().size(), 3);

        RunStore store(db.toStdString());
        const auto experiments = store.listExperiments();
        QCOMPARE(experiments.size(), size_t(1));
        const auto runs = store.trialsOf(experiments.front().id);
        QCOMPARE(runs.size(), size_t(3));
        double sum = 0;
        std::set<int> folds;
        for (const RunRecord& run : runs) {
            QVERIFY(run.bestValAccuracy.has_value());
            sum += *run.bestValAccuracy;
            const QJsonObject data = QJsonDocument::fromJson(QByteArray::fromStdString(run.configJson))
                                         .object()[QStringLiteral("data")]
                                         .toObject();
            QCOMPARE(data[QStringLiteral("folds")].toInt(), 3);
            folds.insert(data[QStringLiteral("fold")].toInt());
            // Each fold holds out a third of the 900 samples, and learns far above chance (0.1).
            const QJsonObject split = QJsonDocument::fromJson(QByteArray::fromStdString(run.dataJson)).object();
            QCOMPARE(split[QStringLiteral("val_samples")].toInt(), 300);
            QVERIFY2(*run.bestValAccuracy > 0.55, qPrintable(QString::number(*run.bestValAccuracy)));
        }
        QCOMPARE(folds, (std::set<int>{0, 1, 2}));
        const double mean = sum / 3;
        QVERIFY(std::abs(acc[QStringLiteral("mean")].toDouble() - mean) < 1e-9);
        double sq = 0;
        for (const RunRecord& run : runs)
            sq += (*run.bestValAccuracy - mean) * (*run.bestValAccuracy - mean);
        QVERIFY(std::abs(acc[QStringLiteral("sd")].toDouble() - std::sqrt(sq / 2)) < 1e-9);

        // Recall over the folds (issue 53: on unbalanced data accuracy ± sd hid the rare class): the
        // classes' mean of each fold's evaluation, and each class's.
        const QJsonObject figures = cv[QStringLiteral("figures")].toObject();
        const QJsonObject macro = figures[QStringLiteral("macro_recall")].toObject();
        QCOMPARE(macro[QStringLiteral("values")].toArray().size(), 3);
        double macroSum = 0;
        for (const RunRecord& run : runs) {
            const EvaluationReport report = evaluationFromJson(run.evaluationJson);
            double recall = 0;
            int classes = 0;
            for (const ClassScore& c : report.perClass)
                if (c.support > 0) {
                    recall += c.recall;
                    ++classes;
                }
            QVERIFY(classes > 1);
            macroSum += recall / classes;
            for (const ClassScore& c : report.perClass)
                if (c.support > 0)
                    QVERIFY2(figures.contains(QStringLiteral("recall:") + QString::fromStdString(c.name)), c.name.c_str());
        }
        QVERIFY(std::abs(macro[QStringLiteral("mean")].toDouble() - macroSum / 3) < 1e-9);

        // `experiments` says the same, in words and in JSON.
        const Result listed = cli({QStringLiteral("experiments"), QStringLiteral("--db"), db, QStringLiteral("--json")});
        const QJsonObject e = QJsonDocument::fromJson(listed.out).array().first().toObject();
        QCOMPARE(e[QStringLiteral("cv")].toObject()[QStringLiteral("figures")].toObject()[QStringLiteral("best_val_accuracy")]
                     .toObject()[QStringLiteral("mean")]
                     .toDouble(),
                 acc[QStringLiteral("mean")].toDouble());
        const Result words = cli({QStringLiteral("experiments"), QStringLiteral("--db"), db});
        QVERIFY2(words.out.contains("±") && words.out.contains("over 3 of 3 fold run(s)"), words.out.constData());
        QVERIFY2(words.out.contains("  3 folds") && !words.out.contains("trials"), words.out.constData()); // not "3 trials"
    }

    void aStoppedCrossValidationResumesToTheSameFolds()
    {
        // Stopped (SIGINT) once its first fold has started; --resume ends with the three folds, each once.
        const QString db = path(QStringLiteral("stopped.sqlite"));
        const QString slow = write(QStringLiteral("slow.json"), QByteArray(R"({"name": "slow", "data": {"path": "FMNIST",
            "train_limit": 3000, "test_limit": 100, "batch_size": 32, "workers": 0}, "model": {"arch": "cnn", "channels": [4, 8]},
            "scheduler": {"name": "constant"}, "train": {"epochs": 8, "log_every": 10}})")
                                                                  .replace("FMNIST", ENTRENA_FMNIST_DIR));
        QProcess p;
        p.start(QStringLiteral(ENTRENA_CLI), {QStringLiteral("cv"), QStringLiteral("--config"), slow, QStringLiteral("--folds"),
                                              QStringLiteral("3"), QStringLiteral("--db"), db, QStringLiteral("--json")});
        QVERIFY(p.waitForStarted());
        QByteArray out;
        QTRY_VERIFY_WITH_TIMEOUT((out += p.readAllStandardOutput()).contains("\"trial_start\""), 60000);
        // A moment into the first fold. With 3 epochs and a second's wait the signal came in the third
        // fold of three (the folds took ~0.4 s each here, and a faster machine would have finished);
        // with 8 epochs a fold takes ~1 s, and it is stopped ~0.3 s in.
        QTest::qWait(300);
        QVERIFY2(p.state() == QProcess::Running && p.processId() > 0, "the cross-validation ended before it could be stopped");
        ::kill(pid_t(p.processId()), SIGINT);
        QVERIFY(p.waitForFinished(120000));
        QCOMPARE(p.exitCode(), 0);
        int64_t experiment = 0;
        {
            RunStore store(db.toStdString());
            QCOMPARE(store.listExperiments().size(), size_t(1));
            QCOMPARE(store.listExperiments().front().status, std::string("stopped"));
            experiment = store.listExperiments().front().id;
        }
        const Result resumed = cli({QStringLiteral("cv"), QStringLiteral("--resume"), QString::number(experiment),
                                    QStringLiteral("--db"), db, QStringLiteral("--json")});
        QVERIFY2(resumed.exitCode == 0, resumed.err.constData());
        QCOMPARE(resumed.last(QStringLiteral("cv_end"))[QStringLiteral("cv")].toObject()[QStringLiteral("finished")].toInt(), 3);
        RunStore store(db.toStdString());
        const auto runs = store.trialsOf(experiment);
        QCOMPARE(runs.size(), size_t(3));
        std::set<int> folds;
        for (const RunRecord& run : runs) {
            QCOMPARE(run.status, RunStatus::Finished);
            folds.insert(foldOf(run));
        }
        QCOMPARE(folds, (std::set<int>{0, 1, 2}));
    }

    void aJobArraysFoldsImportIntoOneExperimentOnce()
    {
        const Result script = cli({QStringLiteral("cluster-script"), QStringLiteral("--config"), config_, QStringLiteral("--cv"),
                                   QStringLiteral("3")});
        QVERIFY2(script.exitCode == 0, script.err.constData());
        QVERIFY(script.out.contains("#SBATCH --array=0-2"));
        QVERIFY(script.out.contains("entrena-cli cv --config"));
        QVERIFY(script.out.contains("--shard \"$SLURM_ARRAY_TASK_ID/3\""));
        // Both kinds of job array at once is a mistake, not a sweep that drops --cv.
        const Result both = cli({QStringLiteral("cluster-script"), QStringLiteral("--config"), config_, QStringLiteral("--cv"),
                                 QStringLiteral("3"), QStringLiteral("--space"), write(QStringLiteral("s.json"), "{}")});
        QCOMPARE(both.exitCode, 2);
        QVERIFY2(both.err.contains("--cv and --space"), both.err.constData());
        const QString home = path(QStringLiteral("home.sqlite"));
        for (int k = 0; k < 3; ++k) {
            const QString shard = path(QStringLiteral("node%1.sqlite").arg(k));
            const Result r = cli({QStringLiteral("cv"), QStringLiteral("--config"), config_, QStringLiteral("--folds"),
                                  QStringLiteral("3"), QStringLiteral("--name"), QStringLiteral("fm 3-fold"), QStringLiteral("--shard"),
                                  QStringLiteral("%1/3").arg(k), QStringLiteral("--db"), shard, QStringLiteral("--json")});
            QVERIFY2(r.exitCode == 0, r.err.constData());
            QCOMPARE(r.count(QStringLiteral("trial_start")), 1);
            QVERIFY(cli({QStringLiteral("import"), shard, QStringLiteral("--db"), home}).exitCode == 0);
        }
        QVERIFY(cli({QStringLiteral("import"), path(QStringLiteral("node1.sqlite")), QStringLiteral("--db"), home}).exitCode == 0);
        RunStore store(home.toStdString());
        QCOMPARE(store.listExperiments().size(), size_t(1));
        const auto runs = store.trialsOf(store.listExperiments().front().id);
        QCOMPARE(runs.size(), size_t(3));
        std::set<int> folds;
        std::set<int64_t> trials; // each task's fold is its own trial of the whole: trial k is fold k
        for (const RunRecord& run : runs) {
            const int fold = foldOf(run);
            folds.insert(fold);
            trials.insert(run.trial);
            QCOMPARE(run.trial, int64_t(fold));
        }
        QCOMPARE(folds, (std::set<int>{0, 1, 2}));
        QCOMPARE(trials, (std::set<int64_t>{0, 1, 2}));
    }

    void aSweepValuesEachTrialByItsFoldsMean()
    {
        // asha over two learning rates, every trial cross-validated on 3 folds: three runs a trial,
        // one per fold; each trial's value is the best over epochs of the folds' mean, and a pruned
        // trial has every fold pruned.
        const QString db = path(QStringLiteral("sweepcv.sqlite"));
        const QString space = write(QStringLiteral("lr.json"), R"({"optimizer.lr": {"choice": [0.00003, 0.003]}})");
        const Result r = cli({QStringLiteral("sweep"), QStringLiteral("--config"), config_, QStringLiteral("--space"), space,
                              QStringLiteral("--method"), QStringLiteral("asha"), QStringLiteral("--trials"), QStringLiteral("2"),
                              QStringLiteral("--min-epochs"), QStringLiteral("1"), QStringLiteral("--reduction"), QStringLiteral("2"),
                              QStringLiteral("--cv"), QStringLiteral("3"), QStringLiteral("--parallel"), QStringLiteral("2"),
                              QStringLiteral("--db"), db, QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(r.last(QStringLiteral("sweep_start"))[QStringLiteral("cv")].toInt(), 3);
        QCOMPARE(r.count(QStringLiteral("trial_end")), 2);
        RunStore store(db.toStdString());
        const auto experiment = store.listExperiments().front();
        std::map<int, std::map<int, RunRecord>> trials; // trial: fold: run
        for (const RunRecord& run : store.trialsOf(experiment.id)) {
            const int fold = foldOf(run);
            QVERIFY2(trials[int(run.trial)].emplace(fold, run).second, "a fold trained twice");
        }
        QCOMPARE(trials.size(), size_t(2));
        int pruned = 0;
        for (const QByteArray& line : r.out.split('\n')) {
            const QJsonObject e = QJsonDocument::fromJson(line).object();
            if (e[QStringLiteral("event")].toString() != QLatin1String("trial_end"))
                continue;
            const auto& folds = trials[e[QStringLiteral("trial")].toInt()];
            QCOMPARE(folds.size(), size_t(3));
            std::vector<std::vector<MetricPoint>> series;
            for (const auto& [fold, run] : folds) {
                series.push_back(store.metrics(run.id, "val_accuracy"));
                QCOMPARE(toString(run.status), e[QStringLiteral("status")].toString().toStdString());
            }
            pruned += e[QStringLiteral("status")].toString() == QLatin1String("pruned");
            double best = -1;
            for (size_t i = 0; i < size_t(e[QStringLiteral("epochs")].toInt()); ++i)
                best = std::max(best, (series[0].at(i).value + series[1].at(i).value + series[2].at(i).value) / 3);
            QVERIFY2(std::abs(e[QStringLiteral("metric")].toDouble() - best) < 1e-9,
                     qPrintable(QStringLiteral("%1 vs %2").arg(e[QStringLiteral("metric")].toDouble()).arg(best)));
        }
        QCOMPARE(pruned, 1); // of two at the first rung, asha promotes one
        const Result listed = cli({QStringLiteral("experiments"), QStringLiteral("--db"), db, QStringLiteral("--json")});
        const QJsonObject e = QJsonDocument::fromJson(listed.out).array().first().toObject();
        QCOMPARE(e[QStringLiteral("trial_folds")].toInt(), 3);
        QCOMPARE(e[QStringLiteral("trials")].toInt(), 2);
        QCOMPARE(e[QStringLiteral("best_metric")].toDouble(), r.last(QStringLiteral("sweep_end"))[QStringLiteral("best_metric")].toDouble());
    }

    void aStoppedCrossValidatedSweepResumesToTheSameFolds()
    {
        // Stopped (SIGINT) inside its first trial's folds; --resume ends with two trials of folds {0, 1}, each once.
        const QString db = path(QStringLiteral("sweepstopped.sqlite"));
        const QString slow = write(QStringLiteral("slow-sweep.json"), QByteArray(R"({"name": "slow", "data": {"path": "FMNIST",
            "train_limit": 2000, "test_limit": 100, "batch_size": 32, "workers": 0}, "model": {"arch": "cnn", "channels": [4, 8]},
            "scheduler": {"name": "constant"}, "train": {"epochs": 8, "log_every": 10}})")
                                                                         .replace("FMNIST", ENTRENA_FMNIST_DIR));
        const QString space = write(QStringLiteral("lr2.json"), R"({"optimizer.lr": {"choice": [0.001, 0.003]}})");
        QProcess p;
        p.start(QStringLiteral(ENTRENA_CLI), {QStringLiteral("sweep"), QStringLiteral("--config"), slow, QStringLiteral("--space"), space,
                                              QStringLiteral("--method"), QStringLiteral("grid"), QStringLiteral("--cv"), QStringLiteral("2"),
                                              QStringLiteral("--db"), db, QStringLiteral("--json")});
        QVERIFY(p.waitForStarted());
        QByteArray out;
        QTRY_VERIFY_WITH_TIMEOUT((out += p.readAllStandardOutput()).contains("\"trial_start\""), 60000);
        // A moment into the first trial's folds. Regression: with 2 epochs and a second's wait, the
        // whole sweep (~1.1 s from its first trial here) had ended before the signal; 8 epochs make the
        // first trial ~1.5 s, and its folds are stopped ~0.3 s in.
        QTest::qWait(300);
        QVERIFY2(p.state() == QProcess::Running && p.processId() > 0, "the sweep ended before it could be stopped");
        ::kill(pid_t(p.processId()), SIGINT);
        QVERIFY(p.waitForFinished(120000));
        QCOMPARE(p.exitCode(), 0);
        QVERIFY2(!(out + p.readAllStandardOutput()).contains("\"status\":\"finished\",\"trials\""), "it was not stopped");
        const Result resumed = cli({QStringLiteral("sweep"), QStringLiteral("--resume"), QStringLiteral("1"), QStringLiteral("--db"), db,
                                    QStringLiteral("--json")});
        QVERIFY2(resumed.exitCode == 0, resumed.err.constData());
        QCOMPARE(resumed.last(QStringLiteral("sweep_end"))[QStringLiteral("status")].toString(), QStringLiteral("finished"));
        RunStore store(db.toStdString());
        std::map<int, std::set<int>> folds;
        for (const RunRecord& run : store.trialsOf(1)) {
            QCOMPARE(run.status, RunStatus::Finished);
            QVERIFY(folds[int(run.trial)]
                        .insert(foldOf(run))
                        .second);
        }
        QCOMPARE(folds, (std::map<int, std::set<int>>{{0, {0, 1}}, {1, {0, 1}}}));
    }

    void aSweepsFoldsAreRefusedWhereTheyCannotWork_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QByteArray>("space");
        QTest::addColumn<QString>("says");
        const QByteArray lr = R"({"optimizer.lr": {"choice": [0.001, 0.01]}})";
        QTest::newRow("pbt copies weights") << QStringList{QStringLiteral("--method"), QStringLiteral("pbt")} << lr
                                            << QStringLiteral("the folds of one trial cannot share");
        QTest::newRow("folds in the space") << QStringList{} << QByteArray(R"({"data.fold": {"choice": [0, 1]}})")
                                            << QStringLiteral("remove data.fold");
        QTest::newRow("too many folds for a class")
            << QStringList{QStringLiteral("--config"), write(QStringLiteral("fm40.json"), [this] {
                   QFile f(config_);
                   return f.open(QIODevice::ReadOnly) ? f.readAll().replace("\"train_limit\": 900", "\"train_limit\": 40") : QByteArray();
               }()),
                           QStringLiteral("--cv"), QStringLiteral("10")}
            << lr << QStringLiteral("is more than class");
    }

    void aSweepsFoldsAreRefusedWhereTheyCannotWork()
    {
        QFETCH(QStringList, args);
        QFETCH(QByteArray, space);
        QFETCH(QString, says);
        const QString db = path(QStringLiteral("badsweep.sqlite"));
        QStringList all{QStringLiteral("sweep"), QStringLiteral("--space"), write(QStringLiteral("bad-space.json"), space),
                        QStringLiteral("--db"), db};
        if (!args.contains(QStringLiteral("--config")))
            all << QStringLiteral("--config") << config_;
        if (!args.contains(QStringLiteral("--cv")))
            all << QStringLiteral("--cv") << QStringLiteral("3");
        const Result r = cli(all + args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(QString::fromUtf8(r.err).contains(says), r.err.constData());
        QVERIFY(!QFile::exists(db));
    }

    void badFoldsExitTwoAndStoreNothing_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("says");
        QTest::newRow("one fold") << QStringList{QStringLiteral("--folds"), QStringLiteral("1")} << QStringLiteral("at least 2");
        // 40 samples: some class has fewer than 10.
        QTest::newRow("more folds than a class has") << QStringList{QStringLiteral("--folds"), QStringLiteral("10"),
                                                                    QStringLiteral("--set"), QStringLiteral("data.train_limit=40")}
                                                     << QStringLiteral("is more than class");
    }

    void badFoldsExitTwoAndStoreNothing()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, says);
        const QString db = path(QStringLiteral("bad.sqlite"));
        const Result r = cli(QStringList{QStringLiteral("cv"), QStringLiteral("--config"), config_, QStringLiteral("--db"), db} + args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(QString::fromUtf8(r.err).contains(says), r.err.constData());
        QVERIFY2(!r.err.contains("c10::") && !r.err.contains("Exception raised from"), r.err.constData());
        QVERIFY(!QFile::exists(db));
    }

    void balancingATableOfOneClassIsRefused()
    {
        QByteArray table = "a,b,label\n";
        for (int i = 0; i < 40; ++i)
            table += QByteArray::number(i) + "," + QByteArray::number(i % 7) + ",only\n";
        const QString csv = write(QStringLiteral("one.csv"), table);
        const QString db = path(QStringLiteral("one.sqlite"));
        const Result r = cli({QStringLiteral("cv"), QStringLiteral("--config"), config_, QStringLiteral("--folds"), QStringLiteral("2"),
                              QStringLiteral("--set"), QStringLiteral("data.dataset=csv"), QStringLiteral("--set"),
                              QStringLiteral("data.path=") + csv, QStringLiteral("--set"), QStringLiteral("data.balance=weights"),
                              QStringLiteral("--db"), db});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("nothing to balance"), r.err.constData());
        QVERIFY(!QFile::exists(db));
    }
};

QTEST_GUILESS_MAIN(TestCrossValidation)
#include "tst_cv.moc"
