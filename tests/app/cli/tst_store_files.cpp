// A run store's files belong to it alone and follow it (docs/run-store.md#files): two stores in one
// folder keep their own checkpoints and evaluation images; a store made with a relative --db is
// usable from any directory and after its folder moves; import copies the files it references,
// names those it cannot, and the imported runs export after the original is deleted.
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

namespace {

struct Result {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

/// entrena-cli with `args`, in `workingDirectory` when given.
Result cli(const QStringList& args, const QString& workingDirectory = {})
{
    QProcess p;
    if (!workingDirectory.isEmpty())
        p.setWorkingDirectory(workingDirectory);
    p.start(QStringLiteral(ENTRENA_CLI), args);
    p.waitForFinished(300000);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(), p.readAllStandardError()};
}

// One short epoch on a Fashion-MNIST subset: a checkpoint and a few wrong images.
const QByteArray kConfig = "{\"name\": \"files\", \"seed\": 5, \"data\": {\"path\": \"" ENTRENA_FMNIST_DIR
                           "\", \"train_limit\": 1500, \"test_limit\": 300, \"batch_size\": 100}, "
                           "\"model\": {\"arch\": \"mlp\", \"hidden\": [32]}, \"optimizer\": {\"name\": \"sgd\", \"lr\": 0.05}, "
                           "\"scheduler\": {\"name\": \"constant\"}, \"train\": {\"epochs\": 1}}";

} // namespace

class TestStoreFiles : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;
    QString config_;
    int exports_ = 0;

    QString path(const QString& name) const { return dir_.filePath(name); }

    /// Trains one run into `db` (as given: relative to `cwd` when relative) and returns its id.
    QString train(const QString& db, const QString& cwd = {}, const QString& seed = QStringLiteral("5"))
    {
        const Result r = cli({QStringLiteral("train"), QStringLiteral("--config"), config_, QStringLiteral("--db"), db,
                              QStringLiteral("--set"), QStringLiteral("seed=") + seed, QStringLiteral("--json")},
                             cwd);
        if (r.exitCode != 0)
            qWarning() << r.err;
        return QString::number(
            QJsonDocument::fromJson(r.out.split('\n').first()).object().value(QStringLiteral("run_id")).toInteger());
    }

    Result exportLast(const QString& db, const QString& run, const QString& out, const QString& cwd = {})
    {
        return cli({QStringLiteral("export"), QStringLiteral("--run"), run, QStringLiteral("--db"), db,
                    QStringLiteral("--checkpoint"), QStringLiteral("last"), QStringLiteral("--out"), out},
                   cwd);
    }

    /// The run's evaluation images as `export --metrics json` gives them (absolute paths).
    QStringList images(const QString& db, const QString& run)
    {
        const QString out = path(QStringLiteral("metrics-%1.json").arg(++exports_));
        const Result r = cli({QStringLiteral("export"), QStringLiteral("--run"), run, QStringLiteral("--db"), db,
                              QStringLiteral("--metrics"), QStringLiteral("json"), QStringLiteral("--out"), out});
        if (r.exitCode != 0)
            qWarning() << r.err;
        QStringList images;
        const QJsonObject doc = QJsonDocument::fromJson(bytesOf(out)).object();
        for (const auto& w : doc.value(QStringLiteral("evaluation")).toObject().value(QStringLiteral("wrong")).toArray())
            images << w.toObject().value(QStringLiteral("image")).toString();
        return images;
    }

    static QByteArray bytesOf(const QString& file)
    {
        QFile f(file);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        config_ = path(QStringLiteral("run.json"));
        QFile f(config_);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(kConfig);
    }

    // Issue 29, item 1: a.sqlite's checkpoint was overwritten by b.sqlite's run 1 (checksum error on
    // export), and a's Evaluation tab showed b's images.
    void twoStoresInOneFolderKeepTheirOwnFiles()
    {
        const QString folder = path(QStringLiteral("shared"));
        QVERIFY(QDir().mkpath(folder));
        const QString a = folder + QStringLiteral("/a.sqlite"), b = folder + QStringLiteral("/b.sqlite");
        const QString runA = train(a), runB = train(b, {}, QStringLiteral("6"));
        QCOMPARE(runA, QStringLiteral("1"));
        QCOMPARE(runB, QStringLiteral("1"));

        const Result ea = exportLast(a, runA, path(QStringLiteral("a.pt")));
        QVERIFY2(ea.exitCode == 0, ea.err.constData());
        const Result eb = exportLast(b, runB, path(QStringLiteral("b.pt")));
        QVERIFY2(eb.exitCode == 0, eb.err.constData());
        QVERIFY(bytesOf(path(QStringLiteral("a.pt"))) != bytesOf(path(QStringLiteral("b.pt")))); // two seeds, two models

        const QStringList imagesA = images(a, runA), imagesB = images(b, runB);
        QVERIFY(!imagesA.isEmpty());
        QVERIFY(!imagesB.isEmpty());
        for (const QString& image : imagesA) {
            QVERIFY2(QFile::exists(image), qPrintable(image));
            QVERIFY2(!imagesB.contains(image), qPrintable(image));
        }
    }

    // Issue 33, item 1: a relative --db recorded paths relative to the working directory.
    void aRelativeStoreWorksFromAnywhereAndAfterAMove()
    {
        const QString folder = path(QStringLiteral("rel"));
        QVERIFY(QDir().mkpath(folder));
        const QString run = train(QStringLiteral("runs.sqlite"), folder);
        QCOMPARE(run, QStringLiteral("1"));

        Result e = exportLast(folder + QStringLiteral("/runs.sqlite"), run, path(QStringLiteral("rel.pt")), dir_.path());
        QVERIFY2(e.exitCode == 0, e.err.constData());
        const QStringList before = images(folder + QStringLiteral("/runs.sqlite"), run);
        QVERIFY(!before.isEmpty());
        QVERIFY2(QFile::exists(before.first()), qPrintable(before.first()));

        // The whole folder moved (or copied to another machine): everything is found where it is now.
        const QString moved = path(QStringLiteral("moved"));
        QVERIFY(QDir().rename(folder, moved));
        e = exportLast(moved + QStringLiteral("/runs.sqlite"), run, path(QStringLiteral("moved.pt")));
        QVERIFY2(e.exitCode == 0, e.err.constData());
        QCOMPARE(bytesOf(path(QStringLiteral("moved.pt"))), bytesOf(path(QStringLiteral("rel.pt"))));
        const QStringList after = images(moved + QStringLiteral("/runs.sqlite"), run);
        QVERIFY(!after.isEmpty());
        QVERIFY2(after.first().startsWith(moved) && QFile::exists(after.first()), qPrintable(after.first()));
    }

    // Issue 33, item 2: importing a store made with a relative --db copied nothing and said nothing.
    void importCopiesTheFilesAndTheRunsOutliveTheOriginal()
    {
        const QString source = path(QStringLiteral("node"));
        QVERIFY(QDir().mkpath(source));
        QCOMPARE(train(QStringLiteral("runs.sqlite"), source), QStringLiteral("1"));
        QCOMPARE(train(QStringLiteral("runs.sqlite"), source, QStringLiteral("7")), QStringLiteral("2"));

        const QString home = path(QStringLiteral("home/runs.sqlite"));
        QVERIFY(QDir().mkpath(path(QStringLiteral("home"))));
        QCOMPARE(train(home, {}, QStringLiteral("8")), QStringLiteral("1")); // ids here differ from the node's
        const Result imported = cli(
            {QStringLiteral("import"), QStringLiteral("runs.sqlite"), QStringLiteral("--db"), home, QStringLiteral("--strict")},
            source);
        QVERIFY2(imported.exitCode == 0, imported.err.constData());
        QVERIFY2(imported.out.contains("imported 2 run(s)"), imported.out.constData());
        QVERIFY2(!imported.err.contains("not copied"), imported.err.constData());

        QVERIFY(QDir(source).removeRecursively());
        for (const QString& run : {QStringLiteral("2"), QStringLiteral("3")}) {
            const Result e = exportLast(home, run, path(QStringLiteral("imported-") + run + QStringLiteral(".pt")));
            QVERIFY2(e.exitCode == 0, e.err.constData());
            const QStringList copied = images(home, run);
            QVERIFY(!copied.isEmpty());
            QVERIFY2(copied.first().startsWith(path(QStringLiteral("home/checkpoints/"))) && QFile::exists(copied.first()),
                     qPrintable(copied.first()));
        }
    }

    void importNamesTheFilesItCannotCopy()
    {
        const QString source = path(QStringLiteral("lossy"));
        QVERIFY(QDir().mkpath(source));
        const QString db = source + QStringLiteral("/runs.sqlite");
        QCOMPARE(train(db), QStringLiteral("1"));
        // One checkpoint deleted by hand, one store that has it not.
        QDir files(source + QStringLiteral("/checkpoints"));
        QString removed;
        for (QDirIterator it(files.path(), {QStringLiteral("*.pt")}, QDir::Files, QDirIterator::Subdirectories); it.hasNext();) {
            removed = it.next();
            QVERIFY(QFile::remove(removed));
        }
        QVERIFY(!removed.isEmpty());

        const QString target = path(QStringLiteral("target/runs.sqlite"));
        QVERIFY(QDir().mkpath(path(QStringLiteral("target"))));
        Result r = cli({QStringLiteral("import"), db, QStringLiteral("--db"), target});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.contains("not copied") && r.err.contains(QFileInfo(removed).fileName().toUtf8()), r.err.constData());
        QVERIFY2(r.err.contains("not found"), r.err.constData());

        const QString strictTarget = path(QStringLiteral("target/strict.sqlite"));
        r = cli({QStringLiteral("import"), db, QStringLiteral("--db"), strictTarget, QStringLiteral("--strict")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("--strict"), r.err.constData());
    }

    // Issue 33: nothing showed how much disk a store uses, and nothing freed it.
    void freeingARunsCheckpointsKeepsItsMetricsAndSaysHowMuch()
    {
        const QString folder = path(QStringLiteral("free"));
        QVERIFY(QDir().mkpath(folder));
        const QString db = folder + QStringLiteral("/runs.sqlite");
        QCOMPARE(train(db), QStringLiteral("1"));
        const auto diskBytes = [&] {
            const Result r = cli({QStringLiteral("runs"), QStringLiteral("--db"), db, QStringLiteral("--json"), QStringLiteral("--disk")});
            return QJsonDocument::fromJson(r.out).array().at(0).toObject().value(QStringLiteral("disk_bytes")).toInteger(-1);
        };
        const qint64 before = diskBytes();
        QVERIFY2(before > 10000, qPrintable(QString::number(before))); // a checkpoint and a dozen images
        Result r = cli({QStringLiteral("runs"), QStringLiteral("--db"), db, QStringLiteral("--disk")});
        QVERIFY2(r.out.contains("checkpoints and images:") && r.out.contains("kB"), r.out.constData());

        r = cli({QStringLiteral("clean"), QStringLiteral("--run"), QStringLiteral("1"), QStringLiteral("--db"), db,
                 QStringLiteral("--dry-run")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.startsWith("would free ") && r.out.contains("1 checkpoint file(s) of 1 run(s)"), r.out.constData());
        QCOMPARE(diskBytes(), before); // nothing deleted

        r = cli({QStringLiteral("clean"), QStringLiteral("--run"), QStringLiteral("1"), QStringLiteral("--db"), db});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.startsWith("freed ") && r.out.contains("kB") && r.out.contains("metrics"), r.out.constData());
        const qint64 after = diskBytes();
        QVERIFY2(after > 0 && after < before, qPrintable(QStringLiteral("%1 then %2").arg(before).arg(after))); // the images stay
        // The weights are gone, the metrics are not.
        r = exportLast(db, QStringLiteral("1"), path(QStringLiteral("freed.pt")));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("has no checkpoint"), r.err.constData());
        const QString metrics = path(QStringLiteral("freed.json"));
        r = cli({QStringLiteral("export"), QStringLiteral("--run"), QStringLiteral("1"), QStringLiteral("--db"), db,
                 QStringLiteral("--metrics"), QStringLiteral("json"), QStringLiteral("--out"), metrics});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject doc = QJsonDocument::fromJson(bytesOf(metrics)).object();
        QVERIFY(!doc.value(QStringLiteral("metrics")).toObject().value(QStringLiteral("train_loss")).toArray().isEmpty());
        QVERIFY(!doc.value(QStringLiteral("evaluation")).toObject().value(QStringLiteral("wrong")).toArray().isEmpty());

        // Asked for nothing, or for an unknown run: refused, exit 2.
        QCOMPARE(cli({QStringLiteral("clean"), QStringLiteral("--db"), db}).exitCode, 2);
        r = cli({QStringLiteral("clean"), QStringLiteral("--run"), QStringLiteral("42"), QStringLiteral("--db"), db});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("no run '42'"), r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestStoreFiles)
#include "tst_store_files.moc"
