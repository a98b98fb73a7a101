#pragma once
// Bringing runs home: another run store's runs (made on a cluster node, another machine) copied
// into this one, with their metrics, events, tags, checkpoints and experiments.

#include <string>
#include <vector>

namespace entrena {

class RunStore;

struct ImportResult {
    int runs = 0;        ///< runs added
    int skipped = 0;     ///< runs this store had already (same uuid)
    int experiments = 0; ///< experiments added
    /// Checkpoint files and evaluation images that were not copied, each with why (not found, damaged,
    /// unwritable, outside the other store's folder, not what its row says). Their runs are imported
    /// without them: nothing is recorded for a file that was not copied.
    std::vector<std::string> missing;
};

/// Copies every run of the store at `otherPath` that `store` does not have (by uuid: importing the
/// same store twice adds nothing). Each run's checkpoint files and evaluation images are copied into
/// its own folder of `store` and checked against their recorded checksums. The other store is not
/// trusted: only files inside its own folder (links and `..` resolved) that are a checkpoint archive
/// or a PNG, as their rows say, are copied.
/// The other store is opened as any Entrena opens a store (an older one is migrated; a newer one
/// is refused). Throws StoreError naming the problem; on error nothing is added.
ImportResult importRuns(RunStore& store, const std::string& otherPath);

} // namespace entrena
