#pragma once
// Early stopping (train.early_stop_patience): the run ends when the watched validation figure has
// not improved by train.early_stop_min_delta for that many epochs. Its state lives in the
// TrainingState, so a resumed run counts on.

#include "entrena/config/Config.h"
#include "store/CheckpointFile.h"

#include <optional>
#include <string>

namespace entrena {

class EarlyStopper {
public:
    EarlyStopper(const TrainSpec& spec, TrainingState& state)
        : spec_(spec)
        , state_(state)
    {
    }

    /// After an epoch's validation: the reason to stop now, if any.
    std::optional<std::string> epochEnded(double valLoss, double valAccuracy);

private:
    const TrainSpec& spec_;
    TrainingState& state_;
};

} // namespace entrena
