#include "search/LrRangeTest.h"
#include "system/DeviceChoice.h"
#include "optim/Optimizers.h"
#include "entrena/system/Runtime.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace entrena {

std::vector<double> despike(const std::vector<double>& losses)
{
    // Hampel filter: a point further than 3 scaled MADs from the median of its 11 neighbours is one
    // step's accident (a bad batch), not the curve; it takes the median's value. A sustained rise
    // (the divergence the sweep looks for) moves the median with it and stays.
    constexpr int half = 5;
    const int n = int(losses.size());
    std::vector<double> out = losses;
    for (int i = 0; i < n; ++i) {
        std::vector<double> w(losses.begin() + std::max(0, i - half), losses.begin() + std::min(n, i + half + 1));
        std::nth_element(w.begin(), w.begin() + long(w.size() / 2), w.end());
        const double median = w[w.size() / 2];
        for (double& v : w)
            v = std::abs(v - median);
        std::nth_element(w.begin(), w.begin() + long(w.size() / 2), w.end());
        const double mad = 1.4826 * w[w.size() / 2];
        if (std::abs(losses[std::size_t(i)] - median) > 3 * mad + 1e-12)
            out[std::size_t(i)] = median;
    }
    return out;
}

std::vector<double> smoothLosses(const std::vector<double>& losses, double beta)
{
    const std::vector<double> clean = despike(losses);
    std::vector<double> out(clean.size());
    double avg = 0;
    for (std::size_t i = 0; i < clean.size(); ++i) {
        avg = beta * avg + (1 - beta) * clean[i];
        out[i] = avg / (1 - std::pow(beta, double(i + 1)));
    }
    return out;
}

std::vector<double> smoothFinishedSweep(const std::vector<double>& losses)
{
    // A centred median (a twentieth of the sweep, at least 5 points) follows the descent with no
    // lag and, unlike an average, is not dragged up by the explosion after it; a centred mean of 3
    // then takes the median's steps off.
    const std::vector<double> clean = despike(losses);
    const int n = int(clean.size());
    const int half = std::max(2, n / 40);
    std::vector<double> median(clean.size());
    for (int i = 0; i < n; ++i) {
        std::vector<double> w(clean.begin() + std::max(0, i - half), clean.begin() + std::min(n, i + half + 1));
        std::nth_element(w.begin(), w.begin() + long(w.size() / 2), w.end());
        median[std::size_t(i)] = w[w.size() / 2];
    }
    std::vector<double> out(clean.size());
    for (int i = 0; i < n; ++i) {
        double sum = 0;
        int count = 0;
        for (int j = std::max(0, i - 1); j <= std::min(n - 1, i + 1); ++j, ++count)
            sum += median[std::size_t(j)];
        out[std::size_t(i)] = sum / count;
    }
    return out;
}

LrSuggestion suggestLearningRate(const std::vector<double>& lrs, const std::vector<double>& smoothed)
{
    const int n = int(smoothed.size());
    if (n < 5 || lrs.size() != smoothed.size())
        throw std::invalid_argument("the learning-rate sweep has too few points to suggest a rate (" + std::to_string(n) +
                                    "); run more steps or widen the range");
    LrSuggestion s;
    const int m = int(std::min_element(smoothed.begin(), smoothed.end()) - smoothed.begin());
    // The plateau the descent starts from: the median of the first fifth (a spike there moves
    // a mean, not a median).
    std::vector<double> head(smoothed.begin(), smoothed.begin() + std::max(1, std::min(m, n / 5)));
    std::nth_element(head.begin(), head.begin() + long(head.size() / 2), head.end());
    const double plateau = std::max(head[head.size() / 2], smoothed[std::size_t(m)]);
    const double threshold = plateau - 0.1 * (plateau - smoothed[std::size_t(m)]);
    int begin = 0;
    for (int i = m - 1; i >= 0; --i)
        if (smoothed[std::size_t(i)] >= threshold) {
            begin = i;
            break;
        }
    s.valleyBegin = begin;
    s.valleyEnd = m;
    s.index = begin + (m - begin) / 2;
    s.suggestedLr = lrs[std::size_t(s.index)];
    // Steepest fall inside the descent, by central differences over log(lr).
    double steepest = 0;
    int at = s.index;
    for (int i = std::max(1, begin); i < std::min(m + 1, n - 1); ++i) {
        const double g = (smoothed[std::size_t(i + 1)] - smoothed[std::size_t(i - 1)]) /
                         (std::log(lrs[std::size_t(i + 1)]) - std::log(lrs[std::size_t(i - 1)]));
        if (g < steepest) {
            steepest = g;
            at = i;
        }
    }
    s.steepestLr = lrs[std::size_t(at)];
    return s;
}

LrFinderResult findLearningRate(const RunConfig& c, const LrFinderOptions& options, const StopToken& stop,
                                const std::function<void(int, double, double)>& progress)
{
    // The range test's steps run in fp32, whatever train.precision says (docs/configuration.md).
    applyThreadCount(c.devices.threads);
    const torch::Device device = chooseDevice(c.devices);
    torch::manual_seed(c.seed);
    const DataSplits data = loadData(c.data, c.seed);
    Model model = Model::build(c.model, data.channels(), data.height(), data.width(), data.classes);
    model.to(device);
    auto optimizer = makeOptimizer(c.optimizer, model.parameters());
    return rangeTest(model, *optimizer, data, c, device, options, stop, progress);
}

} // namespace entrena
