#include "train/PathTrial.h"

#include "entrena/config/Config.h"
#include "entrena/store/AtomicFile.h"
#include "model/Model.h"
#include "model/PoolRelu.h"
#include "optim/FusedSgd.h"
#include "optim/Optimizers.h"
#include "system/CpuInfo.h"
#include "system/StateGuards.h"
#include "train/MlpStep.h"
#include "train/PhaseClock.h"

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <sstream>

namespace entrena {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr int kMaxTrialSteps = 400; // a bound, should the clock misbehave

fs::path cacheFile()
{
    return cacheFilePath("paths.json");
}

/// The revision of Entrena's own paths: raised whenever one of them changes speed (a new fused block,
/// kernels that now use every thread), so that answers measured with the old code are measured again.
constexpr const char* kPathsRevision = "2";

std::string cacheKey(const std::string& path, const std::string& signature)
{
    const char* core = std::getenv("OPENBLAS_CORETYPE");
    return "cpu " + cpuinfoField("model name") + " | threads " + std::to_string(at::get_num_threads()) + " | blas " +
           (core && *core ? core : "default") + " | torch " TORCH_VERSION " | paths r" + kPathsRevision + " | " + path + " | " +
           signature;
}

nlohmann::json readCache()
{
    const fs::path file = cacheFile();
    std::ifstream in(file);
    if (file.empty() || !in)
        return nlohmann::json::object();
    auto cache = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
    return cache.is_object() ? cache : nlohmann::json::object();
}

/// Adds the answers to the cache file; a cache that cannot be written costs a measurement next time.
void writeCache(const std::vector<PathChoice::Verdict>& verdicts, const std::string& signature)
{
    const fs::path file = cacheFile();
    if (file.empty())
        return;
    nlohmann::json cache = readCache();
    bool changed = false;
    for (const auto& v : verdicts)
        if (v.by == "measured") {
            cache[cacheKey(v.name, signature)] = {{"own", v.own}, {"entrena_ms", v.ownMs}, {"aten_ms", v.atenMs}};
            changed = true;
        }
    if (!changed)
        return;
    try { // whole or not at all: another run may read it meanwhile
        fs::create_directories(file.parent_path());
        AtomicFile out(file.string());
        out.write(cache.dump(2) + "\n");
        out.commit();
    } catch (const std::exception&) {
    }
}

/// The model's tensors as they were (batch norm's running statistics move in a training forward).
class TensorGuard {
public:
    explicit TensorGuard(Model& model)
    {
        torch::NoGradGuard noGrad;
        for (auto& [name, t] : model.namedTensors()) {
            tensors_.push_back(t);
            saved_.push_back(t.detach().clone());
        }
    }
    ~TensorGuard()
    {
        torch::NoGradGuard noGrad;
        for (size_t i = 0; i < tensors_.size(); ++i)
            tensors_[i].copy_(saved_[i]);
    }
    TensorGuard(const TensorGuard&) = delete;
    TensorGuard& operator=(const TensorGuard&) = delete;

private:
    std::vector<torch::Tensor> tensors_, saved_;
};

double seconds(Clock::time_point a, Clock::time_point b)
{
    return std::chrono::duration<double>(b - a).count();
}

} // namespace

std::vector<bool> onEveryRank(const std::vector<bool>& here, const std::function<void(std::vector<double>&)>& sumAcrossRanks)
{
    if (!sumAcrossRanks)
        return here;
    std::vector<double> missing; // how many ranks lack each
    for (const bool b : here)
        missing.push_back(b ? 0.0 : 1.0);
    sumAcrossRanks(missing);
    std::vector<bool> everywhere;
    for (const double m : missing)
        everywhere.push_back(m == 0.0);
    return everywhere;
}

std::string pathSignature(Model& model, const RunConfig& config)
{
    std::ostringstream s;
    for (const auto& p : model.parameters()) {
        s << '[';
        for (const auto d : p.sizes())
            s << d << ',';
        s << ']';
    }
    s << " batch " << config.data.batchSize << ' ' << toString(config.train.precision);
    std::ostringstream hex;
    hex << std::hex << std::hash<std::string>{}(s.str());
    return std::string(toString(config.model.arch)) + " " + hex.str();
}

namespace {

/// Adds to `choice` the paths forced by configuration or decided by an earlier run on this CPU (the
/// cache); returns the others, which are still to be measured.
std::vector<PathChoice::Path> addDecided(PathChoice& choice, const std::vector<PathChoice::Path>& candidates,
                                         const PathTrialParts& parts)
{
    const nlohmann::json cache = parts.useCache ? readCache() : nlohmann::json::object();
    std::vector<PathChoice::Path> unknown;
    for (const auto& path : candidates) {
        const auto hit = cache.find(cacheKey(path.name, parts.signature));
        if (choice.forced(path.name))
            choice.add(path);
        else if (hit != cache.end() && hit->is_object() && hit->contains("own") && (*hit)["own"].is_boolean())
            choice.addKnown(path, (*hit)["own"].get<bool>(), hit->value("entrena_ms", 0.0), hit->value("aten_ms", 0.0));
        else
            unknown.push_back(path);
    }
    return unknown;
}

} // namespace

void measurePaths(PathChoice& choice, const std::vector<PathChoice::Path>& candidates, PathTrialParts parts,
                  const std::function<void(const OomRetry&)>& onRetry)
{
    std::vector<PathChoice::Path> unknown = addDecided(choice, candidates, parts);
    if (!unknown.empty() && !parts.measure) {
        // A memory budget's meter would count the trial's copies and its full batch (and retry it
        // smaller): these paths keep Entrena's side, which the budget's fitting was made with (the
        // fused blocks never hold the full-resolution activation), unmeasured, and say so.
        for (auto& p : unknown)
            choice.addKnown(p, true, 0, 0, "not measured: memory budget");
        return;
    }
    if (unknown.empty())
        return;
    const Batch batch = parts.firstBatch();
    // Every rank's trial steps meet at the gradients' collectives: all ranks measure, or none.
    if (!onEveryRank({batch.x.defined()}, choice.agreement()).front())
        return;

    GeneratorStateGuard generator; // a trial's dropout must not change what the run draws
    TensorGuard tensors(parts.model);
    // The update is timed on copies of the parameters, with the run's options.
    auto* sgd = dynamic_cast<FusedSgd*>(&parts.optimizer);
    std::vector<torch::Tensor> copies;
    std::unique_ptr<FusedSgd> update;
    if (sgd) {
        torch::NoGradGuard noGrad;
        for (const auto& p : parts.model.parameters()) {
            copies.push_back(p.detach().clone());
            copies.back().mutable_grad() = torch::full_like(p, 1e-3);
        }
        const auto& options = static_cast<const torch::optim::SGDOptions&>(sgd->param_groups().front().options());
        update = std::make_unique<FusedSgd>(copies, options);
    }
    PhaseClock clock(parts.device);
    const std::vector<Batch> group{batch};
    const auto stepOnce = [&](double& compute, double& optimizer) {
        const auto t0 = Clock::now();
        parts.step.run(group, 1.0, clock, onRetry);
        const auto t1 = Clock::now();
        if (update) {
            update->setOnePass(sgd->onePass());
            update->step();
        }
        compute = seconds(t0, t1);
        optimizer = seconds(t1, Clock::now());
    };

    // A probe with every unknown path on its own side: those that did not run here (a batch the MLP
    // step declines, a layout the fused blocks do not take) are left out, not measured against
    // themselves.
    for (auto& p : unknown)
        p.use(true);
    const int64_t mlpBefore = MlpStep::stepsTaken(), blocksBefore = fusedForwards(), sgdBefore = FusedSgd::onePassSteps();
    double compute = 0, optimizer = 0;
    stepOnce(compute, optimizer);
    std::vector<bool> ran;
    for (auto& p : unknown)
        ran.push_back(p.name == "mlp_step"       ? MlpStep::stepsTaken() > mlpBefore
                      : p.name == "fused_blocks" ? fusedForwards() > blocksBefore
                      : p.name == "fused_sgd"    ? FusedSgd::onePassSteps() > sgdBefore
                                                 : true); // a layout: it runs wherever it was offered
    ran = onEveryRank(ran, choice.agreement());
    for (size_t i = 0; i < unknown.size(); ++i)
        if (ran[i])
            choice.add(unknown[i]);
        else
            unknown[i].use(false); // left to ATen's ops, as every rank leaves it
    for (int i = 0; choice.measuring() && i < kMaxTrialSteps; ++i) {
        choice.beforeStep();
        stepOnce(compute, optimizer);
        choice.afterStep(compute, optimizer);
    }
    choice.decideNow();
    dropGradients(parts.optimizer);
    if (parts.useCache)
        writeCache(choice.verdicts(), parts.signature);
}

} // namespace entrena
