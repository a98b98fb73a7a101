#include "system/ChildProcess.h"

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

extern char** environ;

namespace entrena {
namespace {

bool named(std::string_view entry, const std::string& name)
{
    return entry.size() > name.size() && entry.compare(0, name.size(), name) == 0 && entry[name.size()] == '=';
}

/// The child's environment: this process's, less what `spec` unsets or sets, then what it sets.
std::vector<std::string> environmentOf(const ChildSpec& spec)
{
    std::vector<std::string> env;
    for (char** e = environ; *e; ++e) {
        const std::string_view entry(*e);
        const auto matches = [&](const std::string& name) { return named(entry, name); };
        const bool set = std::any_of(spec.env.begin(), spec.env.end(), [&](const auto& kv) { return matches(kv.first); });
        if (!set && std::none_of(spec.unset.begin(), spec.unset.end(), matches))
            env.emplace_back(entry);
    }
    for (const auto& [name, value] : spec.env)
        env.push_back(name + "=" + value);
    return env;
}

} // namespace

pid_t spawnChild(const ChildSpec& spec, const std::string& what)
{
    std::vector<std::string> env = environmentOf(spec), args = spec.args;
    std::string program = spec.program;
    std::vector<char*> argv{program.data()}, envp;
    for (auto& a : args)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    for (auto& e : env)
        envp.push_back(e.data());
    envp.push_back(nullptr);
    const std::string failure = "cannot run " + program + "\n";

    const pid_t parent = ::getpid();
    const pid_t pid = ::fork();
    if (pid < 0)
        throw std::runtime_error(what + ": " + std::strerror(errno));
    if (pid == 0) {
        // The child: dies with its parent, even one killed with SIGKILL (and at once if the
        // parent is already gone).
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (::getppid() != parent)
            ::_exit(127);
        if (spec.stdoutFd >= 0)
            ::dup2(spec.stdoutFd, STDOUT_FILENO);
        if (spec.stderrFd >= 0)
            ::dup2(spec.stderrFd, STDERR_FILENO);
        for (const int fd : spec.keepFds)
            ::fcntl(fd, F_SETFD, 0);
        ::execve(argv[0], argv.data(), envp.data());
        [[maybe_unused]] const auto written = ::write(STDERR_FILENO, failure.data(), failure.size());
        ::_exit(127);
    }
    return pid;
}

std::optional<ChildExit> reapIfEnded(pid_t pid)
{
    int status = 0;
    if (::waitpid(pid, &status, WNOHANG) != pid)
        return std::nullopt;
    ChildExit e;
    if (WIFSIGNALED(status))
        e.signal = WTERMSIG(status);
    else
        e.exitCode = WEXITSTATUS(status);
    return e;
}

void killAndReap(pid_t pid)
{
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
}

std::vector<std::string> takeLines(int fd, std::string& partial, bool* ended)
{
    char buffer[65536];
    for (;;) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (ended)
                *ended = n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK);
            break;
        }
        partial.append(buffer, size_t(n));
    }
    std::vector<std::string> lines;
    size_t start = 0, nl;
    while ((nl = partial.find('\n', start)) != std::string::npos) {
        lines.push_back(partial.substr(start, nl - start));
        start = nl + 1;
    }
    partial.erase(0, start);
    return lines;
}

} // namespace entrena
