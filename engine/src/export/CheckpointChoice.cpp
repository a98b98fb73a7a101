#include "export/CheckpointChoice.h"

namespace entrena {

std::optional<CheckpointRecord> chooseCheckpoint(RunStore& store, int64_t runId, const std::string& which)
{
    std::optional<CheckpointRecord> chosen;
    for (const auto& c : store.checkpoints(runId)) {
        if (which == "best" && !c.isBest)
            continue;
        if (!chosen || c.step >= chosen->step)
            chosen = c;
    }
    return chosen;
}

} // namespace entrena
