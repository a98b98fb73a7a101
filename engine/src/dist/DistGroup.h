#pragma once
// The ranks of a data-parallel run, joined through c10d: a TCPStore on the master for the
// rendezvous, then a process group (Gloo for CPU tensors, NCCL for CUDA ones) for the collectives.
// GradReducer averages gradients the way DistributedDataParallel does: in buckets, each all-reduced
// as soon as backward has produced its gradients, so that communication overlaps computation.

#include "entrena/dist/Distributed.h"

#include <torch/csrc/distributed/c10d/Work.hpp>
#include <torch/torch.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace entrena {

/// A collective that failed: another rank is gone, failed or stalled. The message says which
/// (when it can be known) and what happened.
class CommError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// What the ranks tell each other at a log step, gathered.
struct RankReports {
    double meanLoss = 0;              ///< the global batch's loss
    bool anyStop = false;             ///< a rank was asked to stop
    std::vector<int64_t> memoryBytes; ///< by rank
};

class DistGroup {
public:
    /// Meets the other ranks: rank 0 serves the store on env.masterPort, every rank checks that
    /// all ranks train a configuration with the same `configHash`, then the process group forms.
    /// Each collective, and the rendezvous, fails after `timeout`. Throws DistributedError with
    /// a message saying what to do.
    static std::shared_ptr<DistGroup> join(const RankEnv& env, const std::string& configHash, torch::Device device,
                                           std::chrono::milliseconds timeout);
    ~DistGroup();

    int rank() const { return env_.rank; }
    int worldSize() const { return env_.worldSize; }
    const RankEnv& env() const { return env_; }

    /// Copies rank 0's tensors into every rank's (in place).
    void broadcast(std::vector<torch::Tensor> tensors);
    /// Sums each tensor over the ranks, in place.
    void allreduceSum(std::vector<torch::Tensor> tensors);
    /// Every rank's copy of `mine` (a small 1-D tensor), stacked: [world, n], on the CPU.
    torch::Tensor allgather(const torch::Tensor& mine);
    /// Every rank's step loss, stop request and memory, in one collective.
    RankReports exchange(double loss, bool stopRequested, int64_t memoryBytes);
    /// Starts summing `buffer` over the ranks; wait on the result.
    c10::intrusive_ptr<c10d::Work> allreduceAsync(torch::Tensor buffer);

    /// Records why this rank fails, for the others to name it (best effort, never throws).
    void reportFailure(const std::string& message) noexcept;
    /// Turns an error from a collective into one that says what happened: the rank that reported
    /// a failure, or a lost or stalled peer.
    std::string explain(const std::string& error) noexcept;
    /// Rethrows an error of a collective as CommError, explained.
    [[noreturn]] void raise(const std::exception& error);
    /// After a failure the group is left to the process's exit: its destructor would wait for
    /// collectives that can no longer finish.
    void abandon() noexcept;

private:
    struct Impl;
    explicit DistGroup(RankEnv env);
    RankEnv env_;
    std::unique_ptr<Impl> impl_;
};

/// Averages the gradients of `params` over the ranks, bucket by bucket, during backward.
class GradReducer {
public:
    /// Buckets of at most `bucketBytes` (the first one at most 1 MiB, to start communicating
    /// early), filled in the reverse order of `params`, roughly the order backward produces them.
    GradReducer(DistGroup& group, std::vector<torch::Tensor> params, int64_t bucketBytes);
    ~GradReducer();
    GradReducer(const GradReducer&) = delete;
    GradReducer& operator=(const GradReducer&) = delete;

    /// The next backward is the step's last: average its gradients (earlier micro-batches only
    /// accumulate, as under DDP's no_sync()).
    void arm();
    /// After that backward: waits for every bucket and writes the averages into the gradients.
    /// Returns the seconds spent waiting here (communication not hidden behind backward).
    double finish();

    /// Seconds buckets spent being all-reduced, start to finish, since the last call: the
    /// communication's whole time, hidden or not.
    double takeBusySeconds();
    size_t buckets() const { return buckets_.size(); }

private:
    using Clock = std::chrono::steady_clock;
    struct Bucket {
        std::vector<size_t> params;
        std::vector<int64_t> offsets;
        torch::Tensor buffer;
        size_t pending = 0;
        bool launched = false;
        c10::intrusive_ptr<c10d::Work> work;
        Clock::time_point launchedAt;
        std::shared_ptr<std::atomic<int64_t>> doneNs; ///< completion, set on the communication thread
    };
    void onGradient(size_t param);
    void launchReady();
    void fill(Bucket& b, size_t slot);

    DistGroup& group_;
    std::vector<torch::Tensor> params_;
    std::vector<size_t> bucketOf_, slotOf_;
    std::vector<Bucket> buckets_;
    size_t nextLaunch_ = 0;
    bool armed_ = false;
    double busy_ = 0;
    std::mutex mutex_;
    std::vector<std::pair<std::shared_ptr<torch::autograd::Node>, uintptr_t>> hooks_;
};

} // namespace entrena
