#pragma once

#include "CliOptions.h"

namespace entrena::cli {

/// `entrena-cli sweep`: a search over configurations (docs/experiments.md). Returns the exit status.
int sweep(const CliOptions& o);
/// `entrena-cli experiments`: the store's experiments.
int experiments(const CliOptions& o);
/// `entrena-cli import OTHER.sqlite`: another store's runs into this one.
int importStore(const CliOptions& o);
/// `entrena-cli cluster-script --space`: a Slurm job array that runs a sweep's trials.
int clusterSweepScript(const CliOptions& o);

} // namespace entrena::cli
