#include "TrainingController.h"

#include "TrainingWorker.h"

#include <QCoreApplication>
#include <QMetaObject>
#include <QThread>

namespace entrena::app {

TrainingController::TrainingController(QObject* parent) : QObject(parent) {}

TrainingController::~TrainingController() { stopAndWait(); }

bool TrainingController::start(const RunConfig& config, const QString& dbPath, int ranks)
{
    return launch(config, dbPath, 0, ranks);
}

bool TrainingController::resume(qint64 runId, const QString& dbPath) { return launch(RunConfig{}, dbPath, runId, 1); }

QString TrainingController::rankProgram() const
{
    if (!rankProgram_.isEmpty())
        return rankProgram_;
    const QString fromEnv = qEnvironmentVariable("ENTRENA_RANK_PROGRAM");
    return fromEnv.isEmpty() ? QCoreApplication::applicationDirPath() + QStringLiteral("/entrena-cli") : fromEnv;
}

bool TrainingController::launch(const RunConfig& config, const QString& dbPath, qint64 resumeRunId, int ranks)
{
    if (thread_)
        return false;
    stop_ = std::make_unique<StopToken>();
    QPointer<TrainingController> self(this);
    queue_ = std::make_unique<EventQueue>([self] {
        if (self)
            QMetaObject::invokeMethod(self.data(), &TrainingController::drain, Qt::QueuedConnection);
    });

    thread_ = new QThread(this);
    auto* worker = new TrainingWorker(config, dbPath, *queue_, *stop_);
    worker->setResume(resumeRunId);
    worker->setRanks(ranks, rankProgram());
    worker->moveToThread(thread_);
    connect(thread_, &QThread::started, worker, &TrainingWorker::run);
    connect(worker, &TrainingWorker::finished, thread_, &QThread::quit);
    connect(thread_, &QThread::finished, worker, &QObject::deleteLater);
    connect(thread_, &QThread::finished, this, &TrainingController::onThreadFinished);
    thread_->start();
    return true;
}

void TrainingController::stop()
{
    if (stop_)
        stop_->requestStop();
}

void TrainingController::stopAndWait()
{
    if (!thread_)
        return;
    stop();
    thread_->quit();
    thread_->wait();
    onThreadFinished();
}

void TrainingController::drain()
{
    if (!queue_)
        return;
    QVector<StepEvent> batch;
    auto flushSteps = [&] {
        if (!batch.isEmpty()) {
            Q_EMIT steps(batch);
            batch.clear();
        }
    };
    for (auto& event : queue_->takeAll()) {
        if (auto* s = std::get_if<StepEvent>(&event)) {
            batch.push_back(*s);
            continue;
        }
        flushSteps();
        if (auto* e = std::get_if<StartEvent>(&event))
            Q_EMIT started(*e);
        else if (auto* e = std::get_if<EpochEvent>(&event))
            Q_EMIT epochEnded(*e);
        else if (auto* e = std::get_if<NoticeEvent>(&event))
            Q_EMIT notice(*e);
        else if (auto* e = std::get_if<EndEvent>(&event))
            Q_EMIT ended(*e);
    }
    flushSteps();
}

void TrainingController::onThreadFinished()
{
    if (!thread_)
        return;
    drain(); // whatever the worker queued last
    thread_->deleteLater();
    thread_ = nullptr;
    Q_EMIT idle();
}

} // namespace entrena::app
