#pragma once
// One trial's training in its own process (`entrena-cli train … --json`), as a sweep runs them: its
// event stream read line by line, its last error kept, and killed with the sweep (PR_SET_PDEATHSIG)
// so that a sweep killed with SIGKILL leaves no trial behind. Forked by the sweep's trial server
// (TrialServer.h), or started with exec when there is none.

#include "experiment/TrialServer.h"

#include <nlohmann/json.hpp>
#include <string>
#include <sys/types.h>
#include <vector>

namespace entrena {

class TrialProcess {
public:
    /// Starts `program args…` with `env` added to this process's environment. Throws
    /// std::runtime_error when it cannot.
    TrialProcess(const std::string& program, const std::vector<std::string>& args,
                 const TrialEnv& env);
    /// Asks `server` to fork `entrena-cli args…`. Throws std::runtime_error when it cannot.
    TrialProcess(TrialServer& server, const std::vector<std::string>& args, const TrialEnv& env);
    ~TrialProcess(); ///< kills it if still running (and reaps it, unless the server does)
    TrialProcess(const TrialProcess&) = delete;
    TrialProcess& operator=(const TrialProcess&) = delete;

    int stdoutFd() const { return out_; }
    int stderrFd() const { return err_; }
    /// Reads what is there (the descriptors are non-blocking); returns the complete JSON events.
    std::vector<nlohmann::json> readEvents();
    void readErrors();
    /// Reaps it if it has exited; true then.
    bool poll();
    void signal(int sig);
    bool exited() const { return exited_; }
    int exitCode() const { return exitCode_; }
    /// The last line it wrote to stderr (its error message).
    const std::string& lastError() const { return lastError_; }
    pid_t pid() const { return pid_; }

private:
    void openPipes(int out[2], int err[2]);
    void keepReadEnds(int out[2], int err[2]); ///< once the trial runs: closes the write ends, reads without blocking

    TrialServer* server_ = nullptr; ///< the trial's parent, which reaps it; null: this process is
    pid_t pid_ = -1;
    int out_ = -1, err_ = -1;
    std::string outPartial_, errPartial_, lastError_;
    bool exited_ = false;
    int exitCode_ = -1;
};

} // namespace entrena
