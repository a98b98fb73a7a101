#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace entrena::cli {

/// A command line that cannot be used: exit status 2, the message on stderr.
class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct CliOptions {
    std::string command; ///< train | lr-find | batch-find | runs | baseline | export | devices | cluster-script | help | version
    std::vector<std::string> args; ///< the command line as given, from the command on (a rank re-runs it)
    std::string config;
    std::vector<std::string> sets;
    std::string db;
    bool json = false;
    std::string resume;
    int nproc = 0;   ///< train: ranks to start here; cluster-script: ranks per node
    int nodes = 1;   ///< cluster-script: machines
    std::string run;
    std::string checkpoint;
    std::string metrics;
    std::string out;
    std::string status; ///< runs: only runs of this status
    std::string tag;    ///< runs: only runs with this tag
    bool all = false;   ///< runs: archived runs too
    bool clear = false; ///< baseline: stop being the baseline
    double startLr = 1e-6; ///< lr-find: the sweep's range and length
    double endLr = 10.0;
    int steps = 100;
    int64_t start = 16; ///< batch-find: the first size, the cap (0: the training set), steps per trial
    int64_t max = 0;
    int trialSteps = 3;
};

/// Parses argv per the contract in shared/design.md. Throws UsageError.
CliOptions parseCommandLine(int argc, char** argv);

extern const char* const kUsage;

} // namespace entrena::cli
