#pragma once

#include "entrena/train/Events.h"

#include <cstdio>
#include <string>

namespace entrena::cli {

/// The `--json` event stream: one JSON object per line on stdout, flushed per line.
class JsonEvents : public TrainingObserver {
public:
    explicit JsonEvents(std::FILE* out = stdout) : out_(out) {}
    void onStart(const StartEvent& e) override;
    void onStep(const StepEvent& e) override;
    void onEpoch(const EpochEvent& e) override;
    void onNotice(const NoticeEvent& e) override;
    void onEnd(const EndEvent& e) override;

private:
    void write(const std::string& line);
    std::FILE* out_;
};

} // namespace entrena::cli
