#pragma once
// The sweep's moving parts: its trials as the driver tracks them, the work a method hands out
// (start a trial, or continue one to more epochs, perhaps with new values), and the methods.

#include "entrena/experiment/Sweep.h"
#include "entrena/store/RunStore.h"
#include "entrena/experiment/MetricRegistry.h"

#include <memory>
#include <optional>
#include <random>
#include <vector>

namespace entrena {

/// One fold run of a cross-validated trial (sweep --cv).
struct SweepFold {
    int64_t runId = 0;
    std::vector<double> metrics; ///< its own metric after each epoch
    RunStatus status = RunStatus::Running;
    bool queued = false;  ///< waits for a free slot
    bool fresh = false;   ///< when it starts: a new run (else its run goes on)
    bool running = false;
};

struct SweepTrial {
    enum class Phase {
        Queued,    ///< its values are chosen; not started (or restarted: it died before a checkpoint)
        Running,   ///< its process trains it
        Resumable, ///< stopped inside a stage (the sweep was stopped or killed): continue to `target`
        Paused,    ///< a stage done: the method decides whether it goes on
        Done       ///< final: finished, pruned or failed
    };
    int index = 0;
    int64_t runId = 0;
    TrialParams params;
    Phase phase = Phase::Queued;
    RunStatus status = RunStatus::Running;
    int target = 0;              ///< the epochs its current stage trains to
    std::vector<double> metrics; ///< the sweep's metric after each epoch (index: epoch − 1)
    bool announced = false;      ///< trial_start sent
    /// sweep --cv: its fold runs; then `runId` is fold 0's, `metrics` the folds' mean for every epoch
    /// all of them reached, and `status` the worst of theirs.
    std::vector<SweepFold> folds;
    int epochs() const { return int(metrics.size()); }
    /// Every run it has in the store: its run, or its folds'.
    std::vector<int64_t> runIds() const;
    /// Sums its folds up into runId, metrics and status (sweep --cv; nothing otherwise).
    void sumUpFolds();
};

/// What a method asks the driver to do next.
struct SweepWork {
    SweepTrial* trial = nullptr;
    bool fresh = false; ///< start it (a new run) rather than continue its run
    int target = 0;     ///< epochs to train it to
};

class SweepContext {
public:
    SweepContext(RunStore& store, const SweepPlan& plan, SweepObserver& observer, int64_t experiment)
        : store(store)
        , plan(plan)
        , observer(observer)
        , experiment(experiment)
        , rng(plan.settings.seed * 7919 + 17)
    {
    }
    RunStore& store;
    const SweepPlan& plan;
    SweepObserver& observer;
    int64_t experiment;
    std::vector<std::unique_ptr<SweepTrial>> trials;
    std::mt19937_64 rng;

    bool higherIsBetter() const { return metricOrDefault(plan.settings.metric).higherIsBetter; }
    /// A value's score, higher is better (the metric, or minus it for a loss).
    double score(double metric) const { return higherIsBetter() ? metric : -metric; }
    /// The trial's best value of the metric so far.
    std::optional<double> best(const SweepTrial& t) const;
    /// A new trial (with its folds when the sweep cross-validates).
    SweepTrial& addTrial(TrialParams params);
    int running() const;
};

/// A search method: which trial to run next, and what a finished stage means.
class SweepMethod {
public:
    virtual ~SweepMethod() = default;
    /// The next piece of work, or nothing for now.
    virtual std::optional<SweepWork> next(SweepContext& ctx) = 0;
    /// A trial's process ended with `t.status` after `t.epochs()` epochs: set its phase.
    virtual void stageEnded(SweepContext& ctx, SweepTrial& t);
    /// Nothing runs and nothing is left to start: settle the trials still paused.
    virtual void finish(SweepContext& ctx) {}
};

/// The experiment uuid every shard of a job array shares (SweepPlan.cpp).
std::string jobArrayUuid(const ExperimentRecord& experiment, int shards);

/// The method `plan` names, through its registry entry (entrena/experiment/SweepMethodRegistry.h).
std::unique_ptr<SweepMethod> makeSweepMethod(const SweepPlan& plan);

// The registry's factories.
std::unique_ptr<SweepMethod> makeGridMethod(const SweepPlan& plan);
std::unique_ptr<SweepMethod> makeRandomMethod(const SweepPlan& plan);
std::unique_ptr<SweepMethod> makeTpeMethod(const SweepPlan& plan);
std::unique_ptr<SweepMethod> makeAshaMethod(const SweepPlan& plan);
std::unique_ptr<SweepMethod> makePbtMethod(const SweepPlan& plan);

} // namespace entrena
