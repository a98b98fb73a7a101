#pragma once

#include "JobState.h"

#include <QObject>
#include <QString>
#include <QVariant>
#include <memory>

namespace entrena::app {

/// One piece of work a JobRunner runs on a pool thread. It lives on the runner's thread and says
/// everything there: started(), progress() in the order the work reported it, then exactly one
/// of finished(), failed() or cancelled(), then ended(); then it deletes itself. Connect with a
/// context object (or through JobHandle) so a receiver destroyed meanwhile is never called;
/// nothing is emitted before control returns to the event loop, so connecting right after
/// JobRunner::run() misses nothing.
class Job : public QObject {
    Q_OBJECT
public:
    enum class State { Queued, Running, Finished, Failed, Cancelled };
    Q_ENUM(State)

    /// Deleting a job that has not ended cancels it; its outcome is then dropped.
    ~Job() override;

    quint64 id() const { return id_; }
    const QString& name() const { return name_; }
    State state() const { return state_; }
    bool isCancelRequested() const { return shared_->stop.stopRequested(); }

    /// Asks the work to stop (it polls JobContext::isCancelled()). Progress is no longer
    /// delivered, and the job ends with cancelled() whatever the work then returns or throws.
    void cancel();

Q_SIGNALS:
    void started();
    void progress(const QVariant& value);
    /// The work's return value (empty for a work returning void).
    void finished(const QVariant& result);
    /// The work threw: the exception's what().
    void failed(const QString& message);
    void cancelled();
    /// After finished(), failed() or cancelled(); the job is deleted when control returns to the
    /// event loop.
    void ended();

private:
    friend class JobRunner;
    friend struct detail::JobState;

    Job(quint64 id, const QString& name, std::shared_ptr<detail::JobState> state, QObject* parent);
    /// On the runner's thread: emits what the work has handed over since the last delivery.
    void deliver();

    quint64 id_;
    QString name_;
    State state_ = State::Queued;
    std::shared_ptr<detail::JobState> shared_;
};

} // namespace entrena::app
