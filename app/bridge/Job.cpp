#include "Job.h"

#include <QPointer>

namespace entrena::app {

Job::Job(quint64 id, const QString& name, std::shared_ptr<detail::JobState> state, QObject* parent)
    : QObject(parent)
    , id_(id)
    , name_(name)
    , shared_(std::move(state))
{
    shared_->owner = this; // before the work can start: it posts to the owner
}

Job::~Job()
{
    shared_->stop.requestStop();
    shared_->detach();
}

void Job::cancel()
{
    shared_->stop.requestStop();
}

void Job::deliver()
{
    bool started = false;
    std::vector<QVariant> progressed;
    auto outcome = detail::JobState::Outcome::None;
    QVariant result;
    QString error;
    {
        const std::lock_guard<std::mutex> lock(shared_->mutex);
        shared_->posted = false;
        started = shared_->started;
        progressed.swap(shared_->progress);
        outcome = shared_->outcome;
        result = std::move(shared_->result);
        error = std::move(shared_->error);
    }
    // A receiver may delete the job from a slot: stop emitting then.
    const QPointer<Job> alive(this);
    if (started && state_ == State::Queued) {
        state_ = State::Running;
        Q_EMIT this->started();
    }
    for (const QVariant& value : progressed) {
        if (!alive || isCancelRequested())
            break; // after cancel() only cancelled() follows
        Q_EMIT progress(value);
    }
    if (!alive || outcome == detail::JobState::Outcome::None)
        return;
    if (isCancelRequested())
        outcome = detail::JobState::Outcome::Cancelled;
    switch (outcome) {
    case detail::JobState::Outcome::Finished:
        state_ = State::Finished;
        Q_EMIT finished(result);
        break;
    case detail::JobState::Outcome::Failed:
        state_ = State::Failed;
        Q_EMIT failed(error);
        break;
    default:
        state_ = State::Cancelled;
        Q_EMIT cancelled();
        break;
    }
    if (!alive)
        return;
    Q_EMIT ended();
    if (alive)
        deleteLater();
}

} // namespace entrena::app
