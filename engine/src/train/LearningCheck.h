#pragma once
// Whether a run learns at all. A classifier that guesses uniformly among K classes scores a loss of
// ln K and an accuracy of 1/K; a run still there after its first epoch is not learning (a rate far
// too high or too low, labels that do not match the inputs), and says so instead of ending
// `finished` at chance without a word.

#include <cstdint>
#include <optional>
#include <string>

namespace entrena {

class LearningCheck {
public:
    /// After epoch `epoch`: the `not_learning` message, once, when the first epoch ends at chance.
    std::optional<std::string> epochEnded(int epoch, double trainLoss, double valAccuracy, bool hasVal, int64_t classes);

private:
    bool checked_ = false;
};

} // namespace entrena
