#pragma once

#include "entrena/Events.h"

#include <chrono>
#include <cstdio>

namespace entrena::cli {

/// Human output: a progress bar with throughput and ETA on a terminal, plain lines otherwise.
class ProgressPrinter : public TrainingObserver {
public:
    explicit ProgressPrinter(std::FILE* out = stdout);
    void onStart(const StartEvent& e) override;
    void onStep(const StepEvent& e) override;
    void onEpoch(const EpochEvent& e) override;
    void onNotice(const NoticeEvent& e) override;
    void onEnd(const EndEvent& e) override;

private:
    void clearBar();

    std::FILE* out_;
    bool terminal_;
    bool barShown_ = false;
    int64_t totalSteps_ = 0;
    int epochs_ = 0;
    std::chrono::steady_clock::time_point start_;
};

} // namespace entrena::cli
