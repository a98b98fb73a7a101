// The search methods. grid, random and tpe choose each trial's values and train it to the end;
// asha (asynchronous successive halving, Li et al. 2018) trains trials in rungs of epochs and only
// the best 1/reduction of each rung goes on; pbt (population-based training, Jaderberg et al. 2017)
// trains a population side by side and every interval lets the worst copy the best and perturb.
#include "entrena/experiment/SweepMethodRegistry.h"
#include "entrena/store/Checkpoints.h"
#include "experiment/SweepDriver.h"
#include "experiment/Tpe.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

namespace entrena {
namespace {

/// grid, random, tpe: each trial trains to the base's epochs.
class Sampling : public SweepMethod {
public:
    enum class Draw { Grid, Random, Tpe };

    Sampling(const SweepPlan& plan, Draw draw)
        : draw_(draw)
    {
        if (draw_ == Draw::Grid)
            grid_ = plan.space.grid();
    }

    std::optional<SweepWork> next(SweepContext& ctx) override
    {
        if (int(ctx.trials.size()) >= ctx.plan.settings.trials)
            return std::nullopt;
        SweepTrial& t = ctx.addTrial(choose(ctx));
        // Its own epochs when the space sets them.
        const int epochs = configForTrial(ctx.plan.base, t.params).train.epochs;
        return SweepWork{&t, true, epochs};
    }

private:
    TrialParams choose(SweepContext& ctx)
    {
        // A shard of a job array takes every shards-th trial of the whole sweep.
        const auto& s = ctx.plan.settings;
        const size_t index = ctx.trials.size() * size_t(s.shards) + size_t(s.shard);
        if (draw_ == Draw::Grid)
            return grid_.at(index);
        // Random trials draw from a generator of their own number: a resumed sweep draws the same.
        std::mt19937_64 rng(ctx.plan.settings.seed * 1000003ULL + index);
        const int startup = std::max(2, std::min(10, ctx.plan.settings.trials / 3));
        if (draw_ == Draw::Random || int(index) < startup)
            return ctx.plan.space.sample(rng);
        std::vector<Observation> done;
        for (const auto& t : ctx.trials)
            if (t->phase == SweepTrial::Phase::Done)
                if (const auto m = ctx.best(*t))
                    done.push_back({t->params, ctx.score(*m)});
        return sampleTpe(ctx.plan.space, done, rng);
    }

    Draw draw_;
    std::vector<TrialParams> grid_;
};

/// asha: rungs of min_epochs × reduction^k epochs, up to the base's; a trial paused at a rung goes
/// on once it is in the top 1/reduction of the trials that reached that rung; at the end the ones
/// still paused are pruned.
class Asha : public SweepMethod {
public:
    explicit Asha(const SweepPlan& plan)
    {
        const int max = plan.maxEpochs();
        for (double r = plan.settings.minEpochs; r < max; r *= plan.settings.reduction)
            rungs_.push_back(int(r));
        rungs_.push_back(max);
        eta_ = plan.settings.reduction;
    }

    std::optional<SweepWork> next(SweepContext& ctx) override
    {
        // Promotions first, from the highest rung: ASHA's way of spending time on the best.
        for (int k = int(rungs_.size()) - 2; k >= 0; --k)
            if (SweepTrial* t = promotable(ctx, size_t(k)))
                return SweepWork{t, false, rungs_[size_t(k) + 1]};
        if (int(ctx.trials.size()) < ctx.plan.settings.trials) {
            std::mt19937_64 rng(ctx.plan.settings.seed * 1000003ULL + ctx.trials.size());
            SweepTrial& t = ctx.addTrial(ctx.plan.space.sample(rng));
            return SweepWork{&t, true, rungs_.front()};
        }
        return std::nullopt;
    }

    void stageEnded(SweepContext& ctx, SweepTrial& t) override
    {
        SweepMethod::stageEnded(ctx, t);
        if (t.phase == SweepTrial::Phase::Done && t.status == RunStatus::Finished && t.epochs() < rungs_.back())
            t.phase = SweepTrial::Phase::Paused; // at a rung: wait for the verdict
    }

    void finish(SweepContext& ctx) override
    {
        for (auto& t : ctx.trials) {
            if (t->phase != SweepTrial::Phase::Paused)
                continue;
            // Pruned, with its checkpoint: `entrena-cli train --resume` continues it to the full epochs.
            for (const int64_t id : t->runIds()) { // its run, or each of its folds'
                if (const auto run = ctx.store.findRun(std::to_string(id))) {
                    RunConfig c = RunConfig::fromJson(run->configJson, {"train.epochs=" + std::to_string(rungs_.back())});
                    ctx.store.setRunConfig(id, c.toJson());
                }
                ctx.store.setRunStatus(id, RunStatus::Pruned);
            }
            t->status = RunStatus::Pruned;
            t->phase = SweepTrial::Phase::Done;
            ctx.observer.onTrialEnd(t->index, t->runId, t->status, ctx.best(*t), t->epochs());
        }
    }

private:
    SweepTrial* promotable(SweepContext& ctx, size_t k)
    {
        const int epochs = rungs_[k];
        std::vector<SweepTrial*> reached;
        for (auto& t : ctx.trials)
            if (t->epochs() >= epochs)
                reached.push_back(t.get());
        const size_t promote = reached.size() / size_t(eta_);
        std::stable_sort(reached.begin(), reached.end(), [&](SweepTrial* a, SweepTrial* b) {
            return ctx.score(a->metrics[size_t(epochs - 1)]) > ctx.score(b->metrics[size_t(epochs - 1)]);
        });
        for (size_t i = 0; i < promote; ++i)
            if (reached[i]->phase == SweepTrial::Phase::Paused && reached[i]->epochs() == epochs)
                return reached[i];
        return nullptr;
    }

    std::vector<int> rungs_;
    int eta_ = 3;
};

/// pbt: the population trains `interval` epochs at a time; between generations the bottom quantile
/// takes the weights, optimizer state and values of a member of the top quantile, then perturbs the
/// values (× 0.8 or × 1.2, or a new draw).
class Pbt : public SweepMethod {
public:
    std::optional<SweepWork> next(SweepContext& ctx) override
    {
        const auto& s = ctx.plan.settings;
        const int max = ctx.plan.maxEpochs();
        if (int(ctx.trials.size()) < s.trials) {
            std::mt19937_64 rng(s.seed * 1000003ULL + ctx.trials.size());
            SweepTrial& t = ctx.addTrial(ctx.plan.space.sample(rng));
            return SweepWork{&t, true, std::min(max, s.interval)};
        }
        int generation = 0; // the epochs the population trains to now
        for (const auto& t : ctx.trials)
            generation = std::max(generation, t->target);
        for (auto& t : ctx.trials)
            if (t->phase == SweepTrial::Phase::Paused && t->epochs() < generation)
                return SweepWork{t.get(), false, generation};
        if (ctx.running() > 0)
            return std::nullopt;
        std::vector<SweepTrial*> members;
        for (auto& t : ctx.trials)
            if (t->phase == SweepTrial::Phase::Paused)
                members.push_back(t.get());
        if (members.empty() || generation >= max)
            return std::nullopt;
        exploitAndExplore(ctx, members);
        for (SweepTrial* t : members)
            t->target = std::min(max, generation + s.interval);
        return SweepWork{members.front(), false, members.front()->target};
    }

    void stageEnded(SweepContext& ctx, SweepTrial& t) override
    {
        SweepMethod::stageEnded(ctx, t);
        if (t.phase == SweepTrial::Phase::Done && t.status == RunStatus::Finished && t.epochs() < ctx.plan.maxEpochs())
            t.phase = SweepTrial::Phase::Paused; // a generation done
    }

private:
    void exploitAndExplore(SweepContext& ctx, std::vector<SweepTrial*> members)
    {
        std::stable_sort(members.begin(), members.end(), [&](SweepTrial* a, SweepTrial* b) {
            return ctx.score(a->metrics.back()) > ctx.score(b->metrics.back());
        });
        const size_t n = std::max<size_t>(1, size_t(std::floor(double(members.size()) * ctx.plan.settings.quantile)));
        if (members.size() < 2 || 2 * n > members.size())
            return;
        for (size_t b = members.size() - n; b < members.size(); ++b) {
            SweepTrial* source = members[std::uniform_int_distribution<size_t>(0, n - 1)(ctx.rng)];
            exploit(ctx, *members[b], *source);
        }
    }

    /// `t` takes `source`'s latest checkpoint (weights, optimizer state, position) and its values,
    /// perturbed; recorded as its parent run and an `exploit` event.
    void exploit(SweepContext& ctx, SweepTrial& t, const SweepTrial& source)
    {
        const auto checkpoints = ctx.store.checkpoints(source.runId);
        if (checkpoints.empty())
            return;
        CheckpointRecord copy = checkpoints.back();
        const std::filesystem::path dir = ctx.store.runFolder(t.runId); // t's own, never the source's
        std::filesystem::create_directories(dir);
        const auto file = dir / ("exploit-epoch-" + std::to_string(copy.epoch) + ".pt");
        std::filesystem::copy_file(copy.path, file, std::filesystem::copy_options::overwrite_existing);
        copy.path = file.string();
        copy.isBest = false;
        ctx.store.addCheckpoint(t.runId, copy);
        const TrialParams before = t.params;
        t.params = perturb(ctx, source.params);
        t.metrics = source.metrics; // its history now is the source's (the weights are)
        ctx.store.setParentRun(t.runId, source.runId);
        std::string changes;
        for (size_t i = 0; i < t.params.size(); ++i)
            changes += "; " + t.params[i].first + " " + before[i].second + " -> " + t.params[i].second;
        ctx.store.addEvent(t.runId, copy.step, "exploit",
                           "took the weights and optimizer state of run " + std::to_string(source.runId) + " at step " +
                               std::to_string(copy.step) + changes);
        ctx.observer.onExploit(t.index, t.runId, source.runId, copy.step, t.params);
    }

    TrialParams perturb(SweepContext& ctx, const TrialParams& params)
    {
        TrialParams out = params;
        std::uniform_real_distribution<double> u(0.0, 1.0);
        for (size_t i = 0; i < out.size(); ++i) {
            const Distribution& d = ctx.plan.space.params()[i].second;
            if (u(ctx.rng) < 0.25) { // explore by a new draw
                out[i].second = sampleValue(d, ctx.rng);
                continue;
            }
            if (!d.continuous())
                continue;
            double v = nlohmann::json::parse(out[i].second).get<double>() * (u(ctx.rng) < 0.5 ? 0.8 : 1.2);
            v = std::clamp(v, d.low, d.high);
            std::ostringstream text;
            text.precision(10);
            if (d.kind == Distribution::Kind::IntUniform)
                text << int64_t(std::round(v));
            else
                text << v;
            out[i].second = text.str();
        }
        return out;
    }
};

} // namespace

void SweepMethod::stageEnded(SweepContext& ctx, SweepTrial& t)
{
    t.phase = t.status == RunStatus::Stopped || t.status == RunStatus::Interrupted ? SweepTrial::Phase::Resumable
                                                                                   : SweepTrial::Phase::Done;
}

std::unique_ptr<SweepMethod> makeSweepMethod(const SweepPlan& plan)
{
    const SweepMethodEntry* entry = findSweepMethod(plan.settings.method);
    if (!entry)
        throw SpaceError("--method must be " + sweepMethodNames() + "; got '" + plan.settings.method + "'");
    return entry->make(plan);
}

std::unique_ptr<SweepMethod> makeGridMethod(const SweepPlan& plan)
{
    return std::make_unique<Sampling>(plan, Sampling::Draw::Grid);
}

std::unique_ptr<SweepMethod> makeRandomMethod(const SweepPlan& plan)
{
    return std::make_unique<Sampling>(plan, Sampling::Draw::Random);
}

std::unique_ptr<SweepMethod> makeTpeMethod(const SweepPlan& plan)
{
    return std::make_unique<Sampling>(plan, Sampling::Draw::Tpe);
}

std::unique_ptr<SweepMethod> makeAshaMethod(const SweepPlan& plan)
{
    return std::make_unique<Asha>(plan);
}

std::unique_ptr<SweepMethod> makePbtMethod(const SweepPlan&)
{
    return std::make_unique<Pbt>();
}

} // namespace entrena
