#pragma once

#include "Job.h"

#include <QDebug>
#include <QMetaType>
#include <QPointer>
#include <type_traits>
#include <utility>

namespace entrena::app {

namespace detail {

/// The value inside `v` when it holds a T (no copy), else null.
template <class T>
const T* valueIn(const QVariant& v)
{
    if constexpr (std::is_same_v<T, QVariant>) {
        return &v;
    } else {
        if (v.metaType() != QMetaType::fromType<T>()) {
            qWarning("JobHandle: a job delivered %s where %s was expected", v.metaType().name(), QMetaType::fromType<T>().name());
            return nullptr;
        }
        return static_cast<const T*>(v.constData());
    }
}

} // namespace detail

/// A Job seen with the type its work returns: the callbacks receive an R, not a QVariant. Each
/// callback runs on the runner's thread, only while `context` lives (Qt disconnects it when the
/// context is destroyed). The handle turns empty when the job has ended and deleted itself.
template <class R>
class JobHandle {
public:
    JobHandle() = default;
    explicit JobHandle(Job* job)
        : job_(job)
    {
    }

    /// Null once the job has ended and deleted itself.
    Job* job() const { return job_; }
    /// Queued or running: it has not yet said finished(), failed() or cancelled().
    bool isRunning() const { return job_ && (job_->state() == Job::State::Queued || job_->state() == Job::State::Running); }
    void cancel() const
    {
        if (job_)
            job_->cancel();
    }

    /// `f(const R&)`, or `f()` when R is void.
    template <class F>
    const JobHandle& onFinished(const QObject* context, F f) const
    {
        if (job_)
            QObject::connect(job_, &Job::finished, context, [f = std::move(f)](const QVariant& v) mutable {
                if constexpr (std::is_void_v<R>) {
                    f();
                } else if (const R* r = detail::valueIn<R>(v)) {
                    f(*r);
                }
            });
        return *this;
    }
    /// `f(const P&)` for each value the work passed to JobContext::progress(), in order.
    template <class P, class F>
    const JobHandle& onProgress(const QObject* context, F f) const
    {
        if (job_)
            QObject::connect(job_, &Job::progress, context, [f = std::move(f)](const QVariant& v) mutable {
                if (const P* p = detail::valueIn<P>(v))
                    f(*p);
            });
        return *this;
    }
    /// `f(const QString& message)`.
    template <class F>
    const JobHandle& onFailed(const QObject* context, F f) const
    {
        if (job_)
            QObject::connect(job_, &Job::failed, context, std::move(f));
        return *this;
    }
    /// `f()`.
    template <class F>
    const JobHandle& onCancelled(const QObject* context, F f) const
    {
        if (job_)
            QObject::connect(job_, &Job::cancelled, context, std::move(f));
        return *this;
    }

private:
    QPointer<Job> job_;
};

} // namespace entrena::app
