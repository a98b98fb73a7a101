#pragma once
// Bringing runs home: another run store's runs (made on a cluster node, another machine) copied
// into this one, with their metrics, events, tags, checkpoints and experiments.

#include <string>

namespace entrena {

class RunStore;

struct ImportResult {
    int runs = 0;        ///< runs added
    int skipped = 0;     ///< runs this store had already (same uuid)
    int experiments = 0; ///< experiments added
};

/// Copies every run of the store at `otherPath` that `store` does not have (by uuid: importing the
/// same store twice adds nothing). Checkpoint files are copied into `store`'s checkpoints folder.
/// The other store is opened as any Entrena opens a store (an older one is migrated; a newer one
/// is refused). Throws StoreError naming the problem; on error nothing is added.
ImportResult importRuns(RunStore& store, const std::string& otherPath);

} // namespace entrena
