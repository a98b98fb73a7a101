#pragma once

#include "EventQueue.h"
#include "entrena/Config.h"
#include "entrena/Events.h"

#include <QObject>
#include <QPointer>
#include <QString>
#include <QVector>

#include <memory>

class QThread;

namespace entrena::app {

/// Owns the training thread and turns the engine's events into Qt signals on the GUI thread,
/// one batch per drain, so a fast run costs the GUI one call per batch rather than per step.
class TrainingController : public QObject {
    Q_OBJECT
public:
    explicit TrainingController(QObject* parent = nullptr);
    ~TrainingController() override;

    bool isRunning() const { return thread_ != nullptr; }
    /// Starts a run; false (and nothing started) when one is already running.
    bool start(const RunConfig& config, const QString& dbPath);
    /// Continues a stored run from its latest checkpoint; false when one is already running.
    bool resume(qint64 runId, const QString& dbPath);
    /// Asks the run to stop after the current step; it saves a checkpoint and ends `stopped`.
    void stop();
    /// Stops and waits for the thread (for shutdown).
    void stopAndWait();

Q_SIGNALS:
    void started(const entrena::StartEvent& event);
    void steps(const QVector<entrena::StepEvent>& events);
    void epochEnded(const entrena::EpochEvent& event);
    void notice(const entrena::NoticeEvent& event);
    void ended(const entrena::EndEvent& event);
    /// The thread has finished (after ended()).
    void idle();

private:
    bool launch(const RunConfig& config, const QString& dbPath, qint64 resumeRunId);
    void drain();
    void onThreadFinished();

    std::unique_ptr<StopToken> stop_;
    std::unique_ptr<EventQueue> queue_;
    QThread* thread_ = nullptr;
};

} // namespace entrena::app
