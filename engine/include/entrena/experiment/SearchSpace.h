#pragma once
// What a sweep searches (docs/experiments.md): configuration keys, as `--set` names them, each with a
// distribution. Plain C++: the GUI's sweep dialog reads and writes it too.

#include "entrena/config/Config.h"

#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace entrena {

/// A space that cannot be searched: a key the configuration does not have, an empty choice, a range
/// the wrong way round… The message names the key and what to do.
class SpaceError : public ConfigError {
public:
    using ConfigError::ConfigError;
};

struct Distribution {
    enum class Kind { Uniform, LogUniform, IntUniform, Choice };
    Kind kind = Kind::Uniform;
    double low = 0, high = 0;         ///< Uniform, LogUniform, IntUniform: the closed range
    std::vector<std::string> choices; ///< Choice: each value as JSON ("64", "[256, 128]", "\"adam\"")
    bool continuous() const { return kind != Kind::Choice; }
    std::string describe() const; ///< as in the file: {"log_uniform": [0.0001, 0.3]}
};

/// One trial's values: configuration key → value as JSON, in the space's order.
using TrialParams = std::vector<std::pair<std::string, std::string>>;

/// `--set`-style overrides for a trial's values ("optimizer.lr=0.01").
std::vector<std::string> overridesOf(const TrialParams& params);

/// The base configuration with a trial's values (and `more` overrides) set. A value that chooses
/// another entry (optimizer.name, scheduler.name, data.dataset, model.arch) starts that section from
/// the new entry's defaults, keeping only the keys every entry has: the base's keys of the old entry
/// (sgd's dampening for adam) do not apply. Throws ConfigError.
RunConfig configForTrial(const RunConfig& base, const TrialParams& params, const std::vector<std::string>& more = {});

class SearchSpace {
public:
    /// Parses SPACE.json ({"optimizer.lr": {"log_uniform": [1e-4, 0.3]}, …}) and checks every key and
    /// value against `base` (each choice, and each range's ends, must make a valid configuration).
    /// Throws SpaceError naming the problem.
    static SearchSpace fromJson(const std::string& text, const RunConfig& base);
    std::string toJson() const;

    const std::vector<std::pair<std::string, Distribution>>& params() const { return params_; }
    bool onlyChoices() const;
    /// Every combination of the choices, the first key varying slowest (grid search).
    std::vector<TrialParams> grid() const;
    /// One value of each key, drawn from its distribution.
    TrialParams sample(std::mt19937_64& rng) const;
    /// A trial's values read back from its stored configuration.
    TrialParams paramsOf(const std::string& configJson) const;

private:
    std::vector<std::pair<std::string, Distribution>> params_;
};

/// A value drawn from `d` (JSON text).
std::string sampleValue(const Distribution& d, std::mt19937_64& rng);

} // namespace entrena
