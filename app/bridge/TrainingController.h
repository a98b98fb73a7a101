#pragma once

#include "EventQueue.h"
#include "entrena/config/Config.h"
#include "entrena/train/Events.h"

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
    /// Starts a run; false (and nothing started) when one is already running. With `ranks` > 1
    /// the run is data-parallel: this process trains as rank 0 (its events are the run's) and
    /// starts ranks 1.. as processes of the rank program (entrena-cli), supervised; Stop stops all.
    bool start(const RunConfig& config, const QString& dbPath, int ranks = 1);
    /// The executable the other ranks run (default: $ENTRENA_RANK_PROGRAM, else entrena-cli
    /// beside this program).
    void setRankProgram(const QString& path) { rankProgram_ = path; }
    QString rankProgram() const;
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
    bool launch(const RunConfig& config, const QString& dbPath, qint64 resumeRunId, int ranks);
    void drain();
    void onThreadFinished();

    std::unique_ptr<StopToken> stop_;
    std::unique_ptr<EventQueue> queue_;
    QThread* thread_ = nullptr;
    QString rankProgram_;
};

} // namespace entrena::app
