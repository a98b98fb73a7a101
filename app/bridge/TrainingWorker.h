#pragma once

#include "entrena/config/Config.h"
#include "entrena/train/Events.h"

#include <QObject>
#include <QString>

namespace entrena {
class RunStore;
}

namespace entrena::app {

/// Runs one training run on the thread it is moved to. Its events go to the observer
/// (an EventQueue), never through Qt signals per step.
class TrainingWorker : public QObject {
    Q_OBJECT
public:
    TrainingWorker(RunConfig config, QString dbPath, TrainingObserver& observer, const StopToken& stop);
    /// Continues stored run `resumeRunId` from its latest checkpoint instead of starting a new one.
    void setResume(qint64 resumeRunId) { resumeRunId_ = resumeRunId; }
    /// Trains data-parallel on `ranks` processes: this one as rank 0, the others running `program`.
    void setRanks(int ranks, QString program)
    {
        ranks_ = ranks;
        rankProgram_ = std::move(program);
    }

    /// Trains, then emits finished(). Errors end the run as `failed` through the observer.
    void run();

Q_SIGNALS:
    void finished();

private:
    RunConfig config_;
    QString dbPath_;
    TrainingObserver& observer_;
    const StopToken& stop_;
    qint64 resumeRunId_ = 0;
    int ranks_ = 1;
    QString rankProgram_;

    void runRanks(RunStore& store);
};

} // namespace entrena::app
