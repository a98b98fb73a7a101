// Exact resume: a run stopped and resumed ends with the weights of a run never interrupted.
#include "entrena/store/Checkpoints.h"
#include "entrena/store/RunStore.h"
#include "entrena/train/Trainer.h"

#include <QFile>
#include <QDir>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <sqlite3.h>

using namespace entrena;

namespace {

struct StopAt : TrainingObserver {
    StopToken* token = nullptr;
    int64_t atStep = -1;  ///< stop after this logged step
    int atEpoch = -1;     ///< or after this epoch
    std::vector<StepEvent> steps;
    void onStep(const StepEvent& e) override
    {
        steps.push_back(e);
        if (e.step == atStep)
            token->requestStop();
    }
    void onEpoch(const EpochEvent& e) override
    {
        if (e.epoch == atEpoch)
            token->requestStop();
    }
};

RunConfig config()
{
    // Dropout, augmentation and a per-step schedule: resume must restore RNG, data position and
    // scheduler state, not only the weights.
    return RunConfig::fromJson(R"({"name": "resume", "seed": 11,
        "data": {"path": ")" ENTRENA_FMNIST_DIR R"(", "train_limit": 2000, "test_limit": 500, "batch_size": 50,
                 "augment_crop": 2, "augment_flip": true, "workers": 1},
        "model": {"arch": "mlp", "hidden": [64], "dropout": 0.2},
        "optimizer": {"name": "sgd", "lr": 0.05, "momentum": 0.9, "nesterov": true},
        "scheduler": {"name": "one_cycle", "max_lr": 0.1},
        "train": {"epochs": 2, "log_every": 4},
        "devices": {"threads": 1}})");
}

std::string lastCheckpoint(RunStore& store, int64_t run)
{
    const auto all = store.checkpoints(run);
    return all.empty() ? std::string() : all.back().path;
}

} // namespace

class TestResume : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;
    std::string straightCheckpoint_;
    std::vector<double> straightLosses_;

private Q_SLOTS:
    void initTestCase()
    {
        RunStore store(dir_.filePath(QStringLiteral("straight.sqlite")).toStdString());
        StopAt quiet;
        StopToken stop;
        const RunResult r = Trainer(config()).run(quiet, stop, &store, true);
        QCOMPARE(r.end.status, RunStatus::Finished);
        straightCheckpoint_ = lastCheckpoint(store, r.runId);
        for (const auto& m : store.metrics(r.runId, "train_loss"))
            straightLosses_.push_back(m.value);
    }

    void resumeAtAnEpochBoundaryIsExact() { stopAndResume(/*atStep=*/-1, /*atEpoch=*/1); }

    void resumeInsideAnEpochIsExact() { stopAndResume(/*atStep=*/12, /*atEpoch=*/-1); }

    void damagedCheckpointIsRefusedAndTheRunLeftAlone()
    {
        const QString db = dir_.filePath(QStringLiteral("damaged.sqlite"));
        RunStore store(db.toStdString());
        StopToken stop;
        StopAt obs;
        obs.token = &stop;
        obs.atEpoch = 1;
        const RunResult r = Trainer(config()).run(obs, stop, &store, true);
        const QString file = QString::fromStdString(lastCheckpoint(store, r.runId));
        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadWrite));
        f.seek(f.size() / 2);
        f.write("garbage!");
        f.close();
        StopToken fresh;
        StopAt quiet;
        try {
            Trainer::resume(std::to_string(r.runId), quiet, fresh, store);
            QFAIL("resumed from a damaged checkpoint");
        } catch (const ResumeError& e) {
            QVERIFY2(QString::fromStdString(e.what()).contains(QStringLiteral("damaged")), e.what());
        }
        QCOMPARE(store.findRun(std::to_string(r.runId))->status, RunStatus::Stopped);
    }

    void finishedOrUnknownRunsCannotBeResumed()
    {
        RunStore store(dir_.filePath(QStringLiteral("straight.sqlite")).toStdString());
        StopToken stop;
        StopAt quiet;
        QVERIFY_THROWS_EXCEPTION(ResumeError, Trainer::resume("1", quiet, stop, store));
        QVERIFY_THROWS_EXCEPTION(ResumeError, Trainer::resume("no-such-run", quiet, stop, store));
    }

    void checkpointOfAnotherModelIsNamedAsSuch()
    {
        // Resume loads the latest checkpoint into the run's own model: a checkpoint of another
        // architecture in its place must be refused with the tensor and both shapes named.
        const QString db = dir_.filePath(QStringLiteral("other.sqlite"));
        RunStore store(db.toStdString());
        StopToken stopA, stopB;
        StopAt a, b;
        a.token = &stopA;
        a.atEpoch = 1;
        b.token = &stopB;
        b.atEpoch = 1;
        const RunResult ra = Trainer(config()).run(a, stopA, &store, true);
        RunConfig narrow = config();
        narrow.model.hidden = {32};
        const RunResult rb = Trainer(narrow).run(b, stopB, &store, true);
        const std::string target = lastCheckpoint(store, ra.runId);
        QVERIFY(QFile::remove(QString::fromStdString(target)));
        QVERIFY(QFile::copy(QString::fromStdString(lastCheckpoint(store, rb.runId)), QString::fromStdString(target)));
        // As a schema-1 store would have it: no recorded checksum, so only the architecture check stands.
        sqlite3* raw = nullptr;
        QCOMPARE(sqlite3_open(db.toUtf8().constData(), &raw), SQLITE_OK);
        QCOMPARE(sqlite3_exec(raw, "UPDATE checkpoints SET checksum=''", nullptr, nullptr, nullptr), SQLITE_OK);
        sqlite3_close(raw);

        StopToken fresh;
        StopAt quiet;
        const RunResult r = Trainer::resume(std::to_string(ra.runId), quiet, fresh, store);
        QCOMPARE(r.end.status, RunStatus::Failed);
        const QString message = QString::fromStdString(r.end.error);
        QVERIFY2(message.contains(QStringLiteral("written for another model")), qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("[32, 784] there and [64, 784] here")),
                 qPrintable(message));
        // Comparing the two files is refused the same way.
        QVERIFY_THROWS_EXCEPTION(CheckpointError, maxParameterDifference(straightCheckpoint_, target));
    }

    // Issue 33: every checkpoint was kept forever (30 epochs, 30 files). By default the best and the
    // latest stay, as the run goes, and the latest is enough to resume exactly.
    void aTenEpochRunKeepsTheBestAndTheLatestAndResumesExactly()
    {
        RunConfig ten = config();
        ten.train.epochs = 10;
        ten.data.trainLimit = 1000;
        RunStore store(dir_.filePath(QStringLiteral("ten.sqlite")).toStdString());
        StopAt quiet;
        StopToken stop;
        const RunResult straight = Trainer(ten).run(quiet, stop, &store, true);
        QCOMPARE(straight.end.status, RunStatus::Finished);

        StopToken stopAt6;
        StopAt six;
        six.token = &stopAt6;
        six.atEpoch = 6;
        const RunResult a = Trainer(ten).run(six, stopAt6, &store, true);
        QCOMPARE(a.end.status, RunStatus::Stopped);
        const auto files = [&](int64_t run) {
            return QDir(QString::fromStdString(store.runFolder(run))).entryList({QStringLiteral("*.pt")}, QDir::Files);
        };
        QVERIFY2(files(a.runId).size() <= 2, qPrintable(files(a.runId).join(QLatin1Char(' '))));
        StopToken fresh;
        StopAt quietToo;
        const RunResult b = Trainer::resume(std::to_string(a.runId), quietToo, fresh, store);
        QVERIFY2(b.end.status == RunStatus::Finished, b.end.error.c_str());
        const double diff = maxParameterDifference(lastCheckpoint(store, straight.runId), lastCheckpoint(store, b.runId));
        QVERIFY2(diff <= 1e-6, qPrintable(QStringLiteral("weights differ by %1").arg(diff)));

        for (const int64_t run : {straight.runId, b.runId}) {
            const auto kept = store.checkpoints(run);
            QVERIFY(!kept.empty() && kept.size() <= 2);
            QCOMPARE(files(run).size(), qsizetype(kept.size())); // no file without its row, no row without its file
            QCOMPARE(kept.back().epoch, 10);                     // the latest …
            QVERIFY(std::any_of(kept.begin(), kept.end(), [](const CheckpointRecord& c) { return c.isBest; })); // … and the best
        }
        // 0 keeps every one, as before.
        ten.train.keepCheckpoints = 0;
        const RunResult all = Trainer(ten).run(quiet, stop, &store, true);
        QCOMPARE(store.checkpoints(all.runId).size(), size_t(10));
        QCOMPARE(files(all.runId).size(), 10);
    }

private:
    void stopAndResume(int64_t atStep, int atEpoch)
    {
        const QString tag = QString::number(atStep) + QLatin1Char('_') + QString::number(atEpoch);
        RunStore store(dir_.filePath(QStringLiteral("resume%1.sqlite").arg(tag)).toStdString());
        StopToken stop;
        StopAt first;
        first.token = &stop;
        first.atStep = atStep;
        first.atEpoch = atEpoch;
        const RunResult a = Trainer(config()).run(first, stop, &store, true);
        QCOMPARE(a.end.status, RunStatus::Stopped);

        StopToken fresh;
        StopAt second;
        const RunResult b = Trainer::resume(std::to_string(a.runId), second, fresh, store);
        QVERIFY2(b.end.status == RunStatus::Finished, b.end.error.c_str());
        QCOMPARE(b.runId, a.runId); // the same run record

        const double diff = maxParameterDifference(straightCheckpoint_, lastCheckpoint(store, b.runId));
        QVERIFY2(diff <= 1e-6, qPrintable(QStringLiteral("weights differ by %1").arg(diff)));
        // The stored loss curve reads as one uninterrupted run.
        std::vector<double> losses;
        for (const auto& m : store.metrics(b.runId, "train_loss"))
            losses.push_back(m.value);
        QCOMPARE(losses.size(), straightLosses_.size());
        for (size_t i = 0; i < losses.size(); ++i)
            QVERIFY(std::abs(losses[i] - straightLosses_[i]) <= 1e-6);
        QCOMPARE(store.findRun(std::to_string(b.runId))->status, RunStatus::Finished);
        QCOMPARE(store.metrics(b.runId, "val_accuracy").size(), size_t(2));
    }
};

QTEST_APPLESS_MAIN(TestResume)
#include "tst_resume.moc"
