#pragma once
// A sweep (entrena/experiment/Sweep.h) as a job of the bridge's runner: the engine's observer
// calls, made on the job's thread, arrive here as signals on the GUI thread; stop() asks every
// trial to stop after its step, with a checkpoint, and leaves the experiment resumable.

#include "JobHandle.h"
#include "entrena/experiment/Sweep.h"

#include <QObject>
#include <QString>

namespace entrena::ui {

/// One thing the sweep said, carried from its thread to the GUI's.
struct SweepNews {
    enum class Kind { SweepStart, TrialStart, TrialEnd, Exploit, TrialError };
    Kind kind = Kind::SweepStart;
    qint64 experiment = 0;
    int trials = 0;
    int trial = -1;
    qint64 runId = 0;
    QString text; ///< the method, the trial's values, or a line of its error output
    RunStatus status = RunStatus::Finished;
    bool hasMetric = false;
    double metric = 0;
    int epochs = 0;
    qint64 sourceRun = 0;
    qint64 step = 0;
};

class SweepRunner : public QObject {
    Q_OBJECT
public:
    explicit SweepRunner(QObject* parent = nullptr);
    ~SweepRunner() override; ///< stops a sweep in progress (the runner waits for it at exit)

    bool isRunning() const { return job_.isRunning(); }
    /// The experiment being run (0 until the sweep has created it).
    qint64 experiment() const { return experiment_; }
    /// Starts `plan` with trials of `launch.program` writing to `launch.dbPath`; false when one runs.
    bool start(const SweepPlan& plan, const SweepLaunch& launch);
    /// Continues a stopped experiment with its stored plan (resumeSweep); false when one runs.
    bool resume(qint64 experiment, const SweepLaunch& launch);
    void stop();

Q_SIGNALS:
    void news(const entrena::ui::SweepNews& news);
    void finished(const entrena::SweepResult& result);
    /// Stopped on request: its trials saved checkpoints; the experiment can be resumed.
    void stopped(qint64 experiment);
    void failed(const QString& message);

private:
    void follow();

    app::JobHandle<SweepResult> job_;
    qint64 experiment_ = 0;
};

} // namespace entrena::ui
