// Bad data files end a run as `failed` with a message naming the file and the problem;
// good IDX files are read gzipped or not, normalised as the formula in the store says, and a
// trial server's preloaded files are taken from memory only while the files stay as they were.
#include "data/Dataset.h"
#include "data/IdxReader.h"
#include "entrena/data/Preload.h"
#include "entrena/store/RunStore.h"
#include "entrena/train/Trainer.h"

#include <QScopeGuard>
#include <QTemporaryDir>
#include <QtTest>

#include <clocale>
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
    c.model.arch = ModelArch::Mlp;
    c.scheduler.kind = SchedulerKind::Constant;
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

    // Regression: the GUI (Qt sets LC_NUMERIC from the system) read CSV cells with strtod, so under
    // a locale with a decimal comma it refused "0.5" as not a number. The CLI was not affected.
    void csvReadsTheSameUnderADecimalCommaLocale()
    {
        const char* before = std::setlocale(LC_NUMERIC, nullptr);
        const std::string restore = before ? before : "C";
        // Whatever happens below, the later tests run in the locale they started in.
        const auto back = qScopeGuard([&] { std::setlocale(LC_NUMERIC, restore.c_str()); });
        QVERIFY2(std::setlocale(LC_NUMERIC, "es_ES.UTF-8"), "the es_ES.UTF-8 locale is missing (packaging/setup.sh generates it)");
        QCOMPARE(std::localeconv()->decimal_point[0], ',');
        csvTrains(); // the same file, the same outcome
    }

    void csvTrains()
    {
        QTemporaryDir dir;
        // Two features; the class is which one is larger. Label in the middle column.
        QByteArray train = "x1,label,x2\n", test = "x1,label,x2\n";
        for (int i = 0; i < 400; ++i) {
            const double a = (i * 37 % 100) / 10.0, b = (i * 53 % 100) / 10.0;
            (i < 300 ? train : test) += QByteArray::number(a) + "," + (a > b ? "1" : "0") + "," + QByteArray::number(b) + "\n";
        }
        writeFile(dir.filePath(QStringLiteral("train.csv")), train, false);
        writeFile(dir.filePath(QStringLiteral("test.csv")), test, false);
        RunConfig c = RunConfig::fromJson(R"({"data": {"dataset": "csv", "path": ")" +
                                          dir.filePath(QStringLiteral("train.csv")).toStdString() + R"(", "test_path": ")" +
                                          dir.filePath(QStringLiteral("test.csv")).toStdString() + R"(", "batch_size": 20},
            "model": {"arch": "mlp", "hidden": [16]}, "optimizer": {"name": "adam", "lr": 0.01},
            "scheduler": {"name": "constant"}, "train": {"epochs": 30}})");
        TrainingObserver quiet;
        StopToken stop;
        const RunResult r = Trainer(c).run(quiet, stop);
        QVERIFY2(r.end.status == RunStatus::Finished, r.end.error.c_str());
        QVERIFY2(r.end.testAccuracy >= 0.9, qPrintable(QString::number(r.end.testAccuracy)));
    }

    void badCsvNamesRowAndColumn_data()
    {
        QTest::addColumn<QByteArray>("csv");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("ragged row") << QByteArray("a,b,label\n1,2,0\n3,4\n") << "row 3: 2 cells, but 3";
        QTest::newRow("non-numeric cell") << QByteArray("a,b,label\n1,2,0\n3,x,1\n") << "row 3, column 'b': 'x' is not a number";
        QTest::newRow("two signs") << QByteArray("a,b,label\n1,+2.5,0\n3,+-1,1\n") << "row 3, column 'b': '+-1' is not a number";
        QTest::newRow("decimal comma in quotes") << QByteArray("a,b,label\n1,2,0\n3,\"0,5\",1\n") << "row 3, column 'b': '0,5' is not a number";
        QTest::newRow("no label column") << QByteArray("a,b,c\n1,2,0\n") << "no column named 'label'";
        QTest::newRow("label not a class") << QByteArray("a,b,label\n1,2,0.5\n") << "is not a class number";
        QTest::newRow("empty") << QByteArray() << "is empty";
    }

    void badCsvNamesRowAndColumn()
    {
        QFETCH(QByteArray, csv);
        QFETCH(QString, mentions);
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("bad.csv"));
        writeFile(file, csv, false);
        RunConfig c;
        c.data.dataset = DatasetKind::Csv;
        c.data.path = file.toStdString();
        c.model.arch = ModelArch::Mlp;
        c.scheduler.kind = SchedulerKind::Constant;
        c.train.epochs = 1;
        TrainingObserver quiet;
        StopToken stop;
        const RunResult r = Trainer(c).run(quiet, stop);
        QCOMPARE(r.end.status, RunStatus::Failed);
        QVERIFY2(QString::fromStdString(r.end.error).contains(mentions), r.end.error.c_str());
    }

    // IDX images are split and normalised as bytes (one pass through a table of the 256 values);
    // the result must be the stored formula, (pixel / 255 - mean) / std, with the training split's
    // exact mean and standard deviation, and the validation and test splits normalised by those.
    void idxImagesAreNormalisedByTheTrainingSplit()
    {
        QTemporaryDir dir;
        const Files files;
        writeSet(dir.path(), files, true);
        DataSpec spec = configFor(dir.path()).data;
        spec.valFraction = 0.25;
        const DataSplits d = loadData(spec, 7);
        const auto tx = d.trainX.tensor().to(torch::kFloat64);
        QCOMPARE(d.trainX.tensor().scalar_type(), torch::kFloat32);
        QCOMPARE(tx.size(0), 150);
        QVERIFY2(std::abs(tx.mean().item<double>()) < 1e-5, "the training split is not centred");
        QVERIFY2(std::abs(tx.std().item<double>() - 1.0) < 1e-5, "the training split does not have unit deviation");
        // The first test image, byte by byte (the test split is not shuffled).
        const auto bytes = reinterpret_cast<const uint8_t*>(files.testImages.constData()) + 16;
        const auto first = d.testX.tensor()[0].flatten();
        for (int64_t i = 0; i < 784; ++i)
            QVERIFY(std::abs(first[i].item<double>() - (bytes[i] / 255.0 - d.mean) / d.std) < 1e-5);
        // The validation split holds the other quarter of the training file, normalised alike.
        const auto vx = d.valX.tensor().to(torch::kFloat64);
        QCOMPARE(vx.size(0), 50);
        QVERIFY(std::abs((vx * d.std + d.mean).min().item<double>()) < 1e-5);
    }

    // A trial server reads the data files once and its forked trials take them from memory; a
    // file changed on disk after that must be read again, and nobody may change the kept copy.
    void preloadedFilesAreReadAgainWhenChanged()
    {
        QTemporaryDir dir;
        writeSet(dir.path(), Files{}, true);
        const QString trainImages = dir.path() + QStringLiteral("/train-images-idx3-ubyte.gz");
        DataSpec spec = configFor(dir.path()).data;
        preloadDataFiles(spec);
        const int64_t before = keptIdxReadsUsed();
        auto a = readIdxImages(trainImages.toStdString());
        QCOMPARE(keptIdxReadsUsed(), before + 1); // from memory
        a.fill_(0);                               // the caller's own copy
        const auto b = readIdxImages(trainImages.toStdString());
        QCOMPARE(keptIdxReadsUsed(), before + 2);
        QCOMPARE(b.size(0), 200);
        QVERIFY(b.max().item<int>() > 0);
        // Rewritten with other pixels of the same size: read again.
        Files other;
        other.trainImages = images(200);
        other.trainImages[100] = char(other.trainImages[100] + 1);
        writeFile(trainImages, other.trainImages, true);
        const auto c = readIdxImages(trainImages.toStdString());
        QCOMPARE(keptIdxReadsUsed(), before + 2);
        QCOMPARE(c.flatten()[100 - 16].item<int>(), int(uint8_t(other.trainImages[100])));
        // A bigger file: read again, whole.
        Files bigger;
        bigger.trainImages = images(300);
        bigger.trainLabels = labels(300);
        writeSet(dir.path(), bigger, true);
        QCOMPARE(readIdxImages(trainImages.toStdString()).size(0), 300);
        spec.valFraction = 0.1;
        QCOMPARE(loadData(spec, 1).trainX.size(0), 270);
    }
};

QTEST_APPLESS_MAIN(TestDataErrors)
#include "tst_data_errors.moc"
