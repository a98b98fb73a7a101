#include "dist/DistGroup.h"

#include <torch/csrc/autograd/function_hook.h>
#include <torch/csrc/autograd/variable.h>
#include <torch/csrc/distributed/c10d/PrefixStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>
#include <torch/version.h>
#if defined(ENTRENA_WITH_CUDA) && defined(USE_C10D_NCCL)
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>
#endif

#include <cstdlib>
#include <map>

namespace entrena {
namespace {

// LibTorch 2 made the process groups' backends (Gloo, NCCL) a class of their own; the collectives
// called here have the same signatures on both.
#if TORCH_VERSION_MAJOR >= 2
using Backend = c10d::Backend;
#else
using Backend = c10d::ProcessGroup;
#endif

std::string failureKey(int rank)
{
    return "entrena/failed/" + std::to_string(rank);
}

std::vector<uint8_t> bytes(const std::string& s)
{
    return {s.begin(), s.end()};
}

std::string text(const std::vector<uint8_t>& b)
{
    return {b.begin(), b.end()};
}

bool contains(const std::string& s, const char* part)
{
    return s.find(part) != std::string::npos;
}

/// An error's message; LibTorch's own without the stack trace it appends.
std::string withoutBacktrace(const std::exception& e)
{
    const auto* c10 = dynamic_cast<const c10::Error*>(&e);
    return c10 ? c10->what_without_backtrace() : e.what();
}

std::string seconds(std::chrono::milliseconds t)
{
    return std::to_string(t.count() / 1000) + " s";
}

} // namespace

struct DistGroup::Impl {
    c10::intrusive_ptr<c10d::Store> store;
    c10::intrusive_ptr<Backend> backend;
    torch::Device device = torch::kCPU;
};

DistGroup::DistGroup(RankEnv env)
    : env_(std::move(env))
    , impl_(std::make_unique<Impl>())
{
}

DistGroup::~DistGroup() = default;

namespace {

std::string rendezvous(const RankEnv& env)
{
    return env.masterAddr + ":" + std::to_string(env.masterPort);
}

/// The rendezvous: rank 0 serves the store; every rank connects to it.
c10::intrusive_ptr<c10d::Store> connectStore(const RankEnv& env, std::chrono::milliseconds timeout)
{
    const std::string where = rendezvous(env);
    c10::intrusive_ptr<c10d::Store> store;
    c10d::TCPStoreOptions opts;
    opts.port = uint16_t(env.masterPort);
    opts.isServer = env.rank == 0 && !env.agentStore;
    opts.numWorkers = size_t(env.worldSize);
    opts.waitWorkers = true;
    opts.timeout = timeout;
    try {
        store = c10::make_intrusive<c10d::TCPStore>(env.masterAddr, opts);
        if (env.agentStore) // the agent's store outlives restarts: keys of this attempt apart
            store = c10::make_intrusive<c10d::PrefixStore>("/worker/attempt_" + std::to_string(env.restartCount), store);
    } catch (const std::exception& e) {
        const std::string why = withoutBacktrace(e);
        if (env.rank == 0 && (contains(why, "in use") || contains(why, "bind")))
            throw DistributedError("rank 0 cannot serve the rendezvous on port " + std::to_string(env.masterPort) +
                                   ": the port is in use (another run or program holds it); set MASTER_PORT to a "
                                   "free port, or let --nproc choose one");
        if (env.rank == 0 && contains(why, "Timed out"))
            throw DistributedError("rank 0 waited " + seconds(timeout) + " for the other " + std::to_string(env.worldSize - 1) +
                                   " rank(s) to reach " + where +
                                   " and not all came; start every rank, with the same "
                                   "MASTER_ADDR, MASTER_PORT and WORLD_SIZE (or raise devices.timeout_s)");
        throw DistributedError("rank " + std::to_string(env.rank) + " cannot reach the master at " + where + " within " +
                               seconds(timeout) + ": check MASTER_ADDR and MASTER_PORT, and that rank 0 is running");
    }

    return store;
}

/// The ranks must train the same configuration: fingerprints are compared before anything else.
void compareConfigurations(c10d::Store& store, const RankEnv& env, const std::string& configHash,
                           std::chrono::milliseconds timeout)
{
    const std::string where = rendezvous(env);
    try {
        store.set("entrena/config/" + std::to_string(env.rank), bytes(configHash));
        const std::string mine = configHash;
        for (int r = 0; r < env.worldSize; ++r) {
            if (r == env.rank || (env.rank != 0 && r != 0))
                continue;
            try {
                store.wait({"entrena/config/" + std::to_string(r)}, timeout);
            } catch (const std::exception&) {
                throw DistributedError("rank " + std::to_string(env.rank) + " waited " + seconds(timeout) + " at " + where +
                                       " for rank " + std::to_string(r) +
                                       ", which did not come: start every rank, with the same MASTER_ADDR, "
                                       "MASTER_PORT and WORLD_SIZE (or raise devices.timeout_s)");
            }
            const std::string theirs = text(store.get("entrena/config/" + std::to_string(r)));
            if (env.rank != 0) // rank 0 serves the store: it must not quit before this rank has read it
                store.set("entrena/config-read/" + std::to_string(env.rank), bytes("1"));
            if (theirs != mine) {
                if (env.rank == 0) {
                    try { // a moment for the other rank to read rank 0's fingerprint and say the same
                        store.wait({"entrena/config-read/" + std::to_string(r)}, std::chrono::seconds(5));
                    } catch (const std::exception&) {
                    }
                }
                const int other = env.rank == 0 ? r : 0;
                throw DistributedError("rank " + std::to_string(other) +
                                       " was started with a different configuration "
                                       "than rank " +
                                       std::to_string(env.rank) + " (fingerprints " + theirs + " and " + mine +
                                       "): start every rank with the same --config and --set values, and the same ENTRENA_PATHS and "
                                       "ENTRENA_FUSED if either is set");
            }
        }
    } catch (const DistributedError&) {
        throw;
    } catch (const std::exception& e) {
        throw DistributedError("rank " + std::to_string(env.rank) + " lost the rendezvous at " + where +
                               " while comparing configurations (" + withoutBacktrace(e) + ")");
    }
}

/// NCCL between GPUs, Gloo between CPU processes.
c10::intrusive_ptr<Backend> makeBackend(const c10::intrusive_ptr<c10d::Store>& store, const RankEnv& env,
                                        const torch::Device& device, std::chrono::milliseconds timeout)
{
    try {
#if defined(ENTRENA_WITH_CUDA) && defined(USE_C10D_NCCL)
        if (device.is_cuda()) {
            // NCCL's collectives only time out (instead of hanging) with blocking waits; the
            // variable's name changed in LibTorch 2.2. A user's own setting is kept.
            setenv("NCCL_BLOCKING_WAIT", "1", 0);
            setenv("TORCH_NCCL_BLOCKING_WAIT", "1", 0);
            auto o = c10d::ProcessGroupNCCL::Options::create();
            o->timeout = timeout;
            return c10::make_intrusive<c10d::ProcessGroupNCCL>(store, env.rank, env.worldSize, o);
        }
#endif
        if (device.is_cuda())
            throw DistributedError("data-parallel training on CUDA needs NCCL, and this build of Entrena has none; "
                                   "build it against a CUDA LibTorch");
        auto o = c10d::ProcessGroupGloo::Options::create(timeout);
        if (const char* ifname = std::getenv("GLOO_SOCKET_IFNAME"))
            o->devices.push_back(c10d::ProcessGroupGloo::createDeviceForInterface(ifname));
        else if (env.masterAddr == "127.0.0.1" || env.masterAddr == "localhost")
            o->devices.push_back(c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1"));
        else
            o->devices.push_back(c10d::ProcessGroupGloo::createDefaultDevice());
        return c10::make_intrusive<c10d::ProcessGroupGloo>(store, env.rank, env.worldSize, o);
    } catch (const DistributedError&) {
        throw;
    } catch (const c10::Error& e) {
        throw DistributedError("rank " + std::to_string(env.rank) +
                               " could not form the process group: " + e.what_without_backtrace());
    }
}

} // namespace

std::shared_ptr<DistGroup> DistGroup::join(const RankEnv& env, const std::string& configHash, torch::Device device,
                                           std::chrono::milliseconds timeout)
{
    std::shared_ptr<DistGroup> group(new DistGroup(env));
    Impl& d = *group->impl_;
    d.device = device;
    d.store = connectStore(env, timeout);
    compareConfigurations(*d.store, env, configHash, timeout);
    d.backend = makeBackend(d.store, env, device, timeout);
    return group;
}

void DistGroup::raise(const std::exception& error)
{
    throw CommError(explain(withoutBacktrace(error)));
}

void DistGroup::broadcast(std::vector<torch::Tensor> tensors)
{
    // One collective per element type, over the tensors flattened into one buffer (channels-last
    // weights included, which the backends would refuse as they are).
    torch::NoGradGuard noGrad;
    std::map<c10::ScalarType, std::vector<torch::Tensor>> byType;
    for (auto& t : tensors)
        byType[t.scalar_type()].push_back(t.detach());
    for (auto& [type, list] : byType) {
        std::vector<torch::Tensor> flat;
        for (const auto& t : list)
            flat.push_back(t.reshape({-1}));
        std::vector<torch::Tensor> buffer{torch::cat(flat).to(impl_->device)};
        try {
            impl_->backend->broadcast(buffer)->wait();
        } catch (const std::exception& e) {
            raise(e);
        }
        int64_t offset = 0;
        for (auto& t : list) {
            t.copy_(buffer[0].narrow(0, offset, t.numel()).view(t.sizes()));
            offset += t.numel();
        }
    }
}

void DistGroup::allreduceSum(std::vector<torch::Tensor> tensors)
{
    // NCCL reduces device tensors only: small CPU tensors (sums of metrics) go there and back.
    torch::NoGradGuard noGrad;
    for (auto& t : tensors) {
        std::vector<torch::Tensor> one{t.device() == impl_->device ? t : t.to(impl_->device)};
        try {
            impl_->backend->allreduce(one)->wait();
        } catch (const std::exception& e) {
            raise(e);
        }
        if (!one[0].is_same(t))
            t.copy_(one[0]);
    }
}

c10::intrusive_ptr<c10d::Work> DistGroup::allreduceAsync(torch::Tensor buffer)
{
    std::vector<torch::Tensor> one{std::move(buffer)};
    try {
        return impl_->backend->allreduce(one);
    } catch (const std::exception& e) {
        raise(e);
    }
}

torch::Tensor DistGroup::allgather(const torch::Tensor& mine)
{
    const auto local = mine.to(impl_->device).contiguous();
    std::vector<std::vector<torch::Tensor>> out(1);
    for (int r = 0; r < env_.worldSize; ++r)
        out[0].push_back(torch::empty_like(local));
    std::vector<torch::Tensor> in{local};
    try {
        impl_->backend->allgather(out, in)->wait();
    } catch (const std::exception& e) {
        raise(e);
    }
    return torch::stack(out[0]).cpu();
}

RankReports DistGroup::exchange(double loss, bool stopRequested, int64_t memoryBytes)
{
    const auto all = allgather(torch::tensor({loss, stopRequested ? 1.0 : 0.0, double(memoryBytes)}, torch::kFloat64));
    RankReports r;
    r.meanLoss = all.select(1, 0).mean().item<double>();
    r.anyStop = all.select(1, 1).max().item<double>() > 0;
    for (int k = 0; k < env_.worldSize; ++k)
        r.memoryBytes.push_back(int64_t(all[k][2].item<double>()));
    return r;
}

void DistGroup::reportFailure(const std::string& message) noexcept
{
    try {
        if (impl_->store)
            impl_->store->set(failureKey(env_.rank), bytes(message));
    } catch (...) {
    }
}

std::string DistGroup::explain(const std::string& error) noexcept
{
    try {
        for (int r = 0; r < env_.worldSize; ++r) {
            if (r != env_.rank && impl_->store->check({failureKey(r)}))
                return "rank " + std::to_string(r) + " failed: " + text(impl_->store->get(failureKey(r)));
        }
    } catch (...) {
        // The store lives in rank 0: when it cannot be asked, rank 0 is gone.
        if (env_.rank != 0)
            return "rank 0 (the master) is gone: it exited or was killed (" + error + ")";
    }
    // With two ranks the other one is known; with more, Gloo's message names its address.
    const std::string other = env_.worldSize == 2 ? "rank " + std::to_string(1 - env_.rank) : "another rank";
    const bool timedOut = contains(error, "imed out") || contains(error, "imeout");
    return other + (timedOut ? " stopped answering (stalled, or stuck elsewhere)" : " exited or was killed") + ", so rank " +
           std::to_string(env_.rank) + " stopped too (" + error + ")";
}

void DistGroup::abandon() noexcept
{
    // Leaked on purpose: see the declaration.
    new c10::intrusive_ptr<Backend>(std::move(impl_->backend));
    new c10::intrusive_ptr<c10d::Store>(std::move(impl_->store));
}

// ---------------------------------------------------------------------------------------------

namespace {

/// Runs after a parameter's gradient accumulator has written its .grad.
class GradReadyHook : public torch::autograd::FunctionPostHook {
public:
    explicit GradReadyHook(std::function<void()> ready)
        : ready_(std::move(ready))
    {
    }
    torch::autograd::variable_list operator()(const torch::autograd::variable_list& outputs,
                                              const torch::autograd::variable_list& /*inputs*/) override
    {
        ready_();
        return outputs;
    }

private:
    std::function<void()> ready_;
};

int64_t nowNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

} // namespace

GradReducer::GradReducer(DistGroup& group, std::vector<torch::Tensor> params, int64_t bucketBytes)
    : group_(group)
    , params_(std::move(params))
{
    constexpr int64_t kFirstBucketBytes = 1 << 20; // as DDP: a small first bucket starts communication early
    bucketOf_.resize(params_.size());
    slotOf_.resize(params_.size());
    int64_t bytesInBucket = 0, numel = 0;
    for (size_t k = params_.size(); k-- > 0;) {
        const auto& p = params_[k];
        const int64_t cap = buckets_.size() <= 1 ? std::min(kFirstBucketBytes, bucketBytes) : bucketBytes;
        const int64_t bytes = p.numel() * int64_t(p.element_size());
        const bool sameKind = !buckets_.empty() && params_[buckets_.back().params.front()].scalar_type() == p.scalar_type() &&
                              params_[buckets_.back().params.front()].device() == p.device();
        if (buckets_.empty() || !sameKind || bytesInBucket + bytes > cap) {
            if (!buckets_.empty())
                buckets_.back().buffer = torch::zeros({numel}, params_[buckets_.back().params.front()].options());
            buckets_.emplace_back();
            buckets_.back().doneNs = std::make_shared<std::atomic<int64_t>>(0);
            bytesInBucket = numel = 0;
        }
        Bucket& b = buckets_.back();
        bucketOf_[k] = buckets_.size() - 1;
        slotOf_[k] = b.params.size();
        b.params.push_back(k);
        b.offsets.push_back(numel);
        numel += p.numel();
        bytesInBucket += bytes;
    }
    if (!buckets_.empty())
        buckets_.back().buffer = torch::zeros({numel}, params_[buckets_.back().params.front()].options());

    for (size_t k = 0; k < params_.size(); ++k) {
        auto accumulator = torch::autograd::impl::grad_accumulator(params_[k]);
        if (!accumulator)
            continue; // a parameter that does not train
        const uintptr_t key = accumulator->add_post_hook(std::make_unique<GradReadyHook>([this, k] { onGradient(k); }));
        hooks_.emplace_back(std::move(accumulator), key);
    }
}

GradReducer::~GradReducer()
{
    // Pending work is not waited for: after a failure it may never finish (and it holds its own
    // references to the buffers).
    for (auto& [accumulator, key] : hooks_)
        accumulator->del_post_hook(key);
}

void GradReducer::arm()
{
    std::lock_guard<std::mutex> lock(mutex_);
    armed_ = true;
    nextLaunch_ = 0;
    for (auto& b : buckets_) {
        b.pending = b.params.size();
        b.launched = false;
        b.work.reset();
        b.doneNs->store(0);
    }
}

void GradReducer::fill(Bucket& b, size_t slot)
{
    const auto& p = params_[b.params[slot]];
    auto view = b.buffer.narrow(0, b.offsets[slot], p.numel());
    if (p.grad().defined())
        view.copy_(p.grad().reshape({-1}));
    else
        view.zero_();
}

void GradReducer::onGradient(size_t param)
{
    std::lock_guard<std::mutex> lock(mutex_);
    if (!armed_)
        return; // an accumulating micro-batch: nothing to send yet
    Bucket& b = buckets_[bucketOf_[param]];
    if (b.launched || b.pending == 0)
        return;
    torch::NoGradGuard noGrad;
    fill(b, slotOf_[param]);
    --b.pending;
    launchReady();
}

void GradReducer::launchReady()
{
    // Buckets go out in one order on every rank: collectives match by the order they are called.
    while (nextLaunch_ < buckets_.size() && buckets_[nextLaunch_].pending == 0) {
        Bucket& b = buckets_[nextLaunch_++];
        b.buffer.div_(group_.worldSize()); // averaged as DDP does: divide first, then sum
        b.launchedAt = Clock::now();
        b.work = group_.allreduceAsync(b.buffer);
        b.launched = true;
        b.work->getFuture()->addCallback([done = b.doneNs](c10::ivalue::Future&) { done->store(nowNs()); });
    }
}

double GradReducer::finish()
{
    const auto start = Clock::now();
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!armed_)
            return 0;
        torch::NoGradGuard noGrad;
        // Parameters backward did not reach (unused this step) send zeros, as every rank must
        // launch every bucket.
        for (auto& b : buckets_) {
            if (b.pending == 0)
                continue;
            for (size_t s = 0; s < b.params.size(); ++s)
                if (!params_[b.params[s]].grad().defined())
                    fill(b, s);
            b.pending = 0;
        }
        launchReady();
        armed_ = false;
    }
    torch::NoGradGuard noGrad;
    int64_t firstLaunch = INT64_MAX, lastDone = 0;
    for (auto& b : buckets_) {
        try {
            b.work->wait();
        } catch (const std::exception& e) {
            group_.raise(e);
        }
        firstLaunch = std::min<int64_t>(
            firstLaunch, std::chrono::duration_cast<std::chrono::nanoseconds>(b.launchedAt.time_since_epoch()).count());
        lastDone = std::max<int64_t>(lastDone, b.doneNs->load() ? b.doneNs->load() : nowNs());
        b.work.reset();
        for (size_t s = 0; s < b.params.size(); ++s) {
            auto& p = params_[b.params[s]];
            const auto avg = b.buffer.narrow(0, b.offsets[s], p.numel()).view(p.sizes());
            if (p.grad().defined())
                p.mutable_grad().copy_(avg);
            else
                p.mutable_grad() = avg.clone();
        }
    }
    if (!buckets_.empty())
        busy_ += std::max<int64_t>(0, lastDone - firstLaunch) * 1e-9;
    return std::chrono::duration<double>(Clock::now() - start).count();
}

double GradReducer::takeBusySeconds()
{
    return std::exchange(busy_, 0.0);
}

} // namespace entrena
