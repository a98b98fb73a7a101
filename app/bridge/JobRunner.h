#pragma once

#include "Job.h"
#include "JobContext.h"
#include "JobHandle.h"

#include <QList>
#include <QObject>
#include <QThreadPool>
#include <functional>
#include <memory>
#include <type_traits>

namespace entrena::app {

/// Runs work off the GUI thread, on a pool of its own, several jobs at once. Each job reports on
/// the thread that owns the runner (see Job): the one place where work meets the GUI, instead of
/// a future, a watcher and queued calls written again by each caller.
///
///     runner->run(tr("Find batch size"), [config](JobContext& c) { return findBatchSize(config, {}, c.stopToken()); })
///         .onFinished(this, [this](const BatchSizeResult& r) { … })
///         .onFailed(this, [this](const QString& message) { … });
class JobRunner : public QObject {
    Q_OBJECT
public:
    explicit JobRunner(QObject* parent = nullptr);
    /// Cancels every job and waits for their work to return; nothing more is delivered.
    ~JobRunner() override;

    /// The application's runner, created on first use (on the GUI thread, with a
    /// QCoreApplication). It is destroyed as the application is — cancelling and waiting for its
    /// jobs — first thing in ~QCoreApplication, while events can still be posted.
    static JobRunner* shared();

    /// Starts `work(JobContext&)` on a pool thread (or queues it while maxConcurrent() jobs run).
    /// Its return value R (copyable; void allowed) arrives in finished(); an exception it throws,
    /// as failed(what()). Call on the runner's thread.
    template <class Work>
    auto run(const QString& name, Work work) -> JobHandle<std::invoke_result_t<Work&, JobContext&>>;

    /// Jobs queued or running, in the order they were started.
    QList<Job*> jobs() const { return jobs_; }
    void cancelAll();
    /// How many jobs run at once (default: at least 4, so a long search leaves room for loading).
    int maxConcurrent() const { return pool_.maxThreadCount(); }
    void setMaxConcurrent(int jobs) { pool_.setMaxThreadCount(jobs); }

Q_SIGNALS:
    void jobAdded(entrena::app::Job* job);
    /// After the job's own ended(), before it is deleted.
    void jobEnded(entrena::app::Job* job);

private:
    Job* start(const QString& name, std::function<QVariant(JobContext&)> work);

    QThreadPool pool_;
    QList<Job*> jobs_;
    quint64 nextId_ = 1;
};

template <class Work>
auto JobRunner::run(const QString& name, Work work) -> JobHandle<std::invoke_result_t<Work&, JobContext&>>
{
    using R = std::invoke_result_t<Work&, JobContext&>;
    static_assert(std::is_void_v<R> || std::is_copy_constructible_v<R>, "a job's result travels in a QVariant");
    // Shared, so a work holding move-only state still fits in a std::function.
    auto shared = std::make_shared<Work>(std::move(work));
    Job* job = start(name, [shared](JobContext& context) -> QVariant {
        if constexpr (std::is_void_v<R>) {
            (*shared)(context);
            return {};
        } else if constexpr (std::is_same_v<R, QVariant>) {
            return (*shared)(context);
        } else {
            return QVariant::fromValue((*shared)(context));
        }
    });
    return JobHandle<R>(job);
}

} // namespace entrena::app
