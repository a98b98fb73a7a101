#pragma once
// Data-parallel training: where this process stands among the ranks of a run, read from the
// launcher's environment (torchrun or Slurm), and the failures of joining them.
//
// The ranks themselves meet through c10d (a TCPStore on the master, a Gloo or NCCL process group);
// that part lives inside the engine (DistGroup) so that nothing here needs LibTorch.

#include <chrono>
#include <optional>
#include <stdexcept>
#include <string>

namespace entrena {

struct RunConfig;

/// One process's place in a data-parallel run.
struct RankEnv {
    int rank = 0;
    int worldSize = 1;
    int localRank = 0;      ///< the rank among this machine's processes: picks the device
    int localWorldSize = 1; ///< processes on this machine: share its CPU cores
    std::string masterAddr = "127.0.0.1";
    int masterPort = 29500;
    std::string source; ///< "torchrun", "slurm" or "entrena" (spawned by entrena itself)
    /// torchrun's agent already serves the store at MASTER_ADDR:MASTER_PORT
    /// (TORCHELASTIC_USE_AGENT_STORE=True): every rank connects as a client, under the prefix of
    /// the agent's restart count (TORCHELASTIC_RESTART_COUNT), as PyTorch's own ranks do.
    bool agentStore = false;
    int restartCount = 0;

    bool distributed() const { return worldSize > 1; }
};

/// A rank that cannot join its run (a bad launcher environment, the port taken, the master
/// unreachable, ranks with different configurations, more ranks than devices). Raised before
/// training starts; nothing is written to the run store.
class DistributedError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// The rank described by the environment: torchrun's RANK, WORLD_SIZE, LOCAL_RANK,
/// LOCAL_WORLD_SIZE, MASTER_ADDR, MASTER_PORT (and TORCHELASTIC_USE_AGENT_STORE), or else Slurm's SLURM_PROCID, SLURM_NTASKS,
/// SLURM_LOCALID, SLURM_NTASKS_PER_NODE (the master then is MASTER_ADDR, or the first host of
/// SLURM_JOB_NODELIST when it is a plain name). Nothing when neither launcher set a world size.
/// Throws DistributedError for values that are not numbers or out of range.
std::optional<RankEnv> rankEnvFromEnvironment();

/// A fingerprint of a configuration, compared between ranks when they meet: ranks must train the
/// same thing. FNV-1a of the canonical JSON, as 16 hex digits.
std::string configHash(const RunConfig& config);

/// What ranks compare when they meet: configHash, and a fingerprint of the environment variables that
/// choose Entrena's own paths (ENTRENA_PATHS, ENTRENA_FUSED), as they are read: the same settings
/// spelt differently match. Ranks that took different paths would
/// measure different trials and wait on each other's collectives for ever, or update differently.
std::string rankFingerprint(const RunConfig& config);

/// A TCP port on 127.0.0.1 that was free a moment ago (the kernel's choice).
int freeLocalPort();

/// Checks that `world` ranks can each have a device of `config` (devices.type cuda: one listed id,
/// or one visible GPU, per local rank). Throws DistributedError naming the counts.
void checkDevicesForRanks(const RunConfig& config, int localWorldSize);

} // namespace entrena
