#pragma once
// Starting and supervising the ranks of a data-parallel run on this machine, the way torchrun
// does for one node: one process per rank with RANK, WORLD_SIZE, LOCAL_RANK, LOCAL_WORLD_SIZE,
// MASTER_ADDR=127.0.0.1 and MASTER_PORT set; when one fails, the others are stopped.

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace entrena {

struct LaunchSpec {
    std::string program;           ///< the executable every rank runs (entrena-cli)
    std::vector<std::string> args; ///< its arguments (argv[1] on)
    int worldSize = 1;
    int port = 0;                  ///< MASTER_PORT (pick one with freeLocalPort())
    std::vector<int> ranks;        ///< the ranks to start here (empty: all); the GUI runs rank 0 itself
    /// After one rank failed, how long the others get to stop on their own before SIGKILL.
    std::chrono::milliseconds grace{5000};
    /// After a stop request, how long the ranks get to stop on their own before SIGKILL (a stop
    /// takes effect at the next log step, and a checkpoint is saved).
    std::chrono::milliseconds stopGrace{120000};
};

/// How a supervised rank ended.
struct RankExit {
    int rank = 0;
    pid_t pid = 0;
    int exitCode = 0; ///< when it exited
    int signal = 0;   ///< when a signal killed it
    std::string lastError; ///< the last line it wrote to stderr
    bool failed() const { return signal != 0 || exitCode != 0; }
    /// "rank 1 was killed by signal 9 (Killed)" / "rank 1 exited with status 1: <last line>"
    std::string describe() const;
};

class RankSupervisor {
public:
    explicit RankSupervisor(LaunchSpec spec);
    /// Stops (SIGKILL) and reaps every rank still running: none is left behind.
    ~RankSupervisor();
    RankSupervisor(const RankSupervisor&) = delete;
    RankSupervisor& operator=(const RankSupervisor&) = delete;

    /// Starts the ranks. Their stdout: rank 0's is this process's (its event stream, relayed as
    /// it is), the others' is discarded; their stderr is copied to this process's stderr, each
    /// line prefixed "[rank N] ". A rank dies with this process (PR_SET_PDEATHSIG).
    /// Throws DistributedError when a process cannot be started.
    void start();

    /// Supervises until every rank has ended. The first failure (a non-zero status, a signal)
    /// makes the others stop: SIGTERM, then SIGKILL after the grace period. When `stopRequested`
    /// turns true, every rank is asked to stop (SIGTERM, which a rank treats as Stop) once, and
    /// killed if still there after stopGrace. When `abandon` turns true they are killed at once
    /// (their run cannot go on: the GUI's rank 0 could not meet them).
    /// Returns every rank's end, the first failure first.
    std::vector<RankExit> wait(const std::function<bool()>& stopRequested = {}, const std::function<bool()>& abandon = {});

    /// The processes started (by rank order of LaunchSpec::ranks).
    std::vector<pid_t> pids() const;

private:
    struct Child {
        int rank = 0;
        pid_t pid = 0;
        int errFd = -1;
        std::string partial; ///< stderr not yet ended by a newline
        RankExit exit;
        bool done = false;
    };
    void pump(int timeoutMs);
    void signalAll(int sig);

    LaunchSpec spec_;
    std::vector<Child> children_;
};

/// A command line and a Slurm batch script that run `configFile` on `nodes` machines of
/// `procsPerNode` ranks each (one per GPU, or CPU processes), for the user to copy.
struct ClusterLaunch {
    std::string torchrun; ///< the line to run on every node under torchrun
    std::string sbatch;   ///< a complete `sbatch` script
};
ClusterLaunch clusterLaunch(const std::string& configFile, int nodes, int procsPerNode, bool gpus,
                            const std::string& jobName = "entrena");

/// A Slurm job array of `tasks` tasks that run a grid or random sweep between them (`entrena-cli
/// sweep … --shard K/tasks`), each into a store of its own under stores/, and the commands that
/// import those stores afterwards. `sweepArgs` are the sweep's own arguments after --config;
/// `command` is sweep, or cv for a cross-validation (one fold per task).
ClusterLaunch clusterSweep(const std::string& configFile, const std::vector<std::string>& sweepArgs, int tasks,
                           bool gpus, const std::string& jobName, const std::string& command = "sweep");

} // namespace entrena
