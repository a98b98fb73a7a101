#include "train/PathChoice.h"

#include <algorithm>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <numeric>
#include <stdexcept>
#include <utility>

namespace entrena {
namespace {

constexpr int kMinPairs = 4, kMaxPairs = 64;
constexpr double kEnoughSeconds = 0.2; // measured time after which slow steps stop at kMinPairs

/// The rule, on the two sides' medians (in a data-parallel run, their sums over the ranks): strictly
/// faster to be kept, so that a tie goes to ATen.
bool keepsOwn(double ownMedian, double atenMedian)
{
    return ownMedian < atenMedian;
}

double median(std::vector<double> v)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

std::string trimmed(std::string s)
{
    const auto first = s.find_first_not_of(" \t");
    const auto last = s.find_last_not_of(" \t");
    return first == std::string::npos ? std::string() : s.substr(first, last - first + 1);
}

} // namespace

const std::vector<std::string>& PathChoice::ownPathNames()
{
    static const std::vector<std::string> names = {"mlp_step", "fused_blocks", "fused_sgd", "channels_last"};
    return names;
}

std::map<std::string, bool> PathChoice::forcedPaths()
{
    std::map<std::string, bool> out;
    if (const char* off = std::getenv("ENTRENA_FUSED"); off && std::string(off) == "0") {
        for (const auto& name : ownPathNames())
            out[name] = false;
        return out;
    }
    const char* given = std::getenv("ENTRENA_PATHS");
    std::string rest = given ? given : "";
    while (!rest.empty()) {
        const auto comma = rest.find(',');
        const std::string entry = trimmed(rest.substr(0, comma));
        rest = comma == std::string::npos ? std::string() : rest.substr(comma + 1);
        if (entry.empty())
            continue;
        const auto eq = entry.find('=');
        const std::string name = trimmed(entry.substr(0, eq)),
                          side = eq == std::string::npos ? "" : trimmed(entry.substr(eq + 1));
        const auto& names = ownPathNames();
        const bool known = name == "*" || std::find(names.begin(), names.end(), name) != names.end();
        if (!known || (side != "aten" && side != "entrena")) {
            std::string list;
            for (const auto& n : names)
                list += (list.empty() ? "" : ", ") + n;
            throw std::invalid_argument("ENTRENA_PATHS: '" + entry + "' is not PATH=aten or PATH=entrena, with PATH one of " +
                                        list + " or *");
        }
        if (name == "*") {
            for (const auto& n : names)
                out[n] = side == "entrena";
        } else {
            out[name] = side == "entrena";
        }
    }
    return out;
}

bool PathChoice::ownWins(std::vector<double> own, std::vector<double> aten)
{
    const bool measured = !own.empty() && !aten.empty();
    return measured && keepsOwn(median(std::move(own)), median(std::move(aten)));
}

PathChoice::PathChoice(std::map<std::string, bool> forced, int pairs)
    : forced_(std::move(forced))
    , pairs_(pairs)
{
}

void PathChoice::add(Path path)
{
    Trial t{std::move(path), std::nullopt, "", {}, {}};
    if (const auto f = forced_.find(t.path.name); f != forced_.end()) {
        t.decided = f->second;
        const char* off = std::getenv("ENTRENA_FUSED");
        t.by = off && std::string(off) == "0" ? "ENTRENA_FUSED=0" : "forced";
        t.path.use(f->second);
    }
    trials_.push_back(std::move(t));
}

// Paths on trial together take their sides in a factorial pattern: the first alternates every step,
// the second every two steps, and so on, so that each path is timed as often with the other on either
// side (in lockstep, one path's after-effects, threads woken or caches filled, would be charged to the
// other).
void PathChoice::addKnown(Path path, bool own, double ownMs, double atenMs, std::string by)
{
    Trial t{std::move(path), own, std::move(by), {}, {}};
    t.ownMs = ownMs;
    t.atenMs = atenMs;
    t.path.use(own);
    trials_.push_back(std::move(t));
}

void PathChoice::addDenied(const std::string& name, StepPart part, const std::string& why)
{
    trials_.push_back(Trial{Path{name, part, [](bool) {}}, false, "forced, not taken: " + why, {}, {}});
}

std::vector<PathChoice::Verdict> PathChoice::verdicts() const
{
    std::vector<Verdict> out;
    for (const auto& t : trials_)
        if (t.decided)
            out.push_back({t.path.name, *t.decided, t.ownMs, t.atenMs, t.by});
    return out;
}

bool PathChoice::sideOf(size_t trial, int64_t step)
{
    return ((step >> trial) & 1) == 0;
}

int64_t PathChoice::warmUpSteps() const
{
    // Every combination of sides once: first calls allocate and pick their kernels.
    return int64_t(1) << std::min<size_t>(trials_.size(), 3);
}

bool PathChoice::measuring() const
{
    return std::any_of(trials_.begin(), trials_.end(), [](const Trial& t) { return !t.decided; });
}

void PathChoice::beforeStep()
{
    for (size_t i = 0; i < trials_.size(); ++i)
        if (!trials_[i].decided)
            trials_[i].path.use(sideOf(i, steps_));
}

void PathChoice::afterStep(double computeSeconds, double optimizerSeconds)
{
    if (!measuring())
        return;
    const int64_t step = steps_++;
    if (step < warmUpSteps())
        return;
    double total = 0;
    size_t pairs = kMaxPairs;
    for (size_t i = 0; i < trials_.size(); ++i) {
        auto& t = trials_[i];
        if (t.decided)
            continue;
        (sideOf(i, step) ? t.own : t.aten).push_back(t.path.part == StepPart::Compute ? computeSeconds : optimizerSeconds);
        pairs = std::min({pairs, t.own.size(), t.aten.size()});
    }
    // The measured parts' time decides how many pairs are enough: millisecond parts are noisy.
    for (const auto& t : trials_)
        if (!t.decided)
            total += std::accumulate(t.own.begin(), t.own.end(), 0.0) + std::accumulate(t.aten.begin(), t.aten.end(), 0.0);
    const bool enough = pairs_ > 0 ? pairs >= size_t(pairs_)
                                   : pairs >= size_t(kMaxPairs) || (pairs >= size_t(kMinPairs) && total >= kEnoughSeconds);
    if (enough)
        decide(false);
}

void PathChoice::decide(bool cutShort)
{
    std::vector<double> medians;
    for (const auto& t : trials_)
        if (!t.decided) {
            medians.push_back(median(t.own));
            medians.push_back(median(t.aten));
        }
    if (agree_ && !cutShort)
        agree_(medians);
    size_t i = 0;
    for (auto& t : trials_) {
        if (t.decided)
            continue;
        t.ownMs = 1e3 * medians[i++];
        t.atenMs = 1e3 * medians[i++];
        const bool measured = !t.own.empty() && !t.aten.empty();
        t.decided = measured && keepsOwn(t.ownMs, t.atenMs);
        t.by = cutShort ? "trial cut short" : "measured";
        t.path.use(*t.decided);
    }
}

void PathChoice::decideNow()
{
    if (measuring())
        decide(true);
}

std::optional<bool> PathChoice::own(const std::string& name) const
{
    for (const auto& t : trials_)
        if (t.path.name == name)
            return t.decided;
    return std::nullopt;
}

std::string PathChoice::json() const
{
    nlohmann::json out = nlohmann::json::object();
    for (const auto& t : trials_) {
        nlohmann::json entry = {{"path", !t.decided ? "measuring" : *t.decided ? "entrena" : "aten"}, {"by", t.by}};
        if (!t.own.empty() || !t.aten.empty() || (t.by == "cached" && t.ownMs > 0)) {
            entry["entrena_ms"] = t.ownMs;
            entry["aten_ms"] = t.atenMs;
        }
        if (!t.own.empty() || !t.aten.empty())
            entry["steps"] = std::min(t.own.size(), t.aten.size());
        out[t.path.name] = entry;
    }
    return out.dump();
}

} // namespace entrena
