#pragma once
// Which of Entrena's own paths a run takes, chosen by measurement on the machine it runs on.
//
// Each hand-written path (the MLP step, the fused blocks of the CNN, SGD's one-pass update) computes
// what ATen computes, to rounding; whether it is also faster depends on the CPU, its vector units, its
// BLAS and the thread count (on one Intel Xeon the MLP step lost to a tuned script that it beat by 1.26x
// on an AMD EPYC). So no instruction-set flag decides: before the first step, steps of the run's first
// batch alternate between the path and ATen's ops, each timed, and the faster by the median is kept;
// ATen's on a tie (train/PathTrial.h runs them, without a trace, and caches the answer per machine).
// The choice and both times are recorded in the run's environment (`paths`), as docs/run-store.md says.
//
// ENTRENA_PATHS=mlp_step=aten,fused_sgd=entrena (names from ownPathNames(), `*` for all) forces an
// answer without measuring; ENTRENA_FUSED=0 sends every path to ATen.

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace entrena {

/// The part of a step a path replaces, timed separately so that two paths can be tried at once.
enum class StepPart { Compute, Optimizer };

class PathChoice {
public:
    struct Path {
        std::string name;                  ///< as in the environment's `paths` and ENTRENA_PATHS
        StepPart part;                     ///< the part of the step it replaces
        std::function<void(bool own)> use; ///< switches the path on (own) or to ATen's ops
    };

    /// `forced`: answers given beforehand, by name (forcedPaths()). `pairs`: the timed steps of each
    /// side before a path is decided (0: adapt, 4 for slow steps, up to 64 for steps of a few
    /// milliseconds); a data-parallel run gives a fixed number so that its ranks decide together.
    explicit PathChoice(std::map<std::string, bool> forced = forcedPaths(), int pairs = 0);

    /// A path this run can take. A forced one is switched at once and never measured.
    void add(Path path);
    /// A path whose answer is known (this machine's cache, train/PathTrial.h): switched at once.
    void addKnown(Path path, bool own, double ownMs, double atenMs, std::string by = "cached");
    /// A path asked for (ENTRENA_PATHS) that this run cannot take: recorded as ATen's, "forced, not
    /// taken: <why>", and never switched.
    void addDenied(const std::string& name, StepPart part, const std::string& why);
    /// Whether `name` is forced (ENTRENA_PATHS, ENTRENA_FUSED=0).
    bool forced(const std::string& name) const { return forced_.count(name) > 0; }

    /// Before a step: switches each path on trial to the side this step measures.
    void beforeStep();
    /// After that step, with the seconds its parts took. A step that was not completed (rolled back)
    /// is not recorded: the next step repeats its side.
    void afterStep(double computeSeconds, double optimizerSeconds);
    /// Whether a path is still being measured (its steps then need timing).
    bool measuring() const;
    /// Decides every path on trial from what was measured so far (the run ended during the trial);
    /// a path with no measurement goes to ATen.
    void decideNow();
    /// Data-parallel: `agree` turns this rank's per-path medians into the ranks' totals, so that every
    /// rank keeps the same path (their updates must stay identical). Called when a decision is due.
    void setAgreement(std::function<void(std::vector<double>& ownAndAten)> agree) { agree_ = std::move(agree); }
    /// The sum over the ranks given to setAgreement (null outside data-parallel runs).
    const std::function<void(std::vector<double>&)>& agreement() const { return agree_; }

    /// {"mlp_step": {"path": "entrena"|"aten", "by": "measured"|"forced"|"ENTRENA_FUSED=0"|"trial cut short",
    ///  "entrena_ms": median, "aten_ms": median, "steps": timed steps of each side}}
    std::string json() const;
    /// A path's answer so far (nullopt while measured, or for a path not added).
    std::optional<bool> own(const std::string& name) const;
    struct Verdict {
        std::string name;
        bool own = false;
        double ownMs = 0, atenMs = 0;
        std::string by;
    };
    /// Every decided path's answer, with its medians and how it was reached.
    std::vector<Verdict> verdicts() const;

    /// ENTRENA_PATHS as a map (throws std::invalid_argument naming a bad entry); every path to ATen
    /// when ENTRENA_FUSED=0.
    static std::map<std::string, bool> forcedPaths();
    static const std::vector<std::string>& ownPathNames();
    /// The rule: the path's median against ATen's; strictly faster to be kept.
    static bool ownWins(std::vector<double> own, std::vector<double> aten);

private:
    struct Trial {
        Path path;
        std::optional<bool> decided;
        std::string by;
        std::vector<double> own, aten;
        double ownMs = 0, atenMs = 0;
    };
    static bool sideOf(size_t trial, int64_t step);
    int64_t warmUpSteps() const;
    void decide(bool cutShort);

    std::map<std::string, bool> forced_;
    int pairs_;
    std::vector<Trial> trials_;
    int64_t steps_ = 0; ///< steps recorded since the trial began
    std::function<void(std::vector<double>&)> agree_;
};

} // namespace entrena
