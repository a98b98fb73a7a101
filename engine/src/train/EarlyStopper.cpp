#include "train/EarlyStopper.h"

namespace entrena {

std::optional<std::string> EarlyStopper::epochEnded(double valLoss, double valAccuracy)
{
    if (spec_.earlyStopPatience <= 0)
        return std::nullopt;
    const bool higherIsBetter = spec_.earlyStopMetric == Metric::ValAccuracy;
    const double value = higherIsBetter ? valAccuracy : valLoss;
    const double delta = spec_.earlyStopMinDelta;
    const bool improved =
        !state_.earlyStarted || (higherIsBetter ? value > state_.earlyBest + delta : value < state_.earlyBest - delta);
    if (improved) {
        state_.earlyBest = value;
        state_.earlyBadEpochs = 0;
        state_.earlyStarted = true;
        return std::nullopt;
    }
    if (++state_.earlyBadEpochs < spec_.earlyStopPatience)
        return std::nullopt;
    return std::string(toString(spec_.earlyStopMetric)) + " did not improve for " + std::to_string(state_.earlyBadEpochs) +
           " epochs";
}

} // namespace entrena
