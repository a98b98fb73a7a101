// "Your own data", end to end: an image folder (PNG and JPEG, with a corrupt file and a text file
// among them), CIFAR-10's binary files and a CSV with class names each train well above chance;
// class names and input shapes reach the start event, the store and the export sidecar; the end's
// confusion matrix sums to the evaluated split and matches the model's predictions; a first epoch
// at chance says `not_learning`; every bad input gets a message that names it. A matrix's cell
// opens as its samples, each with its original file or line (SplitReview).
#include "data/Dataset.h"
#include "data/ImageDecode.h"
#include "entrena/export/SplitReview.h"
#include "entrena/store/RunStore.h"
#include "entrena/train/Trainer.h"
#include "model/Model.h"
#include "store/CheckpointFile.h"

// After LibTorch's headers: Qt's `slots` macro breaks LibTorch's `slots()`.
#include "../../tools/ImageFixtures.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <filesystem>
#include <random>

using namespace entrena;

namespace {

/// Keeps every event of a run.
struct Events : TrainingObserver {
    StartEvent start;
    std::vector<NoticeEvent> notices;
    std::vector<EpochEvent> epochs;
    std::vector<StepEvent> steps;
    EndEvent end;
    void onStart(const StartEvent& e) override { start = e; }
    void onStep(const StepEvent& e) override { steps.push_back(e); }
    void onEpoch(const EpochEvent& e) override { epochs.push_back(e); }
    void onNotice(const NoticeEvent& e) override { notices.push_back(e); }
    void onEnd(const EndEvent& e) override { end = e; }
    const NoticeEvent* notice(const std::string& kind) const
    {
        for (const auto& n : notices)
            if (n.kind == kind)
                return &n;
        return nullptr;
    }
};

RunConfig config(const QString& json)
{
    return RunConfig::fromJson(json.toStdString());
}

/// Sums of a confusion matrix: all, and each row (samples of each true class).
int64_t total(const std::vector<std::vector<int64_t>>& m)
{
    int64_t n = 0;
    for (const auto& row : m)
        for (int64_t v : row)
            n += v;
    return n;
}

/// CIFAR-10 binary batches of `perBatch` learnable records each (class k: a colour of its own plus
/// noise), and a test batch, in `dir`.
void writeLearnableCifar(const std::string& dir, int perBatch)
{
    std::mt19937 rng(5);
    std::uniform_int_distribution<int> noise(-25, 25);
    const auto record = [&](int label) {
        std::vector<uint8_t> rec =
            fixtures::cifarRecord(uint8_t(label), uint8_t(25 * label), uint8_t(250 - 25 * label), uint8_t((label * 97) % 256));
        for (size_t i = 1; i < rec.size(); ++i)
            rec[i] = uint8_t(std::clamp(int(rec[i]) + noise(rng), 0, 255));
        return rec;
    };
    for (int b = 1; b <= 6; ++b) {
        std::vector<uint8_t> bytes;
        for (int i = 0; i < perBatch; ++i) {
            const auto rec = record(i % 10);
            bytes.insert(bytes.end(), rec.begin(), rec.end());
        }
        fixtures::writeBytes(dir + (b <= 5 ? "/data_batch_" + std::to_string(b) : std::string("/test_batch")) + ".bin", bytes);
    }
}

} // namespace

class TestOwnData : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString folder_;

    QString imageFolderJson(const QString& extra = {}) const
    {
        return QStringLiteral(R"({"name": "own", "data": {"dataset": "image-folder", "path": "%1", "val_fraction": 0.25,
                                  "batch_size": 16, "workers": 2 %2},
                                  "model": {"arch": "mlp", "hidden": [32]}, "optimizer": {"name": "adam", "lr": 0.01},
                                  "scheduler": {"name": "constant"}, "train": {"epochs": 4, "log_every": 5}})")
            .arg(folder_, extra);
    }

    /// One epoch at a tiny learning rate: a model near chance, which gets many samples wrong.
    QString nearChanceJson() const
    {
        return imageFolderJson(QStringLiteral(R"(, "augment_flip": false)"))
            .replace(QStringLiteral(R"("lr": 0.01)"), QStringLiteral(R"("lr": 0.00001)"))
            .replace(QStringLiteral(R"("adam")"), QStringLiteral(R"("sgd")"))
            .replace(QStringLiteral(R"("epochs": 4)"), QStringLiteral(R"("epochs": 1)"));
    }

private Q_SLOTS:
    void initTestCase()
    {
        folder_ = dir_.filePath(QStringLiteral("flowers"));
        fixtures::writeFlatFolder(folder_, 40); // classes Zebra, cat, dog; a corrupt .jpg and a truncated .png
    }

    void imageFolderTrainsAndNamesItsClasses()
    {
        RunStore store(dir_.filePath(QStringLiteral("folder.sqlite")).toStdString());
        Events events;
        StopToken stop;
        const RunResult r = Trainer(config(imageFolderJson())).run(events, stop, &store, true);
        QVERIFY2(r.end.status == RunStatus::Finished, r.end.error.c_str());
        QVERIFY2(r.end.bestValAccuracy > 0.9, qPrintable(QString::number(r.end.bestValAccuracy))); // chance: 1/3
        QCOMPARE(events.start.classes, (std::vector<std::string>{"Zebra", "cat", "dog"}));
        QCOMPARE(events.start.inputShape, (std::vector<int64_t>{3, 16, 16}));
        // The two damaged files are skipped, counted and named.
        const NoticeEvent* warning = events.notice("data_warning");
        QVERIFY(warning);
        QVERIFY2(warning->message.find("2 image files") != std::string::npos, warning->message.c_str());
        QVERIFY(warning->message.find("corrupt.jpg") != std::string::npos);
        QVERIFY(warning->message.find("truncated.png") != std::string::npos);
        QVERIFY(!events.notice("not_learning"));
        // The store keeps the classes and shape, and what the model got wrong.
        const auto run = store.findRun(std::to_string(r.runId));
        const QJsonObject data = QJsonDocument::fromJson(QByteArray::fromStdString(run->dataJson)).object();
        QCOMPARE(data[QStringLiteral("classes")].toArray().size(), 3);
        QCOMPARE(data[QStringLiteral("input_shape")].toArray()[0].toInt(), 3);
        QCOMPARE(data[QStringLiteral("normalization")].toObject()[QStringLiteral("mean")].toArray().size(), 3);
        const EvaluationReport stored = evaluationFromJson(run->evaluationJson);
        QCOMPARE(stored.confusion, r.end.evaluation.confusion);
        QCOMPARE(r.end.evaluation.split, std::string("validation")); // a flat folder has no test split
    }

    void confusionMatrixMatchesThePredictions()
    {
        // The matrix sums to the evaluated split, its rows to each class's samples, and it is what
        // the final weights predict, counted here independently.
        RunStore store(dir_.filePath(QStringLiteral("confusion.sqlite")).toStdString());
        Events events;
        StopToken stop;
        const RunConfig c = config(imageFolderJson(QStringLiteral(R"(, "augment_flip": false)")));
        const RunResult r = Trainer(c).run(events, stop, &store, true);
        QVERIFY2(r.end.status == RunStatus::Finished, r.end.error.c_str());
        const auto& m = r.end.evaluation.confusion;
        const DataSplits data = loadData(c.data, c.seed);
        QCOMPARE(total(m), data.valX.size(0));
        for (int64_t k = 0; k < 3; ++k) {
            int64_t row = 0;
            for (int64_t v : m[size_t(k)])
                row += v;
            QCOMPARE(row, (data.valY == k).sum().item<int64_t>());
            QCOMPARE(r.end.evaluation.perClass[size_t(k)].support, row);
        }
        const auto checkpoints = store.checkpoints(r.runId);
        const auto last = std::max_element(checkpoints.begin(), checkpoints.end(),
                                           [](const auto& a, const auto& b) { return a.step < b.step; });
        Model model = Model::build(c.model, 3, 16, 16, 3);
        loadModelWeights(last->path, last->checksum, model);
        model.train(false);
        torch::NoGradGuard noGrad;
        const auto predicted = model.forward(data.valX.input(data.valX.range(0, data.valX.size(0)))).argmax(1);
        std::vector<std::vector<int64_t>> expected(3, std::vector<int64_t>(3, 0));
        for (int64_t i = 0; i < predicted.size(0); ++i)
            ++expected[size_t(data.valY[i].item<int64_t>())][size_t(predicted[i].item<int64_t>())];
        QCOMPARE(m, expected);
    }

    void wrongExamplesAndCellsNameTheirFiles()
    {
        // A model near chance (one epoch at a tiny learning rate) gets many wrong: each wrong example
        // names its original file, in its true class's folder (the damaged files dropped while
        // decoding must not shift the names), and every cell of the matrix opens as exactly the
        // samples it counts, most confident first, each named by its file.
        RunStore store(dir_.filePath(QStringLiteral("files.sqlite")).toStdString());
        Events events;
        StopToken stop;
        const RunConfig c = config(nearChanceJson());
        const RunResult r = Trainer(c).run(events, stop, &store, true);
        QVERIFY2(r.end.status == RunStatus::Finished, r.end.error.c_str());
        const EvaluationReport& e = r.end.evaluation;
        QVERIFY2(!e.wrong.empty(), "a model at chance gets some wrong");
        const auto folderOf = [](const std::string& file) {
            return std::filesystem::path(file).parent_path().filename().string();
        };
        for (const WrongExample& w : e.wrong) {
            QVERIFY2(std::filesystem::path(w.file).is_absolute(), w.file.c_str());
            QVERIFY2(std::filesystem::exists(w.file), w.file.c_str());
            QCOMPARE(folderOf(w.file), e.classes[size_t(w.trueClass)]);
        }
        // The store (and so `export --metrics json`) keeps the names.
        const auto run = store.findRun(std::to_string(r.runId));
        const EvaluationReport stored = evaluationFromJson(run->evaluationJson);
        QCOMPARE(stored.wrong.size(), e.wrong.size());
        for (size_t i = 0; i < e.wrong.size(); ++i)
            QCOMPARE(stored.wrong[i].file, e.wrong[i].file);

        const SplitReview review = SplitReview::ofRun(store, r.runId);
        QCOMPARE(review.split(), std::string("validation"));
        QCOMPARE(review.disagreements(), int64_t(0));
        QCOMPARE(review.unreadable(), int64_t(0));
        QCOMPARE(review.confusion(), e.confusion);
        QVERIFY(!review.table());
        for (int64_t t = 0; t < 3; ++t)
            for (int64_t p = 0; p < 3; ++p) {
                const std::vector<ReviewedSample> cell = review.cell(t, p);
                QCOMPARE(int64_t(cell.size()), e.confusion[size_t(t)][size_t(p)]);
                for (size_t i = 0; i < cell.size(); ++i) {
                    QCOMPARE(cell[i].trueClass, t);
                    QCOMPARE(cell[i].predicted, p);
                    QCOMPARE(folderOf(cell[i].file), e.classes[size_t(t)]);
                    // The file named is the very sample: its pixels are the ones classified.
                    const torch::Tensor decoded = decodeImage(cell[i].file, 3, 16, 16).contiguous();
                    const ModelView seen = review.picture(cell[i].index);
                    QVERIFY2(std::equal(seen.pixels.begin(), seen.pixels.end(), decoded.data_ptr<uint8_t>()),
                             cell[i].file.c_str());
                    if (i > 0)
                        QVERIFY(cell[i - 1].confidence >= cell[i].confidence);
                }
            }
        // The most confidently wrong example leads its cell, by the same file and confidence.
        const WrongExample& top = e.wrong.front();
        const ReviewedSample first = review.cell(top.trueClass, top.predicted).front();
        QCOMPARE(first.index, top.index);
        QCOMPARE(first.file, top.file);
        QVERIFY(std::abs(first.confidence - top.confidence) < 1e-5);
        const ModelView picture = review.picture(top.index);
        QCOMPARE(picture.channels * picture.height * picture.width, int64_t(3 * 16 * 16));
        QCOMPARE(int64_t(picture.pixels.size()), int64_t(3 * 16 * 16));
    }

    void cellsOfATableNameTheirLines()
    {
        // A table's samples are named by their line in the file, through the validation split drawn
        // from it; a blank line and the header count as lines. The row shown is the row read.
        QFile f(dir_.filePath(QStringLiteral("lines.csv")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("x,y,kind\n");
        std::mt19937 rng(4);
        std::normal_distribution<double> noise(0, 0.8);
        const char* names[] = {"low", "mid", "high"};
        for (int i = 0; i < 150; ++i) {
            if (i == 70)
                f.write("\n");
            f.write(QStringLiteral("%1,%2,%3\n")
                        .arg(i % 3 + noise(rng), 0, 'f', 3)
                        .arg(noise(rng), 0, 'f', 3)
                        .arg(QLatin1String(names[i % 3]))
                        .toUtf8());
        }
        f.close();
        RunStore store(dir_.filePath(QStringLiteral("lines.sqlite")).toStdString());
        Events events;
        StopToken stop;
        const RunResult r = Trainer(config(QStringLiteral(R"({"data": {"dataset": "csv", "path": "%1", "label_column": "kind",
            "batch_size": 16, "val_fraction": 0.3}, "model": {"arch": "mlp", "hidden": [8]}, "optimizer": {"name": "adam", "lr": 0.01},
            "scheduler": {"name": "constant"}, "train": {"epochs": 2}})")
                                               .arg(f.fileName())))
                                .run(events, stop, &store, true);
        QVERIFY2(r.end.status == RunStatus::Finished, r.end.error.c_str());
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = f.readAll().split('\n');
        const SplitReview review = SplitReview::ofRun(store, r.runId);
        QVERIFY(review.table());
        QCOMPARE(review.tableFile(), f.fileName().toStdString());
        QCOMPARE(review.featureNames(), (std::vector<std::string>{"x", "y"}));
        QCOMPARE(review.disagreements(), int64_t(0));
        int64_t seen = 0;
        for (int64_t t = 0; t < 3; ++t)
            for (int64_t p = 0; p < 3; ++p)
                for (const ReviewedSample& s : review.cell(t, p)) {
                    QVERIFY(s.line >= 2 && s.line <= lines.size());
                    const QList<QByteArray> cells = lines[s.line - 1].split(',');
                    QCOMPARE(cells.size(), 3);
                    QCOMPARE(cells[2].toStdString(), review.classes()[size_t(t)]);
                    const std::vector<double> values = review.features(s.index);
                    QCOMPARE(values.size(), size_t(2));
                    for (size_t j = 0; j < 2; ++j)
                        QVERIFY2(std::abs(values[j] - cells[qsizetype(j)].toDouble()) < 1e-4, lines[s.line - 1].constData());
                    ++seen;
                }
        QCOMPARE(seen, int64_t(45)); // 30% of 150
    }

    void decodingOnTheFlyTrainsAsTheCacheDoes()
    {
        // data.cache_mb below the decoded size: every batch is decoded on the loader's threads. (A
        // clean copy of the folder: on the fly, a damaged file stops the run when it is met.)
        const QString clean = dir_.filePath(QStringLiteral("clean"));
        fixtures::writeFlatFolder(clean, 40);
        for (const char* damaged : {"/dog/corrupt.jpg", "/Zebra/truncated.png"})
            QVERIFY(QFile::remove(clean + QLatin1String(damaged)));
        QString json = imageFolderJson();
        json.replace(folder_, clean);
        QString streaming = imageFolderJson(QStringLiteral(R"(, "cache_mb": 0.001)"));
        streaming.replace(folder_, clean);
        Events cached, streamed;
        StopToken stop;
        const RunResult a = Trainer(config(json)).run(cached, stop);
        const RunResult b = Trainer(config(streaming)).run(streamed, stop);
        QVERIFY2(b.end.status == RunStatus::Finished, b.end.error.c_str());
        QCOMPARE(b.end.evaluation.confusion, a.end.evaluation.confusion);
        QVERIFY(std::abs(streamed.epochs.back().trainLoss - cached.epochs.back().trainLoss) < 1e-3);
    }

    void cifar10Trains()
    {
        const QString path = dir_.filePath(QStringLiteral("cifar"));
        QDir().mkpath(path);
        writeLearnableCifar(path.toStdString(), 60);
        Events events;
        StopToken stop;
        const RunResult r = Trainer(config(QStringLiteral(R"({"data": {"dataset": "cifar10", "path": "%1", "batch_size": 20},
            "model": {"arch": "cnn", "channels": [8, 8]}, "optimizer": {"name": "adam", "lr": 0.003},
            "scheduler": {"name": "constant"}, "train": {"epochs": 4}})")
                                               .arg(path)))
                                .run(events, stop);
        QVERIFY2(r.end.status == RunStatus::Finished, r.end.error.c_str());
        QVERIFY2(r.end.testAccuracy > 0.8, qPrintable(QString::number(r.end.testAccuracy))); // chance: 0.1
        QCOMPARE(events.start.classes.front(), std::string("airplane")); // no batches.meta.txt: the standard names
        QCOMPARE(events.start.inputShape, (std::vector<int64_t>{3, 32, 32}));
        QCOMPARE(r.end.evaluation.split, std::string("test"));
        QCOMPARE(total(r.end.evaluation.confusion), int64_t(60));
    }

    void csvWithClassNamesTrains()
    {
        QFile f(dir_.filePath(QStringLiteral("iris.csv")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("a,b,species\n");
        std::mt19937 rng(9);
        std::normal_distribution<double> noise(0, 0.3);
        const char* names[] = {"versicolor", "setosa", "virginica"};
        for (int i = 0; i < 300; ++i)
            f.write(QStringLiteral("%1,%2,%3\n")
                        .arg(i % 3 + noise(rng))
                        .arg(2 * (i % 3) + noise(rng))
                        .arg(QLatin1String(names[i % 3]))
                        .toUtf8());
        f.close();
        Events events;
        StopToken stop;
        const RunResult r = Trainer(config(QStringLiteral(R"({"data": {"dataset": "csv", "path": "%1", "label_column": "species",
            "batch_size": 32}, "model": {"arch": "mlp", "hidden": [16]}, "optimizer": {"name": "adam", "lr": 0.01},
            "scheduler": {"name": "constant"}, "train": {"epochs": 5}})")
                                               .arg(f.fileName())))
                                .run(events, stop);
        QVERIFY2(r.end.status == RunStatus::Finished, r.end.error.c_str());
        QVERIFY2(r.end.bestValAccuracy > 0.9, qPrintable(QString::number(r.end.bestValAccuracy)));
        QCOMPARE(events.start.classes, (std::vector<std::string>{"setosa", "versicolor", "virginica"})); // sorted
        QCOMPARE(r.end.evaluation.classes, events.start.classes);
        // Issue 29: a table's model has its FLOPs counted (2 features → 16 → 3 classes), so its MFU means
        // something; it was reported as 0.
        QCOMPARE(events.start.flopsPerSample, 2.0 * (2 * 16 + 16 * 3));
        // Epochs shorter than log_every (9 steps against 50) log each epoch's last step, and each epoch
        // says at which step it ended: a short run's charts had one point, and its epoch means at 0.
        QCOMPARE(events.epochs.size(), size_t(5));
        QCOMPARE(events.steps.size(), size_t(5));
        for (size_t e = 0; e < 5; ++e) {
            QCOMPARE(events.epochs[e].step, int64_t(9 * (e + 1)));
            QCOMPARE(events.steps[e].step, events.epochs[e].step);
        }
    }

    void aRunAtChanceSaysItIsNotLearning()
    {
        // A learning rate of 1e-9 leaves the loss where guessing puts it (ln 10).
        Events events;
        StopToken stop;
        Trainer(config(QStringLiteral(R"({"data": {"dataset": "synthetic", "train_limit": 600, "test_limit": 100},
            "model": {"arch": "mlp", "hidden": [16]}, "optimizer": {"name": "sgd", "lr": 1e-9, "momentum": 0, "nesterov": false},
            "scheduler": {"name": "constant"}, "train": {"epochs": 2}})")))
            .run(events, stop);
        QCOMPARE(events.end.status, RunStatus::Finished);
        const NoticeEvent* n = events.notice("not_learning");
        QVERIFY(n);
        QVERIFY2(n->message.find("lower learning rate") != std::string::npos, n->message.c_str());
        int count = 0;
        for (const auto& e : events.notices)
            count += e.kind == "not_learning";
        QCOMPARE(count, 1); // once, not every epoch

        // A first epoch cut short by train.max_steps is not an epoch's worth of steps: no verdict.
        Events shortRun;
        Trainer(config(QStringLiteral(R"({"data": {"dataset": "synthetic", "train_limit": 600, "test_limit": 100},
            "model": {"arch": "mlp", "hidden": [16]}, "optimizer": {"name": "sgd", "lr": 1e-9, "momentum": 0, "nesterov": false},
            "scheduler": {"name": "constant"}, "train": {"epochs": 2, "max_steps": 2}})")))
            .run(shortRun, stop);
        QCOMPARE(shortRun.end.status, RunStatus::Finished);
        QVERIFY(!shortRun.notice("not_learning"));
    }

    void aDamagedFileMetOnTheFlyNamesIt()
    {
        Events events;
        StopToken stop;
        const RunResult r = Trainer(config(imageFolderJson(QStringLiteral(R"(, "cache_mb": 0.001)")))).run(events, stop);
        QCOMPARE(r.end.status, RunStatus::Failed);
        QVERIFY2(r.end.error.find("truncated.png") != std::string::npos && r.end.error.find("data.cache_mb") != std::string::npos,
                 r.end.error.c_str());
    }

    void badInputsNameTheProblem_data()
    {
        QTest::addColumn<QString>("setup");
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("one class") << "one"
                                   << R"({"data": {"dataset": "image-folder", "path": "%1"}})"
                                   << "only one class";
        QTest::newRow("class without images") << "empty"
                                              << R"({"data": {"dataset": "image-folder", "path": "%1"}})"
                                              << "empty";
        QTest::newRow("sizes differ") << "sizes"
                                      << R"({"data": {"dataset": "image-folder", "path": "%1"}})"
                                      << "data.image_size";
        QTest::newRow("no folder") << "none"
                                   << R"({"data": {"dataset": "image-folder", "path": "%1/nowhere"}})"
                                   << "does not exist";
        QTest::newRow("cifar file missing") << "cifar"
                                            << R"({"data": {"dataset": "cifar10", "path": "%1"}})"
                                            << "test_batch.bin";
    }

    void badInputsNameTheProblem()
    {
        QFETCH(QString, setup);
        QFETCH(QString, json);
        QFETCH(QString, mentions);
        QTemporaryDir dir;
        const QString root = dir.path();
        std::mt19937 rng(1);
        if (setup == QStringLiteral("one")) {
            fixtures::writePng(fixtures::mkdirs(root, QStringLiteral("only")) + "/a.png", fixtures::noisy(8, 8, {1, 2, 3}, rng));
        } else if (setup == QStringLiteral("empty")) {
            fixtures::writePng(fixtures::mkdirs(root, QStringLiteral("a")) + "/a.png", fixtures::noisy(8, 8, {1, 2, 3}, rng));
            fixtures::mkdirs(root, QStringLiteral("empty"));
        } else if (setup == QStringLiteral("sizes")) {
            fixtures::writePng(fixtures::mkdirs(root, QStringLiteral("a")) + "/a.png", fixtures::noisy(8, 8, {1, 2, 3}, rng));
            fixtures::writePng(fixtures::mkdirs(root, QStringLiteral("b")) + "/b.png", fixtures::noisy(9, 8, {1, 2, 3}, rng));
        } else if (setup == QStringLiteral("cifar")) {
            writeLearnableCifar(root.toStdString(), 10);
            QVERIFY(QFile::remove(root + QStringLiteral("/test_batch.bin")));
        }
        RunStore store(dir.filePath(QStringLiteral("bad.sqlite")).toStdString());
        Events events;
        StopToken stop;
        const RunResult r = Trainer(config(json.arg(root))).run(events, stop, &store);
        QCOMPARE(r.end.status, RunStatus::Failed);
        QVERIFY2(QString::fromStdString(r.end.error).contains(mentions), r.end.error.c_str());
        // Nothing but the failed attempt and its message: no metrics, no checkpoints, no evaluation.
        const auto runs = store.listRuns();
        QCOMPARE(runs.size(), size_t(1));
        QVERIFY(store.metricKeys(runs[0].id).empty());
        QVERIFY(store.checkpoints(runs[0].id).empty());
        QVERIFY(runs[0].evaluationJson.empty());
    }

    void badImageKeysAreConfigurationErrors_data()
    {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("three sizes") << R"({"data": {"dataset": "image-folder", "path": "/x", "image_size": [1, 2, 3]}})"
                                     << "data.image_size";
        QTest::newRow("two channels") << R"({"data": {"dataset": "image-folder", "path": "/x", "channels": 2}})"
                                      << "data.channels";
        QTest::newRow("image key on IDX data") << R"({"data": {"image_size": 32}})"
                                               << "data.image_size";
    }

    void badImageKeysAreConfigurationErrors()
    {
        QFETCH(QString, json);
        QFETCH(QString, mentions);
        try {
            RunConfig::fromJson(json.toStdString());
            QFAIL("accepted");
        } catch (const ConfigError& e) {
            QVERIFY2(QString::fromStdString(e.what()).contains(mentions), e.what());
        }
    }

    void cliExportsClassesShapeAndEvaluation()
    {
        // entrena-cli: the start and end events carry them, the warning goes to stderr too, the export
        // sidecar and --metrics json keep them.
        const QString db = dir_.filePath(QStringLiteral("cli.sqlite"));
        QFile cfg(dir_.filePath(QStringLiteral("own.json")));
        QVERIFY(cfg.open(QIODevice::WriteOnly));
        cfg.write(nearChanceJson().toUtf8()); // near chance: wrong examples to name
        cfg.close();
        QProcess train;
        train.start(QStringLiteral(ENTRENA_CLI), {QStringLiteral("train"), QStringLiteral("--config"), cfg.fileName(),
                                                  QStringLiteral("--db"), db, QStringLiteral("--json")});
        QVERIFY(train.waitForFinished(120000));
        QCOMPARE(train.exitCode(), 0);
        QVERIFY(train.readAllStandardError().contains("data_warning"));
        QJsonObject start, end;
        for (const QByteArray& line : train.readAllStandardOutput().split('\n')) {
            const QJsonObject e = QJsonDocument::fromJson(line).object();
            if (e[QStringLiteral("event")] == QStringLiteral("start"))
                start = e;
            if (e[QStringLiteral("event")] == QStringLiteral("end"))
                end = e;
        }
        QCOMPARE(start[QStringLiteral("classes")].toArray().first().toString(), QStringLiteral("Zebra"));
        QCOMPARE(start[QStringLiteral("input_shape")].toArray().last().toInt(), 16);
        QCOMPARE(end[QStringLiteral("confusion")].toArray().size(), 3);
        QCOMPARE(end[QStringLiteral("per_class")].toArray().first().toObject()[QStringLiteral("class")].toString(),
                 QStringLiteral("Zebra"));
        // The most confidently wrong, each with its original file in its true class's folder.
        const QJsonArray wrong = end[QStringLiteral("wrong")].toArray();
        QVERIFY(!wrong.isEmpty());
        for (const QJsonValue& w : wrong) {
            const QFileInfo file(w[QStringLiteral("file")].toString());
            QVERIFY2(file.isAbsolute() && file.exists(), qPrintable(file.filePath()));
            QCOMPARE(file.dir().dirName(), w[QStringLiteral("true")].toString());
            QVERIFY(QFileInfo::exists(w[QStringLiteral("image")].toString()));
        }
        const QString weights = dir_.filePath(QStringLiteral("own.pt")),
                      metrics = dir_.filePath(QStringLiteral("own.json.metrics"));
        QCOMPARE(
            QProcess::execute(QStringLiteral(ENTRENA_CLI),
                              {QStringLiteral("export"), QStringLiteral("--run"), QStringLiteral("1"), QStringLiteral("--db"), db,
                               QStringLiteral("--checkpoint"), QStringLiteral("last"), QStringLiteral("--out"), weights}),
            0);
        QFile side(weights + QStringLiteral(".json"));
        QVERIFY(side.open(QIODevice::ReadOnly));
        const QJsonObject sidecar = QJsonDocument::fromJson(side.readAll()).object();
        QCOMPARE(sidecar[QStringLiteral("classes")].toArray().size(), 3);
        QCOMPARE(sidecar[QStringLiteral("input_shape")].toArray().first().toInt(), 3);
        QCOMPARE(sidecar[QStringLiteral("input")]
                     .toObject()[QStringLiteral("normalization")]
                     .toObject()[QStringLiteral("per_channel")]
                     .toBool(),
                 true);
        QCOMPARE(
            QProcess::execute(QStringLiteral(ENTRENA_CLI),
                              {QStringLiteral("export"), QStringLiteral("--run"), QStringLiteral("1"), QStringLiteral("--db"), db,
                               QStringLiteral("--metrics"), QStringLiteral("json"), QStringLiteral("--out"), metrics}),
            0);
        QFile m(metrics);
        QVERIFY(m.open(QIODevice::ReadOnly));
        const QJsonObject doc = QJsonDocument::fromJson(m.readAll()).object();
        QCOMPARE(doc[QStringLiteral("evaluation")].toObject()[QStringLiteral("confusion")].toArray().size(), 3);
        // export --metrics json names the same files.
        const QJsonArray exported = doc[QStringLiteral("evaluation")].toObject()[QStringLiteral("wrong")].toArray();
        QCOMPARE(exported.size(), wrong.size());
        for (qsizetype i = 0; i < wrong.size(); ++i)
            QCOMPARE(exported[i][QStringLiteral("file")].toString(), wrong[i][QStringLiteral("file")].toString());

        // export --true --predicted: the top wrong example's cell, as many samples as the matrix counts,
        // most confident first, led by that example; an unknown class names the run's classes (exit 2).
        const QJsonObject top = wrong.first().toObject();
        const QStringList classes = {QStringLiteral("Zebra"), QStringLiteral("cat"), QStringLiteral("dog")};
        const qsizetype t = classes.indexOf(top[QStringLiteral("true")].toString()),
                        p = classes.indexOf(top[QStringLiteral("predicted")].toString());
        const QString cellCsv = dir_.filePath(QStringLiteral("cell.csv")), cellJson = dir_.filePath(QStringLiteral("cell.json"));
        for (const QString& out : {cellCsv, cellJson})
            QCOMPARE(QProcess::execute(QStringLiteral(ENTRENA_CLI),
                                       {QStringLiteral("export"), QStringLiteral("--run"), QStringLiteral("1"),
                                        QStringLiteral("--db"), db, QStringLiteral("--true"), classes[t],
                                        QStringLiteral("--predicted"), classes[p], QStringLiteral("--out"), out}),
                     0);
        const qint64 count = end[QStringLiteral("confusion")].toArray()[t].toArray()[p].toInteger();
        QFile csv(cellCsv);
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QList<QByteArray> rows = csv.readAll().trimmed().split('\n');
        QCOMPARE(rows.first(), QByteArray("index,file,line,confidence"));
        QCOMPARE(rows.size() - 1, count);
        QCOMPARE(QString::fromUtf8(rows[1].split(',')[1]), top[QStringLiteral("file")].toString());
        QFile json(cellJson);
        QVERIFY(json.open(QIODevice::ReadOnly));
        const QJsonObject cellDoc = QJsonDocument::fromJson(json.readAll()).object();
        const QJsonArray cellSamples = cellDoc[QStringLiteral("samples")].toArray();
        QCOMPARE(cellSamples.size(), count);
        QCOMPARE(cellDoc[QStringLiteral("disagreements")].toInt(), 0);
        for (qsizetype i = 0; i < cellSamples.size(); ++i) {
            QCOMPARE(QFileInfo(cellSamples[i][QStringLiteral("file")].toString()).dir().dirName(), classes[t]);
            if (i > 0)
                QVERIFY(cellSamples[i - 1][QStringLiteral("confidence")].toDouble() >=
                        cellSamples[i][QStringLiteral("confidence")].toDouble());
        }
        QProcess unknown;
        unknown.start(QStringLiteral(ENTRENA_CLI),
                      {QStringLiteral("export"), QStringLiteral("--run"), QStringLiteral("1"), QStringLiteral("--db"), db,
                       QStringLiteral("--true"), QStringLiteral("horse"), QStringLiteral("--predicted"), QStringLiteral("cat"),
                       QStringLiteral("--out"), cellCsv});
        QVERIFY(unknown.waitForFinished(120000));
        QCOMPARE(unknown.exitCode(), 2);
        const QByteArray said = unknown.readAllStandardError();
        QVERIFY2(said.contains("no class 'horse'") && said.contains("'Zebra', 'cat', 'dog'"), said.constData());
        QCOMPARE(doc[QStringLiteral("run")].toObject()[QStringLiteral("classes")].toArray().size(), 3);
    }
};

QTEST_APPLESS_MAIN(TestOwnData)
#include "tst_own_data.moc"
