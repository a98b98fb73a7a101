#include "experiment/Tpe.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

namespace entrena {
namespace {

constexpr int kCandidates = 24; // Optuna's n_ei_candidates
constexpr double kPi = 3.14159265358979323846;

std::string number(double v)
{
    std::ostringstream s;
    s.precision(10);
    s << v;
    return s.str();
}

/// A continuous distribution's values in the space the density works in (log for log_uniform).
double toInternal(const Distribution& d, double v)
{
    return d.kind == Distribution::Kind::LogUniform ? std::log(v) : v;
}
double fromInternal(const Distribution& d, double v)
{
    return d.kind == Distribution::Kind::LogUniform ? std::exp(v) : v;
}

/// A Parzen estimator over [lo, hi]: a Gaussian at each observed value, and the uniform prior with
/// the weight of one observation so that no region has zero density.
struct Parzen {
    std::vector<double> centres;
    double sigma = 1, lo = 0, hi = 1;

    Parzen(std::vector<double> points, double low, double high)
        : centres(std::move(points))
        , lo(low)
        , hi(high)
    {
        const double range = hi - lo;
        // Narrower as evidence grows, never below a 100th of the range (Optuna's rule of thumb).
        sigma = std::max(range / 100.0, range / std::pow(double(centres.size()) + 1.0, 0.5) / 2.0);
    }

    double density(double x) const
    {
        const double prior = 1.0 / (hi - lo);
        double sum = prior;
        for (double c : centres)
            sum += std::exp(-0.5 * (x - c) * (x - c) / (sigma * sigma)) / (sigma * std::sqrt(2 * kPi));
        return sum / double(centres.size() + 1);
    }

    double sample(std::mt19937_64& rng) const
    {
        std::uniform_int_distribution<size_t> pick(0, centres.size());
        const size_t k = pick(rng);
        if (k == centres.size())
            return std::uniform_real_distribution<double>(lo, hi)(rng);
        return std::clamp(std::normal_distribution<double>(centres[k], sigma)(rng), lo, hi);
    }
};

std::string chooseContinuous(const Distribution& d, const std::vector<double>& good, const std::vector<double>& bad,
                             std::mt19937_64& rng)
{
    const double lo = toInternal(d, d.low), hi = toInternal(d, d.high);
    const Parzen l(good, lo, hi), g(bad, lo, hi);
    double best = 0, bestScore = -1e300;
    for (int i = 0; i < kCandidates; ++i) {
        double x = l.sample(rng);
        if (d.kind == Distribution::Kind::IntUniform)
            x = std::round(x);
        const double score = std::log(l.density(x)) - std::log(g.density(x));
        if (score > bestScore) {
            bestScore = score;
            best = x;
        }
    }
    if (d.kind == Distribution::Kind::IntUniform)
        return std::to_string(int64_t(std::round(best)));
    return number(fromInternal(d, best));
}

std::string chooseCategory(const Distribution& d, const std::vector<std::string>& good, const std::vector<std::string>& bad,
                           std::mt19937_64& rng)
{
    // Counts with one pseudo-observation per choice (the prior).
    std::map<std::string, double> l, g;
    for (const auto& c : d.choices)
        l[c] = g[c] = 1.0;
    for (const auto& v : good)
        l[v] += 1.0;
    for (const auto& v : bad)
        g[v] += 1.0;
    std::vector<double> weights;
    for (const auto& c : d.choices)
        weights.push_back(l[c]);
    std::discrete_distribution<size_t> pick(weights.begin(), weights.end());
    std::string best;
    double bestScore = -1e300;
    const double lTotal = double(good.size() + d.choices.size()), gTotal = double(bad.size() + d.choices.size());
    for (int i = 0; i < kCandidates; ++i) {
        const std::string& c = d.choices[pick(rng)];
        const double score = std::log(l[c] / lTotal) - std::log(g[c] / gTotal);
        if (score > bestScore) {
            bestScore = score;
            best = c;
        }
    }
    return best;
}

} // namespace

TrialParams sampleTpe(const SearchSpace& space, const std::vector<Observation>& done, std::mt19937_64& rng)
{
    if (done.size() < 2)
        return space.sample(rng);
    std::vector<const Observation*> sorted;
    for (const auto& o : done)
        sorted.push_back(&o);
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const Observation* a, const Observation* b) { return a->score > b->score; });
    const size_t nGood = std::max<size_t>(1, size_t(std::ceil(0.25 * double(sorted.size()))));
    TrialParams next;
    for (size_t k = 0; k < space.params().size(); ++k) {
        const auto& [key, d] = space.params()[k];
        std::vector<std::string> goodText, badText;
        std::vector<double> goodValues, badValues;
        for (size_t i = 0; i < sorted.size(); ++i) {
            const std::string& v = sorted[i]->params.at(k).second;
            (i < nGood ? goodText : badText).push_back(v);
            if (d.continuous()) {
                const double x = nlohmann::json::parse(v).get<double>();
                (i < nGood ? goodValues : badValues).push_back(toInternal(d, x));
            }
        }
        next.emplace_back(key, d.continuous() ? chooseContinuous(d, goodValues, badValues, rng)
                                              : chooseCategory(d, goodText, badText, rng));
    }
    return next;
}

} // namespace entrena
