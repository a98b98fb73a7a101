#pragma once
// A fork server for a sweep's trials (docs/experiments.md, "How trials run"). Starting a trial as
// `entrena-cli train` costs ~0.4 s of loading LibTorch before its first step — more than a whole
// short trial trains. So a sweep starts one `entrena-cli trial-server` that loads LibTorch once and
// never computes, and asks it to fork each trial: the trial is still its own process (its own exit
// status, crash and memory, started from the same pristine state every time), at the cost of a
// fork. Android's zygote and Chromium's do the same for the same reason.
//
// The driver and the server speak over a SOCK_SEQPACKET socket: a request carries the trial's
// arguments and environment as JSON and its stdout and stderr as descriptors (SCM_RIGHTS); the
// server answers with the trial's pid, and later with its exit status, as it reaps it.

#include <map>
#include <optional>
#include <string>
#include <sys/types.h>
#include <utility>
#include <vector>

namespace entrena {

using TrialEnv = std::vector<std::pair<std::string, std::string>>;

class TrialServer {
public:
    /// Starts `program trial-server --fd N --db DB --config BASE`: it reads the data files of the
    /// configuration file BASE before it forks anything (the store is named only so that the server
    /// and its trials show which sweep they belong to in `ps`). Dies with this process. Throws
    /// std::runtime_error when it cannot start.
    TrialServer(const std::string& program, const std::string& db, const std::string& baseConfig);
    ~TrialServer(); ///< closes the socket: the server ends, and trials still running die with it
    TrialServer(const TrialServer&) = delete;
    TrialServer& operator=(const TrialServer&) = delete;

    /// Forks a trial running `args` with `env` added, its stdout and stderr going to `outFd` and
    /// `errFd` (the caller closes its copies). Returns its pid; throws std::runtime_error when the
    /// server is gone or cannot fork.
    pid_t start(const std::vector<std::string>& args, const TrialEnv& env, int outFd, int errFd);
    /// Reads the exit statuses the server has reported (without blocking).
    void collect();
    /// The exit status of `pid` if the server reported it (as TrialProcess::exitCode counts it),
    /// once: a later trial may get the same pid.
    std::optional<int> takeExitCode(pid_t pid);
    /// Has the server send `sig` to its trial `pid` if it has not reaped it: only it knows whether
    /// the pid is still that trial's.
    void signal(pid_t pid, int sig);
    /// False once the server has gone (its trials died with it).
    bool alive() const { return alive_; }
    /// Readable when the server reports something: for a poll() set.
    int fd() const { return socket_; }
    /// A file the server reads (its configuration), deleted when the server ends.
    void removeWhenDone(std::string path) { ownedFile_ = std::move(path); }

private:
    bool receive(bool wait);

    int socket_ = -1;
    pid_t pid_ = -1;
    bool alive_ = true;
    std::map<pid_t, int> exited_; ///< reported, not yet taken
    std::optional<pid_t> started_;
    std::string startError_;
    std::string ownedFile_;
};

} // namespace entrena
