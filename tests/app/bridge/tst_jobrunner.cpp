// The bridge's job runner: results, progress and errors arrive on the thread that owns the
// runner, cancel stops the work, receivers that are gone are not called, several jobs run at
// once, and destroying the runner waits for what still runs.
#include "JobRunner.h"

#include <QElapsedTimer>
#include <QSemaphore>
#include <QSignalSpy>
#include <QThread>
#include <QtTest>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>

using namespace entrena::app;

namespace {

struct Answer {
    int value = 0;
    QThread* workThread = nullptr;
};

/// Spins until `cancelled` or the deadline; true when it was cancelled.
bool waitForCancel(const JobContext& context, int ms = 60000)
{
    QElapsedTimer clock;
    clock.start();
    while (!context.isCancelled() && clock.elapsed() < ms)
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    return context.isCancelled();
}

} // namespace

class TestJobRunner : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void resultArrivesOnTheGuiThread()
    {
        JobRunner runner;
        QThread* gui = QThread::currentThread();
        QThread* finishedOn = nullptr;
        QStringList order;
        Answer answer;
        auto job = runner.run(QStringLiteral("answer"), [](JobContext&) { return Answer{42, QThread::currentThread()}; });
        QVERIFY(job.isRunning());
        QCOMPARE(runner.jobs().size(), 1);
        QCOMPARE(runner.jobs().first()->name(), QStringLiteral("answer"));
        connect(job.job(), &Job::started, this, [&] { order << QStringLiteral("started"); });
        job.onFinished(this, [&](const Answer& a) {
            finishedOn = QThread::currentThread();
            answer = a;
            order << QStringLiteral("finished");
        });
        QSignalSpy ended(&runner, &JobRunner::jobEnded);
        QVERIFY(ended.wait(10000));
        QCOMPARE(answer.value, 42);
        QCOMPARE(finishedOn, gui);
        QVERIFY(answer.workThread && answer.workThread != gui); // the work itself ran elsewhere
        QCOMPARE(order, (QStringList{QStringLiteral("started"), QStringLiteral("finished")}));
        QVERIFY(runner.jobs().isEmpty());
        QVERIFY(!job.isRunning());
        QTRY_VERIFY(job.job() == nullptr); // it deleted itself

        // Work returning nothing finishes too.
        bool done = false;
        runner.run(QStringLiteral("void"), [](JobContext&) {}).onFinished(this, [&] { done = true; });
        QTRY_VERIFY(done);
    }

    void progressArrivesInOrderOnTheGuiThread()
    {
        JobRunner runner;
        constexpr int kCount = 2000;
        QSemaphore reported;
        QList<int> received;
        bool allOnGui = true;
        bool progressAfterFinish = false;
        bool finished = false;
        auto job = runner.run(QStringLiteral("count"), [&reported](JobContext& c) {
            for (int i = 0; i < kCount; ++i)
                c.progress(i);
            reported.release();
            return kCount;
        });
        job.onProgress<int>(this, [&](int i) {
            received << i;
            allOnGui = allOnGui && QThread::currentThread() == thread();
            progressAfterFinish = progressAfterFinish || finished;
        });
        job.onFinished(this, [&](int) { finished = true; });
        // The GUI thread does not run its loop here: were progress() waiting for it, the work
        // could not get through its reports.
        QVERIFY(reported.tryAcquire(1, 20000));
        QVERIFY(received.isEmpty()); // queued, not called on the work's thread
        QTRY_VERIFY(finished);
        QCOMPARE(received.size(), kCount);
        for (int i = 0; i < kCount; ++i)
            QCOMPARE(received[i], i);
        QVERIFY(allOnGui);
        QVERIFY(!progressAfterFinish);
    }

    void cancelStopsALongJob()
    {
        JobRunner runner;
        std::atomic<bool> sawCancel{false};
        auto job = runner.run(QStringLiteral("long"), [&sawCancel](JobContext& c) {
            sawCancel = waitForCancel(c);
            return 1; // returned after cancel: still not finished()
        });
        QSignalSpy started(job.job(), &Job::started);
        QSignalSpy finished(job.job(), &Job::finished);
        QSignalSpy failed(job.job(), &Job::failed);
        QSignalSpy cancelled(job.job(), &Job::cancelled);
        QVERIFY(started.wait(10000));
        QCOMPARE(job.job()->state(), Job::State::Running);
        QElapsedTimer clock;
        clock.start();
        job.cancel();
        QVERIFY(cancelled.wait(10000));
        QVERIFY(clock.elapsed() < 10000); // stopped by the cancel, not by its own deadline
        QVERIFY(sawCancel);
        QCOMPARE(cancelled.size(), 1);
        QCOMPARE(finished.size(), 0);
        QCOMPARE(failed.size(), 0);
    }

    void queuedJobCancelledNeverRuns()
    {
        JobRunner runner;
        runner.setMaxConcurrent(1);
        auto blocker = runner.run(QStringLiteral("blocker"), [](JobContext& c) { return waitForCancel(c); });
        std::atomic<bool> ran{false};
        auto queued = runner.run(QStringLiteral("queued"), [&ran](JobContext&) { ran = true; });
        QCOMPARE(runner.jobs().size(), 2);
        bool cancelled = false, started = false;
        connect(queued.job(), &Job::started, this, [&] { started = true; });
        queued.onCancelled(this, [&] { cancelled = true; });
        queued.cancel();
        blocker.cancel();
        QTRY_VERIFY(cancelled);
        QVERIFY(!ran);
        QVERIFY(!started);
    }

    void exceptionBecomesFailed()
    {
        JobRunner runner;
        QString message;
        bool finished = false;
        runner.run(QStringLiteral("throws"), [](JobContext&) -> int { throw std::runtime_error("disk on fire"); })
            .onFinished(this, [&](int) { finished = true; })
            .onFailed(this, [&](const QString& m) { message = m; });
        QTRY_VERIFY(!message.isEmpty());
        QCOMPARE(message, QStringLiteral("disk on fire"));
        QVERIFY(!finished);

        // Something that is not a std::exception fails with a message of its own.
        QString other;
        runner.run(QStringLiteral("throws 7"), [](JobContext&) -> int { throw 7; }).onFailed(this, [&](const QString& m) {
            other = m;
        });
        QTRY_VERIFY(!other.isEmpty());
    }

    void receiverDeletedMidJobIsNotCalled()
    {
        JobRunner runner;
        QSemaphore gate;
        auto job = runner.run(QStringLiteral("late"), [&gate](JobContext& c) {
            gate.acquire();
            c.progress(1);
            return 2;
        });
        auto* receiver = new QObject;
        bool called = false;
        job.onProgress<int>(receiver, [&called](int) { called = true; })
            .onFinished(receiver, [&called](int) { called = true; })
            .onFailed(receiver, [&called](const QString&) { called = true; })
            .onCancelled(receiver, [&called] { called = true; });
        // A receiver that stays: the job did deliver, to the living only.
        QObject keeper;
        bool kept = false;
        job.onFinished(&keeper, [&kept](int r) { kept = r == 2; });
        QSignalSpy ended(&runner, &JobRunner::jobEnded);
        delete receiver;
        gate.release();
        QVERIFY(ended.wait(10000));
        QVERIFY(kept);
        QVERIFY(!called);
    }

    void severalJobsRunAtOnce()
    {
        JobRunner runner;
        constexpr int kJobs = 3;
        std::atomic<int> running{0};
        int together = 0;
        for (int i = 0; i < kJobs; ++i) {
            // Each waits until all are running: only jobs running at the same time get through.
            runner
                .run(QStringLiteral("together %1").arg(i),
                     [&running](JobContext& c) {
                         ++running;
                         QElapsedTimer clock;
                         clock.start();
                         while (running < kJobs && !c.isCancelled() && clock.elapsed() < 20000)
                             std::this_thread::sleep_for(std::chrono::milliseconds(1));
                         return running >= kJobs;
                     })
                .onFinished(this, [&together](bool all) { together += all ? 1 : 0; });
        }
        QCOMPARE(runner.jobs().size(), kJobs);
        QTRY_COMPARE_WITH_TIMEOUT(together, kJobs, 30000);

        // The running ones are listed, and cancelled all together.
        int cancelled = 0;
        for (int i = 0; i < kJobs; ++i)
            runner.run(QStringLiteral("long %1").arg(i), [](JobContext& c) { return waitForCancel(c); })
                .onCancelled(this, [&cancelled] { ++cancelled; });
        QCOMPARE(runner.jobs().size(), kJobs);
        const auto allRunning = [&runner] {
            const QList<Job*> jobs = runner.jobs();
            return std::all_of(jobs.begin(), jobs.end(), [](Job* j) { return j->state() == Job::State::Running; });
        };
        QTRY_VERIFY(allRunning());
        runner.cancelAll();
        QTRY_COMPARE(cancelled, kJobs);
        QVERIFY(runner.jobs().isEmpty());
    }

    void destroyingTheRunnerWaitsForRunningJobs()
    {
        auto* runner = new JobRunner;
        std::atomic<bool> started{false}, returned{false};
        bool delivered = false;
        runner
            ->run(QStringLiteral("slow to stop"),
                  [&](JobContext& c) {
                      started = true;
                      waitForCancel(c);
                      std::this_thread::sleep_for(std::chrono::milliseconds(300)); // winding down
                      returned = true;
                  })
            .onFinished(this, [&delivered] { delivered = true; })
            .onCancelled(this, [&delivered] { delivered = true; });
        QTRY_VERIFY(started);
        QElapsedTimer clock;
        clock.start();
        delete runner; // cancels, then waits
        QVERIFY(returned);
        QVERIFY(clock.elapsed() < 20000);
        QCoreApplication::processEvents();
        QVERIFY(!delivered); // its receivers may be going too: nothing is delivered after
    }
};

QTEST_GUILESS_MAIN(TestJobRunner)
#include "tst_jobrunner.moc"
