#pragma once
// A sweep's trial, named in the runs list by what it tries.

#include "entrena/experiment/SearchSpace.h"

#include <string>

namespace entrena {

/// A trial's run name: the experiment's name, the trial's number and what it tries ("fmnist-mlp-asha
/// trial 3: lr=0.0123, batch_size=64"); a cross-validation's run by its fold from 1 ("wine 5-fold
/// fold 2"); `fold` >= 0: a cross-validated sweep's fold of the trial.
std::string trialName(const std::string& experiment, int index, const TrialParams& params, int fold = -1);

} // namespace entrena
