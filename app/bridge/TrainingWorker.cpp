#include "TrainingWorker.h"

#include "entrena/RunStore.h"
#include "entrena/Trainer.h"

#include <QDir>
#include <QFileInfo>

namespace entrena::app {

TrainingWorker::TrainingWorker(RunConfig config, QString dbPath, TrainingObserver& observer, const StopToken& stop)
    : config_(std::move(config))
    , dbPath_(std::move(dbPath))
    , observer_(observer)
    , stop_(stop)
{
}

void TrainingWorker::run()
{
    try {
        // The worker has its own connection: SQLite connections are not shared across threads.
        RunStore store(dbPath_.toStdString());
        const QString checkpoints = QFileInfo(dbPath_).absoluteDir().filePath(QStringLiteral("checkpoints"));
        if (resumeRunId_ > 0)
            Trainer::resume(std::to_string(resumeRunId_), observer_, stop_, store, checkpoints.toStdString());
        else
            Trainer(config_).run(observer_, stop_, &store, checkpoints.toStdString());
    } catch (const std::exception& e) {
        // Only the store or a resume that cannot start throw here (the trainer reports its own
        // failures as events).
        EndEvent end;
        end.status = RunStatus::Failed;
        end.error = e.what();
        observer_.onEnd(end);
    }
    Q_EMIT finished();
}

} // namespace entrena::app
