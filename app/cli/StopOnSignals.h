#pragma once

#include "entrena/train/Events.h"

namespace entrena::cli {

/// SIGINT and SIGTERM ask `token` to stop while this lives (the trainer notices between steps);
/// however the scope is left, an exception included, the signals go back to their defaults and
/// the token is forgotten, so a handler never points at a token that no longer exists.
class StopOnSignals {
public:
    explicit StopOnSignals(StopToken& token);
    ~StopOnSignals();
    StopOnSignals(const StopOnSignals&) = delete;
    StopOnSignals& operator=(const StopOnSignals&) = delete;
};

} // namespace entrena::cli
