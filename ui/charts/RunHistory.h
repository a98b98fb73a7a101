#pragma once

#include <cstdint>
#include <string>

namespace entrena::ui {

class LiveCharts;

/// Draws on `charts` what run `runId` of the store at `dbPath` recorded up to its latest
/// checkpoint: the part a resumed run continues from, so that its charts show the whole run and
/// not only what follows the resume. Returns the points drawn (0 when there was nothing to read).
int showRunHistory(LiveCharts* charts, const std::string& dbPath, int64_t runId);

} // namespace entrena::ui
