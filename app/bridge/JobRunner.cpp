#include "JobRunner.h"

#include <QCoreApplication>
#include <QThread>
#include <algorithm>
#include <exception>

namespace entrena::app {
namespace {

JobRunner* sharedRunner = nullptr;

void destroySharedRunner()
{
    delete sharedRunner;
    sharedRunner = nullptr;
}

} // namespace

JobRunner::JobRunner(QObject* parent)
    : QObject(parent)
{
    // Searches and sweeps can take minutes; loading a comparison should not queue behind them.
    pool_.setMaxThreadCount(std::max(4, QThread::idealThreadCount()));
}

JobRunner::~JobRunner()
{
    // First no job may post again (its receivers are going away with the application), then
    // every work is asked to stop, then waited for. The jobs themselves go with this QObject.
    for (Job* job : std::as_const(jobs_)) {
        job->shared_->detach();
        job->cancel();
    }
    pool_.clear(); // queued, not started: never run them
    pool_.waitForDone();
}

JobRunner* JobRunner::shared()
{
    if (!sharedRunner) {
        Q_ASSERT(QCoreApplication::instance());
        Q_ASSERT(QThread::currentThread() == QCoreApplication::instance()->thread());
        sharedRunner = new JobRunner;
        // Post routines run at the start of ~QCoreApplication: after the windows (destroyed
        // before the application in main()), before the event dispatcher goes.
        qAddPostRoutine(destroySharedRunner);
    }
    return sharedRunner;
}

void JobRunner::cancelAll()
{
    for (Job* job : std::as_const(jobs_))
        job->cancel();
}

Job* JobRunner::start(const QString& name, std::function<QVariant(JobContext&)> work)
{
    Q_ASSERT(QThread::currentThread() == thread());
    auto state = std::make_shared<detail::JobState>();
    auto* job = new Job(nextId_++, name, state, this);
    jobs_.append(job);
    connect(job, &Job::ended, this, [this, job] {
        jobs_.removeOne(job);
        Q_EMIT jobEnded(job);
    });
    // Deleted by someone else before it ended: forget it all the same.
    connect(job, &QObject::destroyed, this, [this, job] { jobs_.removeOne(job); });

    pool_.start([state, work = std::move(work)]() mutable {
        using Outcome = detail::JobState::Outcome;
        // Decided once: a job that said started() runs its work, even if cancelled right after.
        bool run = false;
        {
            const std::lock_guard<std::mutex> lock(state->mutex);
            run = !state->stop.stopRequested();
            if (run) {
                state->started = true;
                state->postLocked();
            }
        }
        Outcome outcome = Outcome::Cancelled;
        QVariant result;
        QString error;
        if (run) {
            JobContext context(*state);
            try {
                result = work(context);
                outcome = Outcome::Finished;
            } catch (const std::exception& e) {
                error = QString::fromStdString(e.what());
                outcome = Outcome::Failed;
            } catch (...) {
                error = tr("The work failed with an unknown error.");
                outcome = Outcome::Failed;
            }
        }
        // What the work captured is released here, on its own thread, before anyone hears it ended.
        work = nullptr;
        const std::lock_guard<std::mutex> lock(state->mutex);
        state->outcome = state->stop.stopRequested() ? Outcome::Cancelled : outcome;
        state->result = std::move(result);
        state->error = std::move(error);
        state->postLocked();
    });
    Q_EMIT jobAdded(job);
    return job;
}

} // namespace entrena::app
