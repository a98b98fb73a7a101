#pragma once
// The Tree-structured Parzen Estimator (Bergstra et al. 2011; Optuna's default sampler, with its
// parameters drawn independently): the trials so far split into the good (the best quarter) and
// the rest; for each key, density estimates l(x) of the good values and g(x) of the rest, and the
// next value is the candidate drawn from l that maximises l(x) / g(x).

#include "entrena/experiment/SearchSpace.h"

#include <random>
#include <vector>

namespace entrena {

/// A finished trial as a sampler sees it: its values and its score (higher is better).
struct Observation {
    TrialParams params;
    double score = 0;
};

/// The next trial's values. With fewer than 2 observations, a random sample.
TrialParams sampleTpe(const SearchSpace& space, const std::vector<Observation>& done, std::mt19937_64& rng);

} // namespace entrena
