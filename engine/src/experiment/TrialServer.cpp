#include "experiment/TrialServer.h"

#include "entrena/experiment/Sweep.h"
#include "system/ChildProcess.h"

#include <array>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <nlohmann/json.hpp>
#include <poll.h>
#include <set>
#include <stdexcept>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

namespace entrena {
namespace {

using nlohmann::json;

constexpr size_t kMaxMessage = 1 << 16;
/// How long the driver waits for the server to answer a request: its first answer comes after it has
/// loaded LibTorch and read the data (a second or so). Past this it is given up and trials are exec'd.
constexpr int kAnswerMs = 60'000;

std::string lastErrno()
{
    return std::strerror(errno);
}

/// Sends one message, with `fds` attached when there are any. False when the peer is gone.
bool sendMessage(int socket, const std::string& text, const std::vector<int>& fds = {})
{
    iovec io{const_cast<char*>(text.data()), text.size()};
    msghdr m{};
    m.msg_iov = &io;
    m.msg_iovlen = 1;
    alignas(cmsghdr) std::array<char, CMSG_SPACE(2 * sizeof(int))> control{};
    if (!fds.empty()) {
        m.msg_control = control.data();
        m.msg_controllen = CMSG_SPACE(fds.size() * sizeof(int));
        cmsghdr* c = CMSG_FIRSTHDR(&m);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(fds.size() * sizeof(int));
        std::memcpy(CMSG_DATA(c), fds.data(), fds.size() * sizeof(int));
    }
    ssize_t n;
    do
        n = ::sendmsg(socket, &m, MSG_NOSIGNAL);
    while (n < 0 && errno == EINTR);
    return n == ssize_t(text.size());
}

/// Receives one message and the descriptors attached to it. Empty text with `gone` set: the peer
/// closed its end (or the socket failed); empty text without it: nothing there yet (non-blocking).
std::string receiveMessage(int socket, bool wait, std::vector<int>& fds, bool& gone)
{
    std::string text(kMaxMessage, '\0');
    iovec io{text.data(), text.size()};
    msghdr m{};
    m.msg_iov = &io;
    m.msg_iovlen = 1;
    alignas(cmsghdr) std::array<char, CMSG_SPACE(2 * sizeof(int))> control{};
    m.msg_control = control.data();
    m.msg_controllen = control.size();
    ssize_t n;
    do
        n = ::recvmsg(socket, &m, (wait ? 0 : MSG_DONTWAIT) | MSG_CMSG_CLOEXEC);
    while (n < 0 && errno == EINTR);
    gone = n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK);
    for (cmsghdr* c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c))
        if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
            const size_t count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
            fds.resize(count);
            std::memcpy(fds.data(), CMSG_DATA(c), count * sizeof(int));
        }
    text.resize(n > 0 ? size_t(n) : 0);
    return text;
}

int exitCodeOfStatus(int status)
{
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/// In a forked trial: becomes `entrena-cli args…` with its own descriptors and signals, and exits.
[[noreturn]] void becomeTrial(pid_t server, const sigset_t& mask, const json& request, const std::vector<int>& fds,
                              const std::function<int(const std::vector<std::string>&)>& run)
{
    // Dies with the server, which dies with the sweep: a sweep killed with SIGKILL leaves no trial.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != server)
        _exit(127);
    prctl(PR_SET_NAME, "entrena-trial"); // its command line is the server's: `ps -o comm` tells them apart
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
    sigprocmask(SIG_SETMASK, &mask, nullptr);
    dup2(fds[0], STDOUT_FILENO);
    dup2(fds[1], STDERR_FILENO);
    ::close(fds[0]);
    ::close(fds[1]);
    for (const auto& [key, value] : request.value("env", json::array()).get<std::vector<std::pair<std::string, std::string>>>())
        setenv(key.c_str(), value.c_str(), 1);
    const int code = run(request.value("args", std::vector<std::string>{}));
    std::fflush(nullptr);
    // _exit: the server's own exit handlers and static objects are not the trial's to run.
    _exit(code);
}

} // namespace

TrialServer::TrialServer(const std::string& program, const std::string& db, const std::string& baseConfig)
{
    int sv[2];
    if (::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0)
        throw std::runtime_error("cannot start the trial server: " + lastErrno());
    ChildSpec server(program, {"trial-server", "--fd", std::to_string(sv[1]), "--db", db, "--config", baseConfig});
    server.keepFds = {sv[1]}; // the server's end of the socket, across exec
    try {
        pid_ = spawnChild(server, "cannot start the trial server");
    } catch (...) {
        ::close(sv[0]);
        ::close(sv[1]);
        throw;
    }
    ::close(sv[1]);
    socket_ = sv[0];
}

TrialServer::~TrialServer()
{
    ::close(socket_);
    // Its trials are gone by now (the driver's trial processes go first); one that hangs must not
    // hang the sweep.
    if (pid_ > 0)
        killAndReap(pid_);
    if (!ownedFile_.empty())
        ::unlink(ownedFile_.c_str());
}

bool TrialServer::receive(bool wait)
{
    std::vector<int> fds;
    bool gone = false;
    const std::string text = receiveMessage(socket_, wait, fds, gone);
    for (int fd : fds)
        ::close(fd);
    if (gone) {
        alive_ = false;
        return false;
    }
    if (text.empty())
        return false;
    const json m = json::parse(text, nullptr, false);
    if (m.contains("started")) {
        started_ = m["started"].get<pid_t>();
        exited_.erase(*started_); // an earlier trial's status under the same pid is not this one's
    } else if (m.contains("error"))
        startError_ = m["error"].get<std::string>();
    else if (m.contains("exited"))
        exited_[m["exited"].get<pid_t>()] = m.value("code", 1);
    return true;
}

pid_t TrialServer::start(const std::vector<std::string>& args, const TrialEnv& env, int outFd, int errFd)
{
    if (!alive_ || !sendMessage(socket_, json{{"args", args}, {"env", env}}.dump(), {outFd, errFd})) {
        alive_ = false;
        throw std::runtime_error("the trial server has gone");
    }
    started_.reset();
    startError_.clear();
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kAnswerMs);
    while (!started_ && startError_.empty()) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        pollfd p{socket_, POLLIN, 0};
        if (left.count() <= 0 || (::poll(&p, 1, int(left.count())) == 0)) {
            ::kill(pid_, SIGKILL); // stuck (stopped, or its data on a stalled disk): exec the trials instead
            alive_ = false;
        }
        if (!alive_ || (!receive(false) && !alive_))
            throw std::runtime_error("the trial server has gone");
    }
    if (!started_)
        throw std::runtime_error("the trial server cannot start a trial: " + startError_);
    return *started_;
}

void TrialServer::collect()
{
    while (alive_ && receive(false)) {
    }
}

std::optional<int> TrialServer::takeExitCode(pid_t pid)
{
    const auto it = exited_.find(pid);
    if (it == exited_.end())
        return std::nullopt;
    const int code = it->second;
    exited_.erase(it);
    return code;
}

void TrialServer::signal(pid_t pid, int sig)
{
    if (alive_)
        sendMessage(socket_, json{{"signal", pid}, {"number", sig}}.dump());
}

int serveTrials(int socket, const std::function<int(const std::vector<std::string>&)>& run)
{
    // Ctrl+C in a terminal reaches the whole process group: the trials stop themselves with a
    // checkpoint, and the server must outlive them for that (they die with it).
    std::signal(SIGINT, SIG_IGN);
    std::signal(SIGTERM, SIG_IGN);
    std::signal(SIGCHLD, SIG_DFL); // inherited SIG_IGN would reap the trials before their status is read
    sigset_t children, before;
    sigemptyset(&children);
    sigaddset(&children, SIGCHLD);
    sigprocmask(SIG_BLOCK, &children, &before);
    const int reaped = signalfd(-1, &children, SFD_CLOEXEC | SFD_NONBLOCK);
    if (reaped < 0) {
        std::fprintf(stderr, "trial server: %s\n", lastErrno().c_str());
        return 1;
    }
    const pid_t self = getpid();
    std::set<pid_t> trials; // forked, not reaped
    for (;;) {
        std::array<pollfd, 2> fds{pollfd{socket, POLLIN, 0}, pollfd{reaped, POLLIN, 0}};
        if (::poll(fds.data(), fds.size(), -1) < 0 && errno != EINTR)
            break;
        if (fds[1].revents & POLLIN) {
            signalfd_siginfo info;
            while (::read(reaped, &info, sizeof info) == ssize_t(sizeof info)) {
            }
            int status = 0;
            pid_t pid;
            while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
                trials.erase(pid);
                sendMessage(socket, json{{"exited", pid}, {"code", exitCodeOfStatus(status)}}.dump());
            }
        }
        if (!(fds[0].revents & (POLLIN | POLLHUP | POLLERR)))
            continue;
        std::vector<int> passed;
        bool gone = false;
        const std::string text = receiveMessage(socket, true, passed, gone);
        if (gone)
            break;
        const json request = json::parse(text, nullptr, false);
        if (request.is_object() && request.contains("signal") && passed.empty()) {
            const pid_t pid = request["signal"].get<pid_t>();
            if (trials.count(pid))
                ::kill(pid, request.value("number", SIGTERM));
            continue;
        }
        if (request.is_discarded() || !request.is_object() || passed.size() != 2) {
            for (int fd : passed)
                ::close(fd);
            sendMessage(socket, json{{"error", "a request needs its arguments and two descriptors"}}.dump());
            continue;
        }
        const pid_t pid = fork();
        if (pid == 0) {
            ::close(socket);
            ::close(reaped);
            becomeTrial(self, before, request, passed, run);
        }
        for (int fd : passed)
            ::close(fd);
        if (pid > 0)
            trials.insert(pid);
        sendMessage(socket, pid > 0 ? json{{"started", pid}}.dump() : json{{"error", lastErrno()}}.dump());
    }
    return 0;
}

} // namespace entrena
