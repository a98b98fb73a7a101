#include "entrena/dist/Distributed.h"

#include "entrena/config/Config.h"
#include "model/PoolRelu.h"
#include "train/PathChoice.h"

#include <arpa/inet.h>
#include <cstdio>
#include <cstdlib>
#include <netinet/in.h>
#include <sys/socket.h>
#include <torch/torch.h>
#include <unistd.h>

namespace entrena {
namespace {

const char* env(const char* name)
{
    const char* v = std::getenv(name);
    return v && *v ? v : nullptr;
}

int number(const char* name, const char* value, int low, int high)
{
    char* end = nullptr;
    const long v = std::strtol(value, &end, 10);
    if (end == value || *end != '\0' || v < low || v > high)
        throw DistributedError(std::string(name) + "='" + value + "' is not a whole number from " + std::to_string(low) + " to " +
                               std::to_string(high) + "; fix the launcher's environment");
    return int(v);
}

/// The first host of a Slurm node list when it is a plain name ("node1,node2" or "node1");
/// compressed lists ("node[1-4]") need scontrol, so MASTER_ADDR must be set for them.
std::string firstSlurmHost(const std::string& list)
{
    const auto cut = list.find(',');
    const std::string first = list.substr(0, cut);
    if (first.find('[') != std::string::npos)
        throw DistributedError("SLURM_JOB_NODELIST is '" + list +
                               "': set MASTER_ADDR to the first node's name "
                               "(`export MASTER_ADDR=$(scontrol show hostnames $SLURM_JOB_NODELIST | head -n1)`)");
    return first;
}

} // namespace

std::optional<RankEnv> rankEnvFromEnvironment()
{
    RankEnv e;
    if (const char* world = env("WORLD_SIZE")) {
        e.source = "torchrun";
        e.worldSize = number("WORLD_SIZE", world, 1, 65536);
        const char* rank = env("RANK");
        if (!rank)
            throw DistributedError("WORLD_SIZE is set but RANK is not; start the ranks with torchrun, or set RANK "
                                   "(0 to WORLD_SIZE-1) for each");
        e.rank = number("RANK", rank, 0, e.worldSize - 1);
        e.localRank = env("LOCAL_RANK") ? number("LOCAL_RANK", env("LOCAL_RANK"), 0, 65535) : e.rank;
        e.localWorldSize = env("LOCAL_WORLD_SIZE") ? number("LOCAL_WORLD_SIZE", env("LOCAL_WORLD_SIZE"), 1, 65536) : e.worldSize;
        if (const char* agent = env("TORCHELASTIC_USE_AGENT_STORE"))
            e.agentStore = std::string(agent) == "True";
        if (const char* restarts = env("TORCHELASTIC_RESTART_COUNT"))
            e.restartCount = number("TORCHELASTIC_RESTART_COUNT", restarts, 0, 1 << 30);
    } else if (const char* tasks = env("SLURM_NTASKS")) {
        e.source = "slurm";
        e.worldSize = number("SLURM_NTASKS", tasks, 1, 65536);
        const char* rank = env("SLURM_PROCID");
        if (!rank)
            throw DistributedError("SLURM_NTASKS is set but SLURM_PROCID is not; start the ranks with srun");
        e.rank = number("SLURM_PROCID", rank, 0, e.worldSize - 1);
        e.localRank = env("SLURM_LOCALID") ? number("SLURM_LOCALID", env("SLURM_LOCALID"), 0, 65535) : 0;
        if (const char* perNode = env("SLURM_NTASKS_PER_NODE")) // "4" or "4(x2)"
            e.localWorldSize = std::max(1, std::atoi(perNode));
        if (!env("MASTER_ADDR") && env("SLURM_JOB_NODELIST"))
            e.masterAddr = firstSlurmHost(env("SLURM_JOB_NODELIST"));
    } else {
        return std::nullopt;
    }
    if (const char* addr = env("MASTER_ADDR"))
        e.masterAddr = addr;
    if (const char* port = env("MASTER_PORT"))
        e.masterPort = number("MASTER_PORT", port, 1, 65535);
    if (e.localRank >= e.localWorldSize)
        e.localWorldSize = e.localRank + 1;
    return e;
}

namespace {
/// FNV-1a of `text`, as 16 hex digits.
std::string fnv1a(const std::string& text)
{
    uint64_t h = 1469598103934665603ULL;
    for (unsigned char ch : text) {
        h ^= ch;
        h *= 1099511628211ULL;
    }
    char out[17];
    std::snprintf(out, sizeof out, "%016llx", (unsigned long long)h);
    return out;
}
} // namespace

std::string configHash(const RunConfig& config)
{
    return fnv1a(config.toJson());
}

std::string rankFingerprint(const RunConfig& config)
{
    // What the variables mean, not how they are spelt: ENTRENA_FUSED=1 is its absence, and
    // " mlp_step=aten" is "mlp_step=aten". A value that does not parse is compared as written (the
    // run then stops on it with its own message).
    std::string paths = fusedKernelsWanted() ? "fused;" : "aten;";
    try {
        for (const auto& [name, own] : PathChoice::forcedPaths())
            paths += name + (own ? "=entrena;" : "=aten;");
    } catch (const std::invalid_argument&) {
        const char* v = std::getenv("ENTRENA_PATHS");
        paths += std::string("unparsed ") + (v ? v : "");
    }
    return configHash(config) + "-" + fnv1a(paths).substr(0, 8);
}

int freeLocalPort()
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        throw DistributedError("cannot open a socket to find a free port");
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = 0;
    socklen_t len = sizeof a;
    const bool ok = ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
                    ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0;
    ::close(fd);
    if (!ok)
        throw DistributedError("cannot find a free TCP port on 127.0.0.1");
    return ntohs(a.sin_port);
}

void checkDevicesForRanks(const RunConfig& config, int localWorldSize)
{
    if (config.devices.type != DeviceType::Cuda)
        return; // CPU ranks share the cores (each gets its part of them)
    const int listed = int(config.devices.ids.size());
    if (listed > 0 && localWorldSize > listed)
        throw DistributedError(std::to_string(localWorldSize) + " ranks on this machine but devices.ids names only " +
                               std::to_string(listed) + " device(s); list one CUDA device per rank, or start fewer ranks");
    const int visible = torch::cuda::is_available() ? int(torch::cuda::device_count()) : 0;
    if (listed == 0 && localWorldSize > visible)
        throw DistributedError(std::to_string(localWorldSize) + " ranks on this machine but only " + std::to_string(visible) +
                               " CUDA device(s) are visible; start at most one rank per GPU");
}

} // namespace entrena
