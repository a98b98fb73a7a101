// A user's machine that fails (docs/run-store.md#faults): a disk that fills while a checkpoint is
// written, a store on read-only media, and a store from elsewhere whose rows point at files outside
// it. Real faults, not mocks: a small tmpfs and read-only bind mounts, in a mount namespace of the
// test's own (it needs root, as CI runs; elsewhere the test says it cannot run and skips).
#include "entrena/store/RunStore.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <sched.h>
#include <sqlite3.h>
#include <sys/mount.h>
#include <unistd.h>

using namespace entrena;

namespace {

struct Result {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

Result cli(const QStringList& args)
{
    QProcess p;
    p.start(QStringLiteral(ENTRENA_CLI), args);
    p.waitForFinished(300000);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(), p.readAllStandardError()};
}

/// Mounts of this process and its children only, gone when it exits. Set up in main(), while the
/// process has one thread (unshare refuses a mount namespace to a threaded process).
QString g_noMounts;

void privateMounts()
{
    if (geteuid() != 0)
        g_noMounts = QStringLiteral("needs root for its tmpfs and read-only bind mounts (CI runs as root)");
    else if (unshare(CLONE_NEWNS) != 0 || mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0)
        g_noMounts = QStringLiteral("cannot make a mount namespace: %1").arg(QString::fromLocal8Bit(strerror(errno)));
}

/// Every mount the test made, undone after each test function (a failed check leaves early).
QStringList g_mounts;

bool mountTmpfs(const QString& dir, const char* options)
{
    const bool done = QDir().mkpath(dir) && mount("tmpfs", dir.toUtf8().constData(), "tmpfs", 0, options) == 0;
    if (done)
        g_mounts.prepend(dir);
    return done;
}

/// `from` seen read-only at `to`, as read-only media or a read-only share is.
bool mountReadOnly(const QString& from, const QString& to)
{
    const QByteArray f = from.toUtf8(), t = to.toUtf8();
    if (!QDir().mkpath(to) || mount(f.constData(), t.constData(), nullptr, MS_BIND, nullptr) != 0)
        return false;
    g_mounts.prepend(to);
    return mount(nullptr, t.constData(), nullptr, MS_BIND | MS_REMOUNT | MS_RDONLY, nullptr) == 0;
}

QByteArray bytesOf(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

void rawExec(const QString& path, const QString& sql)
{
    sqlite3* db = nullptr;
    QCOMPARE(sqlite3_open(path.toUtf8().constData(), &db), SQLITE_OK);
    QCOMPARE(sqlite3_exec(db, sql.toUtf8().constData(), nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(db);
}

/// Every file below `dir` whose name ends with `suffix`.
QStringList filesEndingWith(const QString& dir, const QString& suffix)
{
    QStringList out;
    for (QDirIterator it(dir, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories); it.hasNext();)
        if (const QString f = it.next(); f.endsWith(suffix))
            out << f;
    return out;
}

/// `runs --json` of `db`: the runs, or an empty array (and the failure) when it did not list them.
QJsonArray listed(const QString& db)
{
    const Result r = cli({QStringLiteral("runs"), QStringLiteral("--db"), db, QStringLiteral("--json")});
    if (r.exitCode != 0)
        qWarning() << "runs failed:" << r.exitCode << r.err;
    return QJsonDocument::fromJson(r.out).array();
}

QJsonObject lastEvent(const QByteArray& out)
{
    const auto lines = out.trimmed().split('\n');
    return QJsonDocument::fromJson(lines.last()).object();
}

// The default CNN (a checkpoint of 3.4 MB: weights and momentum) on a Fashion-MNIST subset, a checkpoint every epoch, all kept.
const QByteArray kCnn = "{\"name\": \"full\", \"seed\": 3, \"data\": {\"path\": \"" ENTRENA_FMNIST_DIR
                        "\", \"train_limit\": 512, \"test_limit\": 200, \"batch_size\": 128}, "
                        "\"model\": {\"arch\": \"cnn\"}, \"optimizer\": {\"name\": \"sgd\", \"lr\": 0.05}, "
                        "\"scheduler\": {\"name\": \"constant\"}, "
                        "\"train\": {\"epochs\": 3, \"checkpoint_every\": 1, \"keep_checkpoints\": 0}}";
const QByteArray kMlp = "{\"name\": \"small\", \"seed\": 5, \"data\": {\"path\": \"" ENTRENA_FMNIST_DIR
                        "\", \"train_limit\": 600, \"test_limit\": 200, \"batch_size\": 100}, "
                        "\"model\": {\"arch\": \"mlp\", \"hidden\": [16]}, \"optimizer\": {\"name\": \"sgd\", \"lr\": 0.05}, "
                        "\"scheduler\": {\"name\": \"constant\"}, \"train\": {\"epochs\": 1}}";

} // namespace

class TestStoreFaults : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;

    QString path(const QString& name) const { return dir_.filePath(name); }

    QString writeConfig(const QString& name, const QByteArray& json)
    {
        const QString file = path(name);
        QFile f(file);
        if (f.open(QIODevice::WriteOnly))
            f.write(json);
        return file;
    }

    Result train(const QString& config, const QString& db)
    {
        return cli({QStringLiteral("train"), QStringLiteral("--config"), config, QStringLiteral("--db"), db, QStringLiteral("--json")});
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        // CI runs as root: there the faults must be tested, never skipped.
        if (!g_noMounts.isEmpty() && qEnvironmentVariableIsSet("CI"))
            QFAIL(qPrintable(g_noMounts));
        if (!g_noMounts.isEmpty())
            QSKIP(qPrintable(g_noMounts));
    }

    void cleanup()
    {
        for (const QString& m : std::as_const(g_mounts))
            umount2(m.toUtf8().constData(), MNT_DETACH);
        g_mounts.clear();
    }

    // Issue 53, item 4: with the store on a 3 MB file system, LibTorch's archive writer aborted the
    // process (exit 134) and left epoch-1.pt.tmp-entrena; the next command could not list the store.
    // Here 5 MB: the first checkpoint fits, the second does not.
    void aDiskThatFillsStopsTheRunAtItsLastGoodCheckpoint()
    {
        const QString disk = path(QStringLiteral("small-disk"));
        QVERIFY(mountTmpfs(disk, "size=5m"));
        const QString db = disk + QStringLiteral("/runs.sqlite");
        const Result r = train(writeConfig(QStringLiteral("cnn.json"), kCnn), db);
        QCOMPARE(r.exitCode, 1); // failed, as the contract says: not an abort
        const QJsonObject end = lastEvent(r.out);
        QCOMPARE(end.value(QStringLiteral("event")).toString(), QStringLiteral("end"));
        QCOMPARE(end.value(QStringLiteral("status")).toString(), QStringLiteral("failed"));
        const QString error = end.value(QStringLiteral("error")).toString();
        QVERIFY2(error.contains(QStringLiteral("the disk holding '") + disk) && error.contains(QStringLiteral("is full (")) &&
                     error.contains(QStringLiteral("MB free)")),
                 qPrintable(error));
        QVERIFY2(error.contains(QStringLiteral("resume run 1 from its last good checkpoint (step ")), qPrintable(error));
        QVERIFY2(!r.err.contains("terminate called") && !r.err.contains("inline_container"), r.err.constData());
        QVERIFY2(filesEndingWith(disk, QStringLiteral(".tmp-entrena")).isEmpty(), "a partial file was left behind");
        QCOMPARE(filesEndingWith(disk, QStringLiteral(".pt")).size(), 1); // epoch 1's, whole

        // The store still lists, and the run resumes once there is room: to the same three epochs.
        QJsonArray runs = listed(db);
        QCOMPARE(runs.size(), 1);
        QCOMPARE(runs.at(0).toObject().value(QStringLiteral("status")).toString(), QStringLiteral("failed"));
        QCOMPARE(mount("tmpfs", disk.toUtf8().constData(), "tmpfs", MS_REMOUNT, "size=64m"), 0);
        const Result resumed = cli({QStringLiteral("train"), QStringLiteral("--resume"), QStringLiteral("1"),
                                    QStringLiteral("--db"), db, QStringLiteral("--json")});
        QVERIFY2(resumed.exitCode == 0, resumed.err.constData());
        QCOMPARE(lastEvent(resumed.out).value(QStringLiteral("status")).toString(), QStringLiteral("finished"));
        runs = listed(db);
        QCOMPARE(runs.at(0).toObject().value(QStringLiteral("status")).toString(), QStringLiteral("finished"));
        QCOMPARE(filesEndingWith(disk, QStringLiteral(".pt")).size(), 3);
    }

    // A store whose disk is already full: it is listed and exported from; a new run is refused with
    // the disk named, not "is another program holding the database locked?".
    void aFullDiskStillReadsTheStore()
    {
        const QString disk = path(QStringLiteral("full-disk"));
        QVERIFY(mountTmpfs(disk, "size=4m"));
        const QString db = disk + QStringLiteral("/runs.sqlite");
        const QString config = writeConfig(QStringLiteral("mlp.json"), kMlp);
        QCOMPARE(train(config, db).exitCode, 0);
        QFile filler(disk + QStringLiteral("/filler"));
        QVERIFY(filler.open(QIODevice::WriteOnly));
        const QByteArray block(64 * 1024, 'x');
        while (filler.write(block) == block.size() && filler.flush()) {
        }
        filler.close();

        QCOMPARE(listed(db).size(), 1);
        {
            RunStore store(db.toStdString()); // read-only, for the disk, and says so
            QVERIFY(store.readOnly());
            QCOMPARE(store.readOnlyCause(), ReadOnlyCause::DiskFull);
        }
        const Result e = cli({QStringLiteral("export"), QStringLiteral("--run"), QStringLiteral("1"), QStringLiteral("--db"), db,
                              QStringLiteral("--metrics"), QStringLiteral("json"), QStringLiteral("--out"),
                              path(QStringLiteral("full-metrics.json"))});
        QVERIFY2(e.exitCode == 0, e.err.constData());
        const Result again = train(config, db);
        QVERIFY2(again.exitCode == 1 || again.exitCode == 2, again.err.constData());
        QVERIFY2(again.err.contains("is full") && !again.err.contains("locked"), again.err.constData());
        QCOMPARE(listed(db).size(), 1); // nothing half-written
    }

    // Issue 53, item 4: runs, export, predict and train all failed on a read-only store with SQLite's
    // "unable to open database file". Three ways a store sits on read-only media: closed cleanly (no
    // log), with the log and its index a writer left (killed), and with the log alone (copied off a
    // machine without its -shm): immutable=1 would silently drop the log's runs in the last two.
    void aStoreOnReadOnlyMediaIsReadAndNeverChanged_data()
    {
        QTest::addColumn<QString>("files");
        QTest::newRow("closed") << QStringLiteral("db");
        QTest::newRow("log and index") << QStringLiteral("db wal shm");
        QTest::newRow("log alone") << QStringLiteral("db wal");
    }
    void aStoreOnReadOnlyMediaIsReadAndNeverChanged()
    {
        QFETCH(QString, files);
        const QString source = path(QStringLiteral("ro-source-") + QString(QTest::currentDataTag()).replace(QLatin1Char(' '), QLatin1Char('-')));
        QVERIFY(QDir().mkpath(source));
        const QString db = source + QStringLiteral("/runs.sqlite");
        QCOMPARE(train(writeConfig(QStringLiteral("mlp.json"), kMlp), db).exitCode, 0);
        {
            // A writer that never closed: its last change (a rename) only in the log; a run it left
            // "running" under a dead process (a read must not mark it interrupted).
            sqlite3* writer = nullptr;
            QCOMPARE(sqlite3_open(db.toUtf8().constData(), &writer), SQLITE_OK);
            QCOMPARE(sqlite3_exec(writer, "PRAGMA wal_autocheckpoint=0; UPDATE runs SET name='renamed in the log'; "
                                          "INSERT INTO runs (uuid, name, status, created, config, owner_pid, owner_host) "
                                          "VALUES ('u-dead', 'left running', 'running', '2026-01-01T00:00:00Z', '{}', 999999, 'x')",
                                  nullptr, nullptr, nullptr),
                     SQLITE_OK);
            const QString media = path(QStringLiteral("media-") + QString::number(qHash(files)));
            QVERIFY(QDir().mkpath(media));
            QVERIFY(QFile::copy(db, media + QStringLiteral("/runs.sqlite")));
            if (files.contains(QStringLiteral("wal")))
                QVERIFY(QFile::copy(db + QStringLiteral("-wal"), media + QStringLiteral("/runs.sqlite-wal")));
            if (files.contains(QStringLiteral("shm")))
                QVERIFY(QFile::copy(db + QStringLiteral("-shm"), media + QStringLiteral("/runs.sqlite-shm")));
            QVERIFY(QDir(source + QStringLiteral("/checkpoints")).exists());
            QVERIFY(QProcess::execute(QStringLiteral("cp"), {QStringLiteral("-a"), source + QStringLiteral("/checkpoints"), media}) == 0);
            sqlite3_close(writer);
            if (!files.contains(QStringLiteral("wal")))
                rawExec(media + QStringLiteral("/runs.sqlite"), QStringLiteral("PRAGMA journal_mode=WAL")); // checkpointed: no log
            const QString mounted = path(QStringLiteral("ro-") + QString::number(qHash(files)));
            QVERIFY(mountReadOnly(media, mounted));
            checkReadOnlyStore(mounted, files.contains(QStringLiteral("wal")));
        }
    }

    // Issue 53, item 4: a store whose checkpoint row was edited to say /etc/hostname was imported,
    // and the file copied in as that run's checkpoint.
    void importTakesOnlyTheOtherStoresOwnFiles()
    {
        const QString other = path(QStringLiteral("other"));
        QVERIFY(QDir().mkpath(other));
        const QString theirs = other + QStringLiteral("/runs.sqlite");
        const QString config = writeConfig(QStringLiteral("mlp.json"), kMlp);
        for (int i = 0; i < 3; ++i)
            QCOMPARE(train(config, theirs).exitCode, 0);
        const QString secret = path(QStringLiteral("secret-key"));
        QFile s(secret);
        QVERIFY(s.open(QIODevice::WriteOnly));
        s.write("PK\x03\x04 a private key, dressed as an archive");
        s.close();
        QString inside;
        {
            RunStore store(theirs.toStdString());
            inside = QString::fromStdString(store.runFolder(3)) + QStringLiteral("/notes.pt");
        }
        QFile text(inside);
        QVERIFY(text.open(QIODevice::WriteOnly));
        text.write("not a checkpoint at all");
        text.close();
        // Run 1 points outside by an absolute path, run 2 by a way out through '..' and a link, run 3
        // at a file inside that is not an archive.
        QVERIFY(QFile::link(secret, other + QStringLiteral("/link.pt")));
        rawExec(theirs, QStringLiteral("UPDATE checkpoints SET checksum='' ; "
                                       "UPDATE checkpoints SET path='%1' WHERE run=1; "
                                       "UPDATE checkpoints SET path='link.pt' WHERE run=2; "
                                       "UPDATE checkpoints SET path='%2' WHERE run=3")
                                    .arg(secret, inside));

        const QString mine = path(QStringLiteral("mine/runs.sqlite"));
        const Result r = cli({QStringLiteral("import"), theirs, QStringLiteral("--db"), mine});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("imported 3 run(s)"), r.out.constData());
        QVERIFY2(r.err.contains(secret.toUtf8() + " (outside the other store's folder"), r.err.constData());
        QVERIFY2(r.err.contains("link.pt (outside the other store's folder"), r.err.constData());
        QVERIFY2(r.err.contains("notes.pt (not a checkpoint archive"), r.err.constData());
        RunStore store(mine.toStdString());
        for (const auto& run : store.listRuns())
            QVERIFY2(store.checkpoints(run.id).empty(), "a refused file was recorded as a checkpoint");
        for (const QString& f : filesEndingWith(path(QStringLiteral("mine")), QString()))
            QVERIFY2(!bytesOf(f).contains("private key") && !bytesOf(f).contains("not a checkpoint"), qPrintable(f));
    }

private:
    void checkReadOnlyStore(const QString& media, bool logged)
    {
        const QString db = media + QStringLiteral("/runs.sqlite");
        const QJsonArray runs = listed(db);
        QCOMPARE(runs.size(), logged ? 2 : 1);
        const QJsonObject first = runs.at(0).toObject();
        QCOMPARE(first.value(QStringLiteral("name")).toString(), logged ? QStringLiteral("renamed in the log") : QStringLiteral("small"));
        if (logged) // listed as its process left it: reading marks nothing
            QCOMPARE(runs.at(1).toObject().value(QStringLiteral("status")).toString(), QStringLiteral("running"));

        const Result e = cli({QStringLiteral("export"), QStringLiteral("--run"), QStringLiteral("1"), QStringLiteral("--db"), db,
                              QStringLiteral("--checkpoint"), QStringLiteral("last"), QStringLiteral("--out"),
                              path(QStringLiteral("ro-%1.pt").arg(qHash(media)))});
        QVERIFY2(e.exitCode == 0, e.err.constData());
        const Result t = train(path(QStringLiteral("mlp.json")), db);
        QCOMPARE(t.exitCode, 2);
        QVERIFY2(t.err.contains("cannot train: the run store '" + db.toUtf8() + "' is read-only here (it is on read-only media)") &&
                     t.err.contains("entrena-cli import"),
                 t.err.constData());
        {
            RunStore store(db.toStdString());
            QVERIFY(store.readOnly());
            QCOMPARE(store.readOnlyCause(), ReadOnlyCause::ReadOnlyMedia);
            QVERIFY_THROWS_EXCEPTION(StoreError, store.rename(1, "x"));
            QVERIFY_THROWS_EXCEPTION(StoreError, store.deleteRun(1));
        }
        // Imported from there into a store of one's own, the log's runs included.
        const QString home = path(QStringLiteral("home-%1/runs.sqlite").arg(qHash(media)));
        const Result i = cli({QStringLiteral("import"), db, QStringLiteral("--db"), home, QStringLiteral("--strict")});
        QVERIFY2(i.exitCode == 0, i.err.constData());
        QVERIFY2(i.out.contains(logged ? "imported 2 run(s)" : "imported 1 run(s)"), i.out.constData());

    }
};

int main(int argc, char** argv)
{
    privateMounts();
    QCoreApplication app(argc, argv);
    TestStoreFaults test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_store_faults.moc"
