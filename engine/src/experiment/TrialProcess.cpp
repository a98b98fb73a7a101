#include "experiment/TrialProcess.h"

#include "system/ChildProcess.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <stdexcept>
#include <unistd.h>

namespace entrena {

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
    ChildSpec spec(program, args);
    spec.env = env;
    int out[2], err[2];
    openPipes(out, err);
    spec.stdoutFd = out[1];
    spec.stderrFd = err[1];
    try {
        pid_ = spawnChild(spec, "cannot start a trial");
    } catch (...) {
        for (int fd : {out[0], out[1], err[0], err[1]})
            close(fd);
        throw;
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
            killAndReap(pid_);
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
    for (const auto& line : takeLines(out_, outPartial_)) {
        auto j = nlohmann::json::parse(line, nullptr, false);
        if (!j.is_discarded() && j.is_object())
            events.push_back(std::move(j));
    }
    return events;
}

void TrialProcess::readErrors()
{
    for (auto& line : takeLines(err_, errPartial_))
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
    const auto end = reapIfEnded(pid_);
    if (!end)
        return false;
    exited_ = true;
    exitCode_ = end->shellStatus();
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
