#include "experiment/TrialProcess.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <stdexcept>
#include <string_view>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace entrena {
namespace {

/// Appends what `fd` has to `partial` and returns the complete lines.
std::vector<std::string> readLines(int fd, std::string& partial)
{
    std::vector<std::string> lines;
    char buffer[65536];
    for (;;) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n <= 0)
            break;
        partial.append(buffer, size_t(n));
    }
    size_t start = 0, nl;
    while ((nl = partial.find('\n', start)) != std::string::npos) {
        lines.push_back(partial.substr(start, nl - start));
        start = nl + 1;
    }
    partial.erase(0, start);
    return lines;
}

} // namespace

void TrialProcess::keepReadEnds(int out[2], int err[2])
{
    close(out[1]); // the trial has its copies
    close(err[1]);
    out_ = out[0];
    err_ = err[0];
    fcntl(out_, F_SETFL, fcntl(out_, F_GETFL) | O_NONBLOCK);
    fcntl(err_, F_SETFL, fcntl(err_, F_GETFL) | O_NONBLOCK);
}

void TrialProcess::openPipes(int out[2], int err[2])
{
    if (pipe2(out, O_CLOEXEC) != 0)
        throw std::runtime_error(std::string("cannot start a trial: ") + std::strerror(errno));
    if (pipe2(err, O_CLOEXEC) != 0) {
        close(out[0]);
        close(out[1]);
        throw std::runtime_error(std::string("cannot start a trial: ") + std::strerror(errno));
    }
}

TrialProcess::TrialProcess(const std::string& program, const std::vector<std::string>& args, const TrialEnv& env)
{
    // Everything the child needs is made before fork: the caller may have threads (the workbench), and
    // a child of a threaded process may only call async-signal-safe functions until it execs (no
    // malloc, no setenv).
    std::vector<char*> argv{const_cast<char*>(program.c_str())};
    for (const auto& a : args)
        argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    std::vector<std::string> overrides;
    for (const auto& [key, value] : env)
        overrides.push_back(key + "=" + value);
    std::vector<char*> envp;
    for (char** e = environ; *e; ++e) {
        const std::string_view entry(*e);
        const bool replaced = std::any_of(env.begin(), env.end(), [&](const auto& kv) {
            return entry.size() > kv.first.size() && entry.compare(0, kv.first.size(), kv.first) == 0 &&
                   entry[kv.first.size()] == '=';
        });
        if (!replaced)
            envp.push_back(*e);
    }
    for (auto& o : overrides)
        envp.push_back(o.data());
    envp.push_back(nullptr);
    const std::string failure = "cannot run " + program + "\n";

    int out[2], err[2];
    openPipes(out, err);
    const pid_t parent = getpid();
    pid_ = fork();
    if (pid_ < 0) {
        for (int fd : {out[0], out[1], err[0], err[1]})
            close(fd);
        throw std::runtime_error(std::string("cannot start a trial: ") + std::strerror(errno));
    }
    if (pid_ == 0) {
        // The child: dies with the sweep, even when the sweep is killed with SIGKILL.
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent)
            _exit(127);
        dup2(out[1], STDOUT_FILENO);
        dup2(err[1], STDERR_FILENO);
        execve(program.c_str(), argv.data(), envp.data());
        [[maybe_unused]] const auto written = write(STDERR_FILENO, failure.data(), failure.size());
        _exit(127);
    }
    keepReadEnds(out, err);
}

TrialProcess::TrialProcess(TrialServer& server, const std::vector<std::string>& args, const TrialEnv& env)
    : server_(&server)
{
    int out[2], err[2];
    openPipes(out, err);
    try {
        pid_ = server.start(args, env, out[1], err[1]);
    } catch (...) {
        for (int fd : {out[0], out[1], err[0], err[1]})
            close(fd);
        throw;
    }
    keepReadEnds(out, err);
}

TrialProcess::~TrialProcess()
{
    if (!exited_ && pid_ > 0) {
        if (server_) {
            server_->signal(pid_, SIGKILL); // the server reaps it, and knows whether the pid is still its
        } else {
            ::kill(pid_, SIGKILL);
            waitpid(pid_, nullptr, 0);
        }
    }
    if (out_ >= 0)
        close(out_);
    if (err_ >= 0)
        close(err_);
}

std::vector<nlohmann::json> TrialProcess::readEvents()
{
    std::vector<nlohmann::json> events;
    for (const auto& line : readLines(out_, outPartial_)) {
        auto j = nlohmann::json::parse(line, nullptr, false);
        if (!j.is_discarded() && j.is_object())
            events.push_back(std::move(j));
    }
    return events;
}

void TrialProcess::readErrors()
{
    for (auto& line : readLines(err_, errPartial_))
        if (!line.empty())
            lastError_ = line;
}

bool TrialProcess::poll()
{
    if (exited_)
        return true;
    if (server_) {
        server_->collect();
        if (const auto code = server_->takeExitCode(pid_)) {
            exitCode_ = *code;
        } else if (!server_->alive()) {
            exitCode_ = 128 + SIGKILL; // it died with its server
        } else {
            return false;
        }
        exited_ = true;
        return true;
    }
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) != pid_)
        return false;
    exited_ = true;
    exitCode_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return true;
}

void TrialProcess::signal(int sig)
{
    if (exited_ || pid_ <= 0)
        return;
    if (server_)
        server_->signal(pid_, sig);
    else
        ::kill(pid_, sig);
}

} // namespace entrena
