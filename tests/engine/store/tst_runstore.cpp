// The run store: round trip, reopen, batching, interrupted runs, and stores it must not touch.
#include "entrena/store/RunStore.h"
#include "store/Schema.h"

#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <set>
#include <sqlite3.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace entrena;

namespace {

void rawExec(const QString& path, const char* sql)
{
    sqlite3* db = nullptr;
    QCOMPARE(sqlite3_open(path.toUtf8().constData(), &db), SQLITE_OK);
    QCOMPARE(sqlite3_exec(db, sql, nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(db);
}

/// A store exactly as schema `version` left it: the migrations up to it, as an Entrena of that
/// version wrote them, and one finished run with a validation metric.
void writeStoreOfSchema(const QString& path, int version)
{
    for (int i = 0; i < version; ++i)
        rawExec(path, entrena::migrationSql(i));
    rawExec(
        path,
        ("PRAGMA user_version = " + std::to_string(version) +
         ";"
         "INSERT INTO runs (uuid, name, status, created, config, best_val_accuracy, test_accuracy) "
         "VALUES ('u-1', 'kept', 'finished', '2026-01-01T00:00:00Z', '{\"data\": {\"dataset\": \"fashion-mnist\"}}', 0.8, 0.7);"
         "INSERT INTO metrics (run, key, step, epoch, wall_time, value) VALUES (1, 'val_accuracy', 10, 1, 0, 0.8);")
            .c_str());
}

QString rawText(const QString& path, const char* sql)
{
    sqlite3* db = nullptr;
    sqlite3_open(path.toUtf8().constData(), &db);
    sqlite3_stmt* s = nullptr;
    sqlite3_prepare_v2(db, sql, -1, &s, nullptr);
    QString out;
    if (sqlite3_step(s) == SQLITE_ROW)
        out = QString::fromUtf8(reinterpret_cast<const char*>(sqlite3_column_text(s, 0)));
    sqlite3_finalize(s);
    sqlite3_close(db);
    return out;
}

QByteArray bytesOf(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

pid_t deadPid()
{
    const pid_t child = fork();
    if (child == 0)
        _exit(0);
    waitpid(child, nullptr, 0);
    return child;
}

} // namespace

class TestRunStore : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void roundTripSurvivesReopen()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("sub/runs.sqlite"));
        int64_t id = 0;
        {
            RunStore store(path.toStdString());
            id = store.createRun("alpha", R"({"seed":1})", R"({"threads":2})");
            store.addMetric(id, "train_loss", 1, 1, 2.5);
            store.addMetric(id, "train_loss", 2, 1, 1.5);
            store.addMetric(id, "val_accuracy", 2, 1, 0.75);
            store.addEvent(id, 2, "lr_reduced", "0.1 -> 0.05");
            store.addCheckpoint(id, {2, 1, "/tmp/a.pt", 0.75, true, 1234});
            EndEvent end;
            end.status = RunStatus::Finished;
            end.testAccuracy = 0.8;
            end.bestValAccuracy = 0.75;
            end.seconds = 3.5;
            end.samplesPerSec = 1000;
            store.finishRun(id, RunStatus::Finished, end, 1.5);
        }
        QCOMPARE(rawText(path, "PRAGMA user_version"), QString::number(RunStore::kSchemaVersion));
        QCOMPARE(rawText(path, "PRAGMA journal_mode"), QStringLiteral("wal"));

        RunStore store(path.toStdString());
        const auto runs = store.listRuns();
        QCOMPARE(runs.size(), size_t(1));
        const RunRecord& r = runs[0];
        QCOMPARE(r.id, id);
        QCOMPARE(r.name, std::string("alpha"));
        QCOMPARE(r.status, RunStatus::Finished);
        QCOMPARE(r.configJson, std::string(R"({"seed":1})"));
        QCOMPARE(r.environmentJson, std::string(R"({"threads":2})"));
        QCOMPARE(*r.testAccuracy, 0.8);
        QCOMPARE(*r.bestValAccuracy, 0.75);
        QCOMPARE(*r.finalTrainLoss, 1.5);
        QCOMPARE(r.uuid.size(), size_t(36));
        QVERIFY(!r.created.empty() && !r.ended.empty());
        const auto loss = store.metrics(id, "train_loss");
        QCOMPARE(loss.size(), size_t(2));
        QCOMPARE(loss[1].step, int64_t(2));
        QCOMPARE(loss[1].value, 1.5);
        QCOMPARE(store.metricKeys(id), (std::vector<std::string>{"train_loss", "val_accuracy"}));
        QCOMPARE(store.events(id).size(), size_t(1));
        QCOMPARE(store.events(id)[0].kind, std::string("lr_reduced"));
        QCOMPARE(store.checkpoints(id).size(), size_t(1));
        QVERIFY(store.checkpoints(id)[0].isBest);
        QCOMPARE(store.findRun("alpha")->id, id);
        QCOMPARE(store.findRun(std::to_string(id))->name, std::string("alpha"));
        QVERIFY(!store.findRun("nobody").has_value());
    }

    void metricsAreWrittenAtLeastEverySecond()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("runs.sqlite")).toStdString();
        RunStore writer(path);
        RunStore reader(path); // a second connection, as the GUI has
        const int64_t id = writer.createRun("batched", "{}", "{}");
        writer.addMetric(id, "loss", 1, 1, 1.0);
        QVERIFY(reader.metrics(id, "loss").empty()); // buffered
        QTest::qSleep(1100);
        writer.addMetric(id, "loss", 2, 1, 0.9); // a second has passed: this write flushes both
        QCOMPARE(reader.metrics(id, "loss").size(), size_t(2));
        writer.addMetric(id, "loss", 3, 1, 0.8);
        writer.flush();
        QCOMPARE(reader.metrics(id, "loss").size(), size_t(3));
    }

    void decimationKeepsExtremes()
    {
        QTemporaryDir dir;
        RunStore store(dir.filePath(QStringLiteral("big.sqlite")).toStdString());
        const int64_t id = store.createRun("long", "{}", "{}");
        constexpr int n = 100000;
        for (int i = 1; i <= n; ++i) {
            double v = 1.0 + 0.1 * std::sin(i * 0.01);
            if (i == 31337)
                v = 50.0; // one spike, as a diverging step would make
            if (i == 77777)
                v = -20.0; // and one dip
            store.addMetric(id, "loss", i, 1 + i / 1000, v);
        }
        store.flush();
        const auto d = store.decimatedMetrics(id, "loss", 400);
        QVERIFY(d.size() <= 4 * 400);
        QVERIFY(d.size() >= 400);
        QCOMPARE(d.front().step, int64_t(1));
        QCOMPARE(d.back().step, int64_t(n));
        QVERIFY(std::is_sorted(d.begin(), d.end(), [](const MetricPoint& a, const MetricPoint& b) { return a.step < b.step; }));
        auto at = [&](int64_t step) {
            return std::find_if(d.begin(), d.end(), [&](const MetricPoint& p) { return p.step == step; });
        };
        QVERIFY(at(31337) != d.end());
        QCOMPARE(at(31337)->value, 50.0);
        QVERIFY(at(77777) != d.end());
        QCOMPARE(at(77777)->value, -20.0);
        // A short series comes back whole.
        QCOMPARE(store.decimatedMetrics(id, "loss", 100000).size(), size_t(n));
    }

    void tagsNotesRenameArchiveAndDelete()
    {
        QTemporaryDir dir;
        RunStore store(dir.filePath(QStringLiteral("edit.sqlite")).toStdString());
        const int64_t a = store.createRun("a", "{}", "{}");
        const int64_t b = store.createRun("b", "{}", "{}");
        EndEvent end;
        store.finishRun(a, RunStatus::Finished, end, std::nullopt);
        store.finishRun(b, RunStatus::Stopped, end, std::nullopt);
        store.setTags(a, {"baseline", "cnn", "cnn"});
        QCOMPARE(store.tags(a), (std::vector<std::string>{"baseline", "cnn"}));
        store.setNotes(a, "the one to beat");
        store.rename(b, "b, renamed");
        QCOMPARE(store.findRun(std::to_string(a))->notes, std::string("the one to beat"));
        QCOMPARE(store.findRun(std::to_string(b))->name, std::string("b, renamed"));
        QVERIFY_THROWS_EXCEPTION(StoreError, store.rename(b, ""));

        RunFilter byTag;
        byTag.tag = "baseline";
        QCOMPARE(store.listRuns(byTag).size(), size_t(1));
        RunFilter byStatus;
        byStatus.status = RunStatus::Stopped;
        QCOMPARE(store.listRuns(byStatus).front().id, b);

        store.setArchived(a, true);
        QCOMPARE(store.listRuns().size(), size_t(1));
        RunFilter all;
        all.includeArchived = true;
        QCOMPARE(store.listRuns(all).size(), size_t(2));

        const QString file = dir.filePath(QStringLiteral("b.pt"));
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("x");
        f.close();
        store.addCheckpoint(b, {1, 1, file.toStdString(), 0.5, false, 1, ""});
        store.addMetric(b, "loss", 1, 1, 1.0);
        store.flush();
        QVERIFY(store.deleteRun(b).empty());
        QVERIFY(!QFile::exists(file));
        QVERIFY(!store.findRun(std::to_string(b)).has_value());
        QVERIFY(store.metrics(b, "loss").empty());
        QVERIFY(store.checkpoints(b).empty());
        const int64_t running = store.createRun("live", "{}", "{}");
        QVERIFY_THROWS_EXCEPTION(StoreError, store.deleteRun(running));
    }

    void writerAndReaderAtOnce()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("busy.sqlite")).toStdString();
        RunStore writer(path);
        const int64_t id = writer.createRun("busy", "{}", "{}");
        std::atomic<bool> done{false};
        std::atomic<int> readerErrors{0};
        std::atomic<size_t> lastSeen{0};
        std::thread reader([&] {
            RunStore r(path);
            while (!done) {
                try {
                    r.listRuns();
                    const size_t seen = r.metrics(id, "loss").size();
                    if (seen < lastSeen)
                        ++readerErrors; // a reader never sees fewer points than before
                    lastSeen = seen;
                } catch (const StoreError&) {
                    ++readerErrors;
                }
            }
        });
        for (int i = 0; i < 20000; ++i) {
            writer.addMetric(id, "loss", i, 1, double(i));
            if (i % 2000 == 0)
                writer.flush();
        }
        writer.flush();
        done = true;
        reader.join();
        QCOMPARE(readerErrors.load(), 0);
        QCOMPARE(RunStore(path).metrics(id, "loss").size(), size_t(20000));
    }

    void runOfADeadProcessBecomesInterrupted()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("runs.sqlite"));
        int64_t orphan = 0, alive = 0;
        {
            RunStore store(path.toStdString());
            orphan = store.createRun("orphan", "{}", "{}");
            alive = store.createRun("alive", "{}", "{}");
        }
        rawExec(path, qPrintable(QStringLiteral("UPDATE runs SET owner_pid=%1 WHERE id=%2").arg(deadPid()).arg(orphan)));
        RunStore store(path.toStdString());
        QCOMPARE(store.findRun(std::to_string(orphan))->status, RunStatus::Interrupted);
        QCOMPARE(store.findRun(std::to_string(alive))->status, RunStatus::Running); // this process lives
    }

    void storesOfEveryEarlierSchemaAreMigrated_data()
    {
        QTest::addColumn<int>("version");
        QTest::newRow("schema 1 (no checksums)") << 1;
        QTest::newRow("schema 2 (no peak memory, no final validation loss)") << 2;
        QTest::newRow("schema 3 (no series overview)") << 3;
    }

    void storesOfEveryEarlierSchemaAreMigrated()
    {
        QFETCH(int, version);
        // A store as Entrena 0.1 wrote it (schema 1: checkpoints without checksums), then as
        // schema 2 left it.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("old.sqlite"));
        rawExec(path, R"sql(
            CREATE TABLE runs (id INTEGER PRIMARY KEY, uuid TEXT NOT NULL UNIQUE, name TEXT NOT NULL,
                status TEXT NOT NULL, created TEXT NOT NULL, started TEXT, ended TEXT, config TEXT NOT NULL,
                environment TEXT NOT NULL DEFAULT '{}', parent_run INTEGER REFERENCES runs(id) ON DELETE SET NULL,
                notes TEXT NOT NULL DEFAULT '', error TEXT NOT NULL DEFAULT '', owner_pid INTEGER, owner_host TEXT,
                heartbeat TEXT, best_val_accuracy REAL, test_accuracy REAL, final_train_loss REAL, samples_per_s REAL,
                seconds REAL, archived INTEGER NOT NULL DEFAULT 0);
            CREATE TABLE tags (run INTEGER NOT NULL, tag TEXT NOT NULL, PRIMARY KEY (run, tag));
            CREATE TABLE metrics (run INTEGER NOT NULL, key TEXT NOT NULL, step INTEGER NOT NULL, epoch INTEGER NOT NULL,
                wall_time REAL NOT NULL, value REAL NOT NULL);
            CREATE TABLE events (id INTEGER PRIMARY KEY, run INTEGER NOT NULL, step INTEGER NOT NULL, time TEXT NOT NULL,
                kind TEXT NOT NULL, message TEXT NOT NULL);
            CREATE TABLE checkpoints (id INTEGER PRIMARY KEY, run INTEGER NOT NULL, step INTEGER NOT NULL,
                epoch INTEGER NOT NULL, path TEXT NOT NULL, metric REAL, is_best INTEGER NOT NULL DEFAULT 0,
                bytes INTEGER NOT NULL DEFAULT 0);
            INSERT INTO runs (id, uuid, name, status, created, config, test_accuracy)
                VALUES (7, 'u-7', 'old run', 'finished', '2026-01-01T00:00:00.000Z', '{}', 0.875);
            INSERT INTO metrics VALUES (7, 'train_loss', 10, 1, 1.0, 0.5);
            INSERT INTO metrics VALUES (7, 'memory_bytes', 10, 1, 1.0, 300.0), (7, 'memory_bytes', 20, 1, 2.0, 500.0),
                                       (7, 'memory_bytes', 30, 2, 3.0, 400.0);
            INSERT INTO metrics VALUES (7, 'val_loss', 15, 1, 1.5, 0.9), (7, 'val_loss', 30, 2, 3.0, 0.7);
            INSERT INTO checkpoints (run, step, epoch, path, metric, is_best, bytes) VALUES (7, 10, 1, '/x.pt', 0.8, 1, 99);
            PRAGMA user_version = 1;
        )sql");
        if (version >= 2)
            rawExec(path, "ALTER TABLE checkpoints ADD COLUMN checksum TEXT NOT NULL DEFAULT ''; PRAGMA user_version = 2;");
        if (version >= 3) // as Entrena with schema 3 left it: the summary columns filled in
            rawExec(path, "ALTER TABLE runs ADD COLUMN peak_memory_bytes REAL; ALTER TABLE runs ADD COLUMN final_val_loss REAL; "
                          "UPDATE runs SET peak_memory_bytes=500, final_val_loss=0.7; PRAGMA user_version = 3;");
        RunStore store(path.toStdString());
        QCOMPARE(rawText(path, "PRAGMA user_version"), QString::number(RunStore::kSchemaVersion));
        const auto run = store.findRun("old run");
        QVERIFY(run.has_value());
        QCOMPARE(run->id, int64_t(7));
        QCOMPARE(*run->testAccuracy, 0.875);
        QCOMPARE(store.metrics(7, "train_loss").size(), size_t(1));
        const auto checkpoints = store.checkpoints(7);
        QCOMPARE(checkpoints.size(), size_t(1));
        QCOMPARE(checkpoints[0].bytes, int64_t(99));
        QCOMPARE(checkpoints[0].checksum, std::string()); // unknown for old checkpoints: not verified
        // Schema 3 fills the browser's summary columns in for runs stored before it, schema 4
        // their series' overview.
        QCOMPARE(*run->peakMemoryBytes, 500.0);
        QCOMPARE(*run->finalValLoss, 0.7);
        int64_t points = 0;
        const MetricColumns overview = store.metricOverview(7, "memory_bytes", &points);
        QCOMPARE(points, int64_t(3));
        QCOMPARE(overview.value, std::vector<double>({300.0, 500.0, 400.0}));
    }

    void schema4StoreGainsBaselines()
    {
        // A store as schema 4 left it: everything but the baselines table.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("v4.sqlite"));
        writeStoreOfSchema(path, 4);
        const int64_t id = 1;
        RunStore store(path.toStdString());
        QCOMPARE(rawText(path, "PRAGMA user_version"), QString::number(RunStore::kSchemaVersion));
        QVERIFY(store.baselines().empty());
        store.setBaseline(id);
        QCOMPARE(store.baselines().at("fashion-mnist"), id);
        QCOMPARE(store.metrics(id, "val_accuracy").size(), size_t(1));
    }

    void schema5StoreGainsDataAndEvaluation()
    {
        // A store as schema 5 left it: no `data` or `evaluation` columns. Its runs keep everything
        // and read back with neither; a run finished after the migration keeps both.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("v5.sqlite"));
        writeStoreOfSchema(path, 5);
        const int64_t old = 1;
        RunStore store(path.toStdString());
        QCOMPARE(rawText(path, "PRAGMA user_version"), QString::number(RunStore::kSchemaVersion));
        const auto before = store.findRun(std::to_string(old));
        QVERIFY(before && before->dataJson.empty() && before->evaluationJson.empty());
        QCOMPARE(*before->testAccuracy, 0.7);

        const int64_t id = store.createRun("new", "{}", "{}");
        store.setRunData(id, R"({"classes":["cat","dog"],"input_shape":[3,8,8]})");
        EndEvent end;
        end.evaluation.split = "test";
        end.evaluation.classes = {"cat", "dog"};
        end.evaluation.confusion = {{3, 1}, {0, 4}};
        end.evaluation.perClass = {{"cat", 1.0, 0.75, 4}, {"dog", 0.8, 1.0, 4}};
        store.finishRun(id, RunStatus::Finished, end, 0.1);
        const auto after = store.findRun(std::to_string(id));
        QVERIFY(after->dataJson.find("\"dog\"") != std::string::npos);
        const EvaluationReport back = evaluationFromJson(after->evaluationJson);
        QCOMPARE(back.split, std::string("test"));
        QCOMPARE(back.confusion, (std::vector<std::vector<int64_t>>{{3, 1}, {0, 4}}));
        QCOMPARE(back.perClass.at(0).recall, 0.75);
        QCOMPARE(back.perClass.at(1).support, int64_t(4));
    }

    void storesOpenedAtOnceAreMigratedOnce()
    {
        // Regression: a sweep's store opened by two processes while it was being created ran a
        // migration twice ("duplicate column name: data"). Four openers at once, several times.
        for (int round = 0; round < 5; ++round) {
            QTemporaryDir dir;
            const std::string path = dir.filePath(QStringLiteral("new.sqlite")).toStdString();
            std::vector<std::thread> openers;
            std::atomic<int> failures{0};
            for (int i = 0; i < 4; ++i)
                openers.emplace_back([&] {
                    try {
                        RunStore store(path);
                    } catch (const std::exception& e) {
                        qWarning("%s", e.what());
                        ++failures;
                    }
                });
            for (auto& t : openers)
                t.join();
            QCOMPARE(failures.load(), 0);
            QCOMPARE(rawText(QString::fromStdString(path), "PRAGMA user_version"), QString::number(RunStore::kSchemaVersion));
        }
    }

    void schema6StoreGainsExperimentsAndThePrunedStatus()
    {
        // Schema 7 rebuilds `runs` (its status check gains `pruned`): every row that refers to a run
        // (metrics, checkpoints, tags) must survive it.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("v6.sqlite"));
        writeStoreOfSchema(path, 6);
        rawExec(path, "INSERT INTO tags (run, tag) VALUES (1, 'keep');"
                      "INSERT INTO checkpoints (run, step, epoch, path) VALUES (1, 10, 1, '/x.pt');");
        RunStore store(path.toStdString());
        QCOMPARE(rawText(path, "PRAGMA user_version"), QString::number(RunStore::kSchemaVersion));
        QCOMPARE(store.metrics(1, "val_accuracy").size(), size_t(1));
        QCOMPARE(store.tags(1), std::vector<std::string>{"keep"});
        QCOMPARE(store.checkpoints(1).size(), size_t(1));
        QCOMPARE(rawText(path, "PRAGMA foreign_key_check"), QString());
        store.setRunStatus(1, RunStatus::Pruned);
        QCOMPARE(store.findRun("1")->status, RunStatus::Pruned);
        ExperimentRecord e;
        e.name = "sweep";
        e.method = "asha";
        e.spaceJson = "{}";
        e.metric = "val_accuracy";
        e.baseConfigJson = "{}";
        const int64_t experiment = store.createExperiment(e);
        store.setTrial(1, experiment, 0);
        QCOMPARE(store.trialsOf(experiment).size(), size_t(1));
        QCOMPARE(store.findExperiment("sweep")->method, std::string("asha"));
        // Deleting a run still deletes what refers to it (the foreign keys are on again).
        store.deleteRun(1);
        QCOMPARE(rawText(path, "SELECT COUNT(*) FROM metrics"), QStringLiteral("0"));
    }

    void overviewHoldsEveryBlocksExtremesAcrossFlushesAndResume()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("blocks.sqlite"));
        constexpr int n = 10000;
        std::vector<double> values(n + 1);
        int64_t id = 0;
        {
            RunStore store(path.toStdString());
            id = store.createRun("blocks", "{}", "{}");
            for (int i = 1; i <= n; ++i) {
                values[i] = std::sin(i * 0.37) + (i == 4321 ? 30.0 : 0.0) - (i == 9000 ? 30.0 : 0.0);
                store.addMetric(id, "loss", i, 1, values[i]);
                store.addMetric(id, "lr", i, 1, 0.1);
                if (i % 777 == 0)
                    store.flush(); // flushes end inside blocks: the blocks must merge
            }
        }
        // Every block of 256 consecutive points: its first, last, lowest and highest, nothing else.
        auto expected = [&](int last) {
            std::set<std::pair<double, double>> want;
            for (int b = 1; b <= last; b += 256) {
                const int e = std::min(last, b + 255);
                int lo = b, hi = b;
                for (int i = b; i <= e; ++i) {
                    lo = values[i] < values[lo] ? i : lo;
                    hi = values[i] > values[hi] ? i : hi;
                }
                for (int i : {b, e, lo, hi})
                    want.insert({double(i), values[i]});
            }
            return want;
        };
        auto actual = [&](RunStore& store, int64_t* points) {
            const MetricColumns o = store.metricOverview(id, "loss", points);
            std::set<std::pair<double, double>> got;
            for (std::size_t i = 0; i < o.size(); ++i)
                got.insert({o.step[i], o.value[i]});
            return got;
        };
        RunStore store(path.toStdString());
        int64_t points = 0;
        QCOMPARE(actual(store, &points), expected(n));
        QCOMPARE(points, int64_t(n));
        QVERIFY(actual(store, nullptr).count({4321.0, values[4321]}));
        // A resumed run drops what came after its checkpoint; the overview follows.
        store.reopenRun(id, 5000);
        QCOMPARE(actual(store, &points), expected(5000));
        QCOMPARE(points, int64_t(5000));
        for (int i = 5001; i <= 5600; ++i)
            store.addMetric(id, "loss", i, 1, values[i] = 2.0);
        store.flush();
        QCOMPARE(actual(store, &points), expected(5600));
        // Deleting the run deletes its overview.
        store.finishRun(id, RunStatus::Finished, EndEvent{}, std::nullopt);
        store.deleteRun(id);
        QCOMPARE(rawText(path, "SELECT COUNT(*) FROM metric_blocks"), QStringLiteral("0"));
    }

    void newerSchemaIsRefusedAndLeftUnchanged()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("runs.sqlite"));
        {
            RunStore store(path.toStdString());
            store.createRun("old", "{}", "{}");
        }
        rawExec(path, "PRAGMA journal_mode=DELETE; PRAGMA user_version=99");
        const QByteArray before = bytesOf(path);
        try {
            RunStore store(path.toStdString());
            QFAIL("opened a store from a newer version");
        } catch (const StoreError& e) {
            QVERIFY2(QString::fromStdString(e.what()).contains(QStringLiteral("newer")), e.what());
        }
        QCOMPARE(bytesOf(path), before);
        QVERIFY(!QFile::exists(path + QStringLiteral("-wal")));
    }

    void fileThatIsNotSqliteIsRefusedAndLeftUnchanged()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("notes.txt"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray("these are my notes, not a database\n").repeated(200));
        f.close();
        const QByteArray before = bytesOf(path);
        try {
            RunStore store(path.toStdString());
            QFAIL("opened a text file as a store");
        } catch (const StoreError& e) {
            QVERIFY2(QString::fromStdString(e.what()).contains(QStringLiteral("not an Entrena run store")), e.what());
        }
        QCOMPARE(bytesOf(path), before);
    }

    void unwritableLocationIsAClearError()
    {
        QTemporaryDir dir;
        const QString blocker = dir.filePath(QStringLiteral("file"));
        QFile f(blocker);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.close();
        try {
            RunStore store((blocker + QStringLiteral("/sub/runs.sqlite")).toStdString());
            QFAIL("opened a store below a file");
        } catch (const StoreError& e) {
            QVERIFY2(QString::fromStdString(e.what()).contains(QStringLiteral("--db")), e.what());
        }
    }

    // Issue 29: a.sqlite and b.sqlite in one folder wrote the same checkpoints/run-1/.
    void storesInOneFolderOwnTheirFiles()
    {
        QTemporaryDir dir;
        RunStore a(dir.filePath(QStringLiteral("a.sqlite")).toStdString());
        RunStore b(dir.filePath(QStringLiteral("b.sqlite")).toStdString());
        const int64_t ra = a.createRun("one", "{}", "{}"), rb = b.createRun("one", "{}", "{}");
        QCOMPARE(ra, rb); // the same id in each store …
        QVERIFY(!a.uuid().empty() && a.uuid() != b.uuid());
        QVERIFY(a.runFolder(ra) != b.runFolder(rb)); // … and folders of their own
        const QString folder = QString::fromStdString(a.runFolder(ra));
        QVERIFY2(folder.startsWith(dir.filePath(QStringLiteral("checkpoints/")) + QString::fromStdString(a.uuid())),
                 qPrintable(folder));
        QVERIFY2(folder.endsWith(QString::fromStdString(a.findRun("1")->uuid.substr(0, 8))), qPrintable(folder));
        // An id that comes back after a delete gets a folder of its own too.
        a.setRunStatus(ra, RunStatus::Finished);
        a.deleteRun(ra);
        const int64_t again = a.createRun("two", "{}", "{}");
        QCOMPARE(again, ra);
        QVERIFY(QString::fromStdString(a.runFolder(again)) != folder);
        // The same store opened again keeps its id.
        const std::string id = a.uuid();
        QCOMPARE(RunStore(a.path()).uuid(), id);
    }

    // Issue 33: paths are kept relative to the store's folder, and read back absolute.
    void pathsAreKeptRelativeToTheStoresFolder()
    {
        QTemporaryDir dir;
        RunStore store(dir.filePath(QStringLiteral("runs.sqlite")).toStdString());
        const int64_t run = store.createRun("r", "{}", "{}");
        const std::string file = store.runFolder(run) + "/epoch-1.pt";
        QVERIFY(QDir().mkpath(QString::fromStdString(store.runFolder(run))));
        QFile(QString::fromStdString(file)).open(QIODevice::WriteOnly);
        store.addCheckpoint(run, {10, 1, file, 0.5, true, 1, ""});
        const QString stored = rawText(dir.filePath(QStringLiteral("runs.sqlite")), "SELECT path FROM checkpoints");
        QVERIFY2(stored.startsWith(QStringLiteral("checkpoints/")) && !stored.startsWith(QLatin1Char('/')), qPrintable(stored));
        QCOMPARE(store.checkpoints(run).at(0).path, file);
        QCOMPARE(store.storedPath("/somewhere/else.pt"), std::string("/somewhere/else.pt")); // outside: as given
    }

    // Rows written before schema 8 hold absolute paths (or ones relative to where training ran): a
    // store moved with its checkpoints/ folder still finds them.
    void oldPathsAreFoundInAMovedStore()
    {
        QTemporaryDir dir;
        const QString moved = dir.filePath(QStringLiteral("now"));
        QVERIFY(QDir().mkpath(moved + QStringLiteral("/checkpoints/run-1")));
        QFile(moved + QStringLiteral("/checkpoints/run-1/epoch-1.pt")).open(QIODevice::WriteOnly);
        RunStore store((moved + QStringLiteral("/runs.sqlite")).toStdString());
        QCOMPARE(store.resolvePath("/home/gone/project/checkpoints/run-1/epoch-1.pt"),
                 (moved + QStringLiteral("/checkpoints/run-1/epoch-1.pt")).toStdString());
        QCOMPARE(store.resolvePath("sub/checkpoints/run-1/epoch-1.pt"),
                 (moved + QStringLiteral("/checkpoints/run-1/epoch-1.pt")).toStdString());
        // Nowhere to be found: named where the store looked for it.
        QCOMPARE(store.resolvePath("checkpoints/run-2/epoch-1.pt"),
                 (moved + QStringLiteral("/checkpoints/run-2/epoch-1.pt")).toStdString());
    }

    void defaultPathFollowsXdg()
    {
        qputenv("XDG_DATA_HOME", "/tmp/xdg-test");
        QCOMPARE(RunStore::defaultPath(), std::string("/tmp/xdg-test/entrena/runs.sqlite"));
        qunsetenv("XDG_DATA_HOME");
        qputenv("HOME", "/home/someone");
        QCOMPARE(RunStore::defaultPath(), std::string("/home/someone/.local/share/entrena/runs.sqlite"));
    }
};

QTEST_APPLESS_MAIN(TestRunStore)
#include "tst_runstore.moc"
