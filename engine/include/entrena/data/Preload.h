#pragma once
// Reading a data set's files ahead, for a process that forks the processes that train on it.

#include "entrena/config/Config.h"

namespace entrena {

/// Reads `spec`'s files into this process's memory, and computes nothing on them, so that processes
/// forked from it afterwards start with them read: a sweep's trial server calls it with the sweep's
/// base configuration (docs/experiments.md, "How trials run"). Fashion-MNIST and MNIST's IDX files,
/// to the configured limits; other data sets are read by each trial. Never throws: a file that
/// cannot be read is the run's to report.
void preloadDataFiles(const DataSpec& spec);

} // namespace entrena
