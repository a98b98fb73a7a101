#pragma once
// Starting and reaping the processes Entrena runs as children — a sweep's trials and folds
// (experiment/TrialProcess) and a run's ranks (dist/Launcher) — in one place: each child dies with
// its parent (PR_SET_PDEATHSIG), even one killed with SIGKILL, and is told apart from a child that
// could not start.

#include <optional>
#include <string>
#include <sys/types.h>
#include <utility>
#include <vector>

namespace entrena {

/// What to start: `program args…` in this process's environment, less `unset`, with `env` set.
struct ChildSpec {
    ChildSpec(std::string program, std::vector<std::string> args)
        : program(std::move(program))
        , args(std::move(args))
    {
    }
    std::string program;
    std::vector<std::string> args;
    std::vector<std::pair<std::string, std::string>> env; ///< set, replacing this process's value
    std::vector<std::string> unset;                       ///< names left out of the child's environment
    int stdoutFd = -1;                                    ///< the child's stdout (-1: this process's)
    int stderrFd = -1;                                    ///< the child's stderr (-1: this process's)
    std::vector<int> keepFds;                             ///< kept open across exec (close-on-exec cleared)
};

/// Forks and execs `spec`. Everything the child needs is made before the fork: the caller may have
/// threads, and a child of a threaded process may only call async-signal-safe functions until it
/// execs. A program that cannot be executed writes "cannot run PROGRAM" to its stderr and exits 127.
/// Throws std::runtime_error (the system's reason after `what`) when no process can be made.
pid_t spawnChild(const ChildSpec& spec, const std::string& what);

/// How a child ended: its exit status, or the signal that killed it.
struct ChildExit {
    int exitCode = -1; ///< 0–255 when it exited
    int signal = 0;    ///< the signal that killed it, else 0
    /// One number as a shell gives it: the exit status, or 128 + the signal.
    int shellStatus() const { return signal ? 128 + signal : exitCode; }
};

/// The child's end when it has ended (it is then reaped), else nullopt; never blocks.
std::optional<ChildExit> reapIfEnded(pid_t pid);

/// Kills the child with SIGKILL and reaps it (for destructors of what still runs).
void killAndReap(pid_t pid);

/// Reads what `fd` holds now (up to EOF or until it would block) onto `partial`, and takes out the
/// complete lines; `ended` is set when the other end is closed.
std::vector<std::string> takeLines(int fd, std::string& partial, bool* ended = nullptr);

} // namespace entrena
