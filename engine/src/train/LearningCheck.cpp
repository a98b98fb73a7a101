#include "train/LearningCheck.h"

#include <cmath>
#include <cstdio>

namespace entrena {

std::optional<std::string> LearningCheck::epochEnded(int epoch, double trainLoss, double valAccuracy, bool hasVal,
                                                     int64_t classes)
{
    if (checked_ || epoch != 1 || classes < 2)
        return std::nullopt;
    checked_ = true;
    const double guessing = std::log(double(classes)); // cross-entropy of a uniform guess
    const double chance = 1.0 / double(classes);
    const bool lossStuck = std::isfinite(trainLoss) && trainLoss > 0.95 * guessing;
    const bool accuracyStuck = hasVal && valAccuracy < chance + 0.05 * (1.0 - chance);
    // A loss near ln K alone is a slow start when validation already does far better than chance.
    if (!accuracyStuck && !(lossStuck && (!hasVal || valAccuracy < 2 * chance)))
        return std::nullopt;
    char what[320];
    if (hasVal)
        std::snprintf(what, sizeof what,
                      "after an epoch the training loss is %.3g (guessing among %lld classes scores ln %lld = %.3g) "
                      "and validation accuracy %.1f%% (chance: %.1f%%)",
                      trainLoss, (long long)classes, (long long)classes, guessing, 100 * valAccuracy, 100 * chance);
    else
        std::snprintf(what, sizeof what,
                      "after an epoch the training loss is %.3g (guessing among %lld classes scores ln %lld = %.3g)", trainLoss,
                      (long long)classes, (long long)classes, guessing);
    return std::string("the model is not learning: ") + what +
           ". Try a lower learning rate (Find LR…, or entrena-cli lr-find), and check that the labels match the "
           "inputs";
}

} // namespace entrena
