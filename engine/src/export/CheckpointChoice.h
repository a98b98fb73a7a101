#pragma once
// Which of a run's checkpoints `export` and `predict` use.

#include "entrena/store/RunStore.h"

#include <optional>
#include <string>

namespace entrena {

/// The latest checkpoint of run `runId` ("last"), or the latest of those that were the best by
/// validation when written ("best"); nullopt when there is none.
std::optional<CheckpointRecord> chooseCheckpoint(RunStore& store, int64_t runId, const std::string& which);

} // namespace entrena
