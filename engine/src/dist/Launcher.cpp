#include "entrena/dist/Launcher.h"

#include "entrena/dist/Distributed.h"
#include "system/ChildProcess.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <iostream>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

namespace entrena {

std::string RankExit::describe() const
{
    std::string s = "rank " + std::to_string(rank);
    if (signal != 0)
        s += " was killed by signal " + std::to_string(signal) + " (" + strsignal(signal) + ")";
    else
        s += " exited with status " + std::to_string(exitCode);
    if (!lastError.empty())
        s += ": " + lastError;
    return s;
}

RankSupervisor::RankSupervisor(LaunchSpec spec)
    : spec_(std::move(spec))
{
    if (spec_.ranks.empty())
        for (int r = 0; r < spec_.worldSize; ++r)
            spec_.ranks.push_back(r);
}

RankSupervisor::~RankSupervisor()
{
    for (auto& c : children_) {
        if (!c.done && c.pid > 0)
            killAndReap(c.pid);
        if (c.errFd >= 0)
            ::close(c.errFd);
    }
}

void RankSupervisor::start()
{
    for (int rank : spec_.ranks) {
        ChildSpec child(spec_.program, spec_.args);
        child.unset = {"SLURM_PROCID", "SLURM_NTASKS", "SLURM_LOCALID"};
        child.env = {{"RANK", std::to_string(rank)},       {"WORLD_SIZE", std::to_string(spec_.worldSize)},
                     {"LOCAL_RANK", std::to_string(rank)}, {"LOCAL_WORLD_SIZE", std::to_string(spec_.worldSize)},
                     {"MASTER_ADDR", "127.0.0.1"},         {"MASTER_PORT", std::to_string(spec_.port)}};
        const std::string what = "cannot start rank " + std::to_string(rank);
        int err[2];
        if (::pipe2(err, O_CLOEXEC) != 0)
            throw DistributedError(what + ": " + std::strerror(errno));
        const int devNull = rank == 0 ? -1 : ::open("/dev/null", O_WRONLY | O_CLOEXEC);
        child.stderrFd = err[1];
        child.stdoutFd = devNull; // rank 0 speaks for the run
        pid_t pid = -1;
        try {
            pid = spawnChild(child, what);
        } catch (...) {
            for (int fd : {err[0], err[1], devNull})
                if (fd >= 0)
                    ::close(fd);
            try {
                throw;
            } catch (const std::runtime_error& e) {
                throw DistributedError(e.what());
            }
        }
        ::close(err[1]);
        if (devNull >= 0)
            ::close(devNull);
        ::fcntl(err[0], F_SETFL, ::fcntl(err[0], F_GETFL) | O_NONBLOCK);
        Child c;
        c.rank = rank;
        c.pid = pid;
        c.errFd = err[0];
        c.exit.rank = rank;
        c.exit.pid = pid;
        children_.push_back(std::move(c));
    }
}

std::vector<pid_t> RankSupervisor::pids() const
{
    std::vector<pid_t> out;
    for (const auto& c : children_)
        out.push_back(c.pid);
    return out;
}

void RankSupervisor::pump(int timeoutMs)
{
    std::vector<pollfd> fds;
    std::vector<Child*> owners;
    for (auto& c : children_) {
        if (c.errFd >= 0) {
            fds.push_back({c.errFd, POLLIN, 0});
            owners.push_back(&c);
        }
    }
    if (fds.empty()) {
        ::usleep(useconds_t(timeoutMs) * 1000);
        return;
    }
    if (::poll(fds.data(), fds.size(), timeoutMs) <= 0)
        return;
    for (size_t i = 0; i < fds.size(); ++i) {
        if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
            continue;
        Child& c = *owners[i];
        bool ended = false;
        for (const std::string& line : takeLines(c.errFd, c.partial, &ended)) {
            std::cerr << "[rank " << c.rank << "] " << line << "\n";
            if (!line.empty())
                c.exit.lastError = line;
        }
        if (ended) {
            if (!c.partial.empty()) {
                std::cerr << "[rank " << c.rank << "] " << c.partial << "\n";
                c.exit.lastError = c.partial;
                c.partial.clear();
            }
            ::close(c.errFd);
            c.errFd = -1;
        }
        std::cerr.flush();
    }
}

void RankSupervisor::signalAll(int sig)
{
    for (auto& c : children_)
        if (!c.done)
            ::kill(c.pid, sig);
}

std::vector<RankExit> RankSupervisor::wait(const std::function<bool()>& stopRequested, const std::function<bool()>& abandon)
{
    using Clock = std::chrono::steady_clock;
    std::optional<Clock::time_point> failedAt, stopAt;
    std::vector<RankExit> order;
    bool stopSent = false, killed = false;
    size_t running = children_.size();
    while (running > 0) {
        pump(100);
        std::vector<RankExit> ended; // this round's; one killed by a signal is the likelier cause
        for (auto& c : children_) {
            if (c.done)
                continue;
            const auto end = reapIfEnded(c.pid);
            if (!end)
                continue;
            // What it still had to say.
            while (c.errFd >= 0)
                pump(50);
            c.done = true;
            --running;
            if (end->signal)
                c.exit.signal = end->signal;
            else
                c.exit.exitCode = end->exitCode;
            ended.push_back(c.exit);
        }
        std::stable_partition(ended.begin(), ended.end(), [](const RankExit& e) { return e.signal != 0; });
        for (const auto& e : ended) {
            order.push_back(e);
            if (e.failed() && !failedAt) {
                failedAt = Clock::now();
                signalAll(SIGTERM);
            }
        }
        if (!failedAt && !stopSent && stopRequested && stopRequested()) {
            stopSent = true;
            stopAt = Clock::now();
            signalAll(SIGTERM);
        }
        const bool overdue = (failedAt && Clock::now() - *failedAt > spec_.grace) ||
                             (stopAt && Clock::now() - *stopAt > spec_.stopGrace) || (abandon && abandon());
        if (overdue && !killed) {
            killed = true;
            signalAll(SIGKILL);
        }
    }
    // The first failure first; then by the order they ended.
    std::stable_partition(order.begin(), order.end(), [&](const RankExit& e) { return e.failed(); });
    return order;
}

namespace {

std::string shellQuote(const std::string& s)
{
    std::string out = "'";
    for (char ch : s)
        out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
    return out + "'";
}

/// A run name as a Slurm job name and file name: letters, digits, '.', '_' and '-' kept, anything
/// else (spaces, quotes, slashes, '%', which Slurm expands in --output) as '_'.
std::string slurmName(const std::string& name)
{
    std::string out;
    for (unsigned char ch : name)
        out += std::isalnum(ch) || ch == '.' || ch == '_' || ch == '-' ? char(ch) : '_';
    return out.empty() ? std::string("entrena") : out;
}

/// A name for a one-line shell comment: no line breaks.
std::string oneLine(std::string text)
{
    std::replace(text.begin(), text.end(), '\n', ' ');
    std::replace(text.begin(), text.end(), '\r', ' ');
    return text;
}

} // namespace

ClusterLaunch clusterLaunch(const std::string& configFile, int nodes, int procsPerNode, bool gpus, const std::string& runName)
{
    const std::string config = shellQuote(configFile);
    const std::string jobName = slurmName(runName);
    ClusterLaunch l;
    l.torchrun = "torchrun --nnodes=" + std::to_string(nodes) + " --nproc_per_node=" + std::to_string(procsPerNode) +
                 " --rdzv_backend=c10d --rdzv_endpoint=\"$MASTER_ADDR:29500\" --rdzv_id=" + shellQuote(jobName) +
                 " --no_python entrena-cli train --config " + config + " --json";
    std::string s;
    s += "#!/bin/bash\n";
    s += "# Entrena run '" + oneLine(runName) + "': " + std::to_string(nodes) + " node(s) x " + std::to_string(procsPerNode) +
         " rank(s)" + (gpus ? " (one per GPU)" : " (CPU processes)") + ". Submit with: sbatch this-file\n";
    s += "#SBATCH --job-name=" + jobName + "\n";
    s += "#SBATCH --nodes=" + std::to_string(nodes) + "\n";
    s += "#SBATCH --ntasks-per-node=1\n";
    if (gpus)
        s += "#SBATCH --gpus-per-node=" + std::to_string(procsPerNode) + "\n";
    s += "#SBATCH --output=" + jobName + "-%j.out\n\n";
    s += "set -euo pipefail\n";
    s += "# The first node hosts the rendezvous.\n";
    s += "export MASTER_ADDR=$(scontrol show hostnames \"$SLURM_JOB_NODELIST\" | head -n 1)\n";
    s += "export MASTER_PORT=29500\n\n";
    s += "# One torchrun per node starts its " + std::to_string(procsPerNode) +
         " rank(s); rank 0 writes the run to its run store (--db, or the default one).\n";
    s += "srun torchrun --nnodes=\"$SLURM_NNODES\" --nproc_per_node=" + std::to_string(procsPerNode) +
         " \\\n    --rdzv_backend=c10d --rdzv_endpoint=\"$MASTER_ADDR:$MASTER_PORT\" --rdzv_id=\"$SLURM_JOB_ID\" \\\n"
         "    --no_python entrena-cli train --config " +
         config + " --json\n";
    l.sbatch = s;
    return l;
}

ClusterLaunch clusterSweep(const std::string& configFile, const std::vector<std::string>& sweepArgs, int tasks, bool gpus,
                           const std::string& runName, const std::string& command)
{
    const std::string jobName = slurmName(runName);
    std::string args;
    for (const auto& a : sweepArgs)
        args += " " + shellQuote(a);
    const std::string store = "stores/" + jobName + "-$SLURM_ARRAY_TASK_ID.sqlite";
    ClusterLaunch l;
    l.torchrun = "for f in stores/" + jobName + "-*.sqlite; do entrena-cli import \"$f\"; done";
    std::string s;
    s += "#!/bin/bash\n";
    s += "# Entrena " + std::string(command == "cv" ? "cross-validation" : "sweep") + " '" + oneLine(runName) +
         "': a job array of " + std::to_string(tasks) +
         " task(s), each running its share of the trials into its own run store. Submit with: sbatch this-file\n";
    s += "# Afterwards, bring every trial into your store:\n#   " + l.torchrun + "\n";
    s += "#SBATCH --job-name=" + jobName + "\n";
    s += "#SBATCH --array=0-" + std::to_string(tasks - 1) + "\n";
    s += "#SBATCH --nodes=1\n";
    s += "#SBATCH --ntasks=1\n";
    if (gpus)
        s += "#SBATCH --gpus-per-node=1\n";
    s += "#SBATCH --output=" + jobName + "-%A_%a.out\n\n";
    s += "set -euo pipefail\n";
    s += "mkdir -p stores\n";
    s += "entrena-cli " + command + " --config " + shellQuote(configFile) + args + " --shard \"$SLURM_ARRAY_TASK_ID/" +
         std::to_string(tasks) + "\" --db \"" + store + "\" --json\n";
    l.sbatch = s;
    return l;
}

} // namespace entrena
