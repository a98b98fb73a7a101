#pragma once
// The learning-rate range test (Smith, 2015; as fastai and Lightning run it): train for a few
// hundred steps while the learning rate grows exponentially from tiny to huge, watch the smoothed
// loss, stop when it explodes, and suggest a rate from the curve.

#include "entrena/config/Config.h"
#include "entrena/train/Events.h"

#include <functional>
#include <string>
#include <vector>

namespace entrena {

struct LrFinderOptions {
    double startLr = 1e-6;
    double endLr = 10.0;
    int steps = 100;
    double beta = 0.98;         ///< smoothing of the loss (a debiased moving average)
    double divergeFactor = 4.0; ///< stop once the smoothed loss exceeds this × its best so far
};

/// What the curve suggests. The rule used is `valley`: the descent runs from the last point
/// before the loss's minimum that is still near the starting plateau (within 10% of the drop from
/// the plateau, the median of the first fifth, to the minimum) to the minimum; the suggestion is the
/// middle of that descent on the log-LR axis, where the loss falls fastest in a clean curve. A spike
/// before the descent, however steep its fall, lies before the descent's start; one after the
/// minimum lies after its end. `steepestLr` (the steepest fall of the smoothed loss inside the
/// descent) is reported beside it.
struct LrSuggestion {
    double suggestedLr = 0;
    double steepestLr = 0;
    int index = -1;       ///< of suggestedLr in the sweep
    int valleyBegin = -1; ///< the stretch the valley rule found
    int valleyEnd = -1;
    std::string rule = "valley";
};

struct LrFinderResult {
    std::vector<double> lrs, losses, smoothed;
    LrSuggestion suggestion;
    bool diverged = false; ///< stopped because the loss exploded (the usual way it ends)
};

/// The curve the suggestion reads: isolated one-step spikes replaced by their neighbours' median
/// (a Hampel filter), then a debiased moving average with `beta` (as fastai smooths it). And the
/// suggestion for a sweep from that curve.
/// Throws std::invalid_argument for fewer than 5 points or mismatched lengths.
LrSuggestion suggestLearningRate(const std::vector<double>& lrs, const std::vector<double>& smoothed);
std::vector<double> smoothLosses(const std::vector<double>& losses, double beta);
/// The finished sweep's curve, as shown and as the suggestion reads it: despiked as above, then a
/// centred running median (5 points, or a twentieth of a longer sweep) and a centred mean of 3. It
/// follows the loss with no lag: the moving average, which only decides when the sweep stops, trails a
/// falling loss by its time constant and is pulled up by the explosion (on the default MLP's sweep it
/// stood near 1.9 where the loss had fallen to 1.0).
std::vector<double> smoothFinishedSweep(const std::vector<double>& losses);

/// Runs the sweep for `config` (its data, model, optimizer, device) on a freshly built model.
/// `progress` is called after every step. Throws ConfigError or std::runtime_error naming the
/// problem (missing data, a bad range).
LrFinderResult findLearningRate(const RunConfig& config, const LrFinderOptions& options, const StopToken& stop,
                                const std::function<void(int step, double lr, double loss)>& progress = {});

} // namespace entrena
