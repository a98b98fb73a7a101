#include "TrainingWorker.h"

#include "entrena/dist/Distributed.h"
#include "entrena/dist/Launcher.h"
#include "entrena/store/RunStore.h"
#include "entrena/train/Trainer.h"

#include <QDir>
#include <QFileInfo>
#include <QTemporaryFile>

#include <atomic>
#include <thread>

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
        if (resumeRunId_ > 0)
            Trainer::resume(std::to_string(resumeRunId_), observer_, stop_, store);
        else if (ranks_ > 1)
            runRanks(store);
        else
            Trainer(config_).run(observer_, stop_, &store, /*checkpoints=*/true);
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

void TrainingWorker::runRanks(RunStore& store)
{
    // The other ranks read the configuration from a file that lives as long as the run.
    QTemporaryFile file(QDir::temp().filePath(QStringLiteral("entrena-ranks-XXXXXX.json")));
    if (!file.open() || file.write(QByteArray::fromStdString(config_.toJson())) < 0 || !file.flush())
        throw std::runtime_error("cannot write the configuration for the other ranks to " + file.fileName().toStdString());

    LaunchSpec spec;
    spec.program = rankProgram_.toStdString();
    spec.args = {"train", "--config", file.fileName().toStdString(), "--db", dbPath_.toStdString()};
    spec.worldSize = ranks_;
    spec.port = freeLocalPort();
    for (int r = 1; r < ranks_; ++r)
        spec.ranks.push_back(r);
    // Once rank 0 is done the others end within moments; one that does not is killed after the
    // run's timeout.
    spec.stopGrace = std::chrono::milliseconds(int64_t(config_.devices.timeoutS * 1000) + 5000);
    if (!QFileInfo(rankProgram_).isExecutable())
        throw std::runtime_error("the program for the other ranks, " + spec.program +
                                 ", is missing; install entrena-cli beside entrena");

    RankSupervisor supervisor(spec);
    supervisor.start();
    std::atomic<bool> leaderDone{false}, leaderFailed{false};
    std::thread waiter([&] { supervisor.wait([&] { return leaderDone.load(); }, [&] { return leaderFailed.load(); }); });

    RankEnv env;
    env.rank = 0;
    env.worldSize = ranks_;
    env.localWorldSize = ranks_;
    env.masterPort = spec.port;
    env.source = "entrena";
    Trainer trainer(config_);
    trainer.setRank(env);
    try {
        trainer.run(observer_, stop_, &store, /*checkpoints=*/true);
    } catch (...) {
        // Rank 0 could not meet the others (nothing was trained): they would wait for it until
        // the rendezvous times out, so they go now.
        leaderFailed = true;
        leaderDone = true;
        waiter.join();
        throw; // reported as the run's failure
    }
    leaderDone = true;
    waiter.join();
}

} // namespace entrena::app
