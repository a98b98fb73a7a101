#pragma once

#include "ProgressBar.h"
#include "entrena/train/Events.h"

#include <chrono>
#include <cstdio>

namespace entrena::cli {

/// Human output: a line per epoch, notice and end on `lines` (stdout), and while training a
/// progress bar with throughput and ETA on `bar` (stderr) when that is a terminal, so that
/// `entrena-cli train > log` writes a clean log.
class ProgressPrinter : public TrainingObserver {
public:
    explicit ProgressPrinter(std::FILE* lines = stdout, std::FILE* bar = stderr);
    void onStart(const StartEvent& e) override;
    void onStep(const StepEvent& e) override;
    void onEpoch(const EpochEvent& e) override;
    void onNotice(const NoticeEvent& e) override;
    void onEnd(const EndEvent& e) override;

private:
    std::FILE* out_;
    ProgressBar bar_;
    int64_t totalSteps_ = 0;
    int epochs_ = 0;
    std::chrono::steady_clock::time_point start_;
};

} // namespace entrena::cli
