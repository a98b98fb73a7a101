// Bad data files end a run as `failed` with a message naming the file and the problem;
// good IDX files are read gzipped or not.
#include "entrena/RunStore.h"
#include "entrena/Trainer.h"

#include <QTemporaryDir>
#include <QtTest>
#include <zlib.h>

using namespace entrena;

namespace {

QByteArray be32(uint32_t v)
{
    QByteArray b(4, 0);
    b[0] = char(v >> 24);
    b[1] = char(v >> 16);
    b[2] = char(v >> 8);
    b[3] = char(v);
    return b;
}

QByteArray images(uint32_t n, uint32_t magic = 0x803)
{
    QByteArray b = be32(magic) + be32(n) + be32(28) + be32(28);
    for (uint32_t i = 0; i < n * 28 * 28; ++i)
        b.append(char((i * 37 + (i / 784) * 11) % 256));
    return b;
}

QByteArray labels(uint32_t n)
{
    QByteArray b = be32(0x801) + be32(n);
    for (uint32_t i = 0; i < n; ++i)
        b.append(char(i % 10));
    return b;
}

void writeFile(const QString& path, const QByteArray& bytes, bool gzip)
{
    if (gzip) {
        gzFile f = gzopen(path.toLocal8Bit().constData(), "wb");
        QVERIFY(f);
        QCOMPARE(gzwrite(f, bytes.constData(), unsigned(bytes.size())), int(bytes.size()));
        gzclose(f);
    } else {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(bytes);
    }
}

struct Files {
    QByteArray trainImages = images(200), trainLabels = labels(200), testImages = images(50), testLabels = labels(50);
};

void writeSet(const QString& dir, const Files& f, bool gzip)
{
    const QString ext = gzip ? QStringLiteral(".gz") : QString();
    writeFile(dir + QStringLiteral("/train-images-idx3-ubyte") + ext, f.trainImages, gzip);
    writeFile(dir + QStringLiteral("/train-labels-idx1-ubyte") + ext, f.trainLabels, gzip);
    writeFile(dir + QStringLiteral("/t10k-images-idx3-ubyte") + ext, f.testImages, gzip);
    writeFile(dir + QStringLiteral("/t10k-labels-idx1-ubyte") + ext, f.testLabels, gzip);
}

RunConfig configFor(const QString& dir)
{
    RunConfig c;
    c.name = "data-check";
    c.data.path = dir.toStdString();
    c.data.batchSize = 50;
    c.model.arch = "mlp";
    c.scheduler.name = "constant";
    c.train.epochs = 1;
    return c;
}

} // namespace

class TestDataErrors : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void readsGzippedAndPlainFiles_data()
    {
        QTest::addColumn<bool>("gzip");
        QTest::newRow("gzipped") << true;
        QTest::newRow("plain") << false;
    }

    void readsGzippedAndPlainFiles()
    {
        QFETCH(bool, gzip);
        QTemporaryDir dir;
        writeSet(dir.path(), Files{}, gzip);
        TrainingObserver quiet;
        StopToken stop;
        const RunResult r = Trainer(configFor(dir.path())).run(quiet, stop);
        QVERIFY2(r.end.status == RunStatus::Finished, r.end.error.c_str());
        QVERIFY(r.end.testAccuracy >= 0);
    }

    void badFilesFailTheRunWithAClearMessage_data()
    {
        QTest::addColumn<int>("defect");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("wrong magic") << 0 << "not an IDX image file";
        QTest::newRow("truncated payload") << 1 << "is truncated";
        QTest::newRow("labels do not match images") << 2 << "do not match";
        QTest::newRow("missing file") << 3 << "not found";
        QTest::newRow("missing folder") << 4 << "is not a folder";
        QTest::newRow("truncated header") << 5 << "is truncated";
    }

    void badFilesFailTheRunWithAClearMessage()
    {
        QFETCH(int, defect);
        QFETCH(QString, mentions);
        QTemporaryDir dir;
        Files f;
        switch (defect) {
        case 0: f.trainImages = images(200, 0x801); break;
        case 1: f.trainImages.chop(1000); break;
        case 2: f.trainLabels = labels(150); break;
        case 5: f.testImages = f.testImages.left(6); break;
        default: break;
        }
        writeSet(dir.path(), f, true);
        if (defect == 3)
            QVERIFY(QFile::remove(dir.path() + QStringLiteral("/t10k-labels-idx1-ubyte.gz")));
        const QString path = defect == 4 ? dir.path() + QStringLiteral("/nowhere") : dir.path();

        RunStore store(dir.filePath(QStringLiteral("runs.sqlite")).toStdString());
        TrainingObserver quiet;
        StopToken stop;
        const RunResult r = Trainer(configFor(path)).run(quiet, stop, &store);
        QCOMPARE(r.end.status, RunStatus::Failed);
        const QString message = QString::fromStdString(r.end.error);
        QVERIFY2(message.contains(mentions), qPrintable(message));
        QVERIFY2(!message.contains(QStringLiteral("Exception raised from")), "a LibTorch backtrace leaked");
        // The store holds exactly one run, `failed`, with the message.
        const auto runs = store.listRuns();
        QCOMPARE(runs.size(), size_t(1));
        QCOMPARE(runs[0].status, RunStatus::Failed);
        QCOMPARE(QString::fromStdString(runs[0].error), message);
        QVERIFY(store.metrics(runs[0].id, "train_loss").empty());
    }
};

QTEST_APPLESS_MAIN(TestDataErrors)
#include "tst_data_errors.moc"
