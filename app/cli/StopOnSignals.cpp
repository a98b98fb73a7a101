#include "StopOnSignals.h"

#include <atomic>
#include <csignal>

namespace entrena::cli {

namespace {

std::atomic<StopToken*> gStop{nullptr};

extern "C" void onStopSignal(int)
{
    // Only atomic operations: async-signal-safe.
    if (StopToken* token = gStop.load())
        token->requestStop();
}

} // namespace

StopOnSignals::StopOnSignals(StopToken& token)
{
    gStop = &token;
    struct sigaction sa {};
    sa.sa_handler = onStopSignal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);
}

StopOnSignals::~StopOnSignals()
{
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
    gStop = nullptr;
}

} // namespace entrena::cli
