#include "ProgressPrinter.h"

#include <unistd.h>

#include <string>

namespace entrena::cli {

ProgressPrinter::ProgressPrinter(std::FILE* out) : out_(out), terminal_(isatty(fileno(out)) != 0) {}

void ProgressPrinter::clearBar()
{
    if (barShown_) {
        std::fputs("\r\033[K", out_);
        barShown_ = false;
    }
}

void ProgressPrinter::onStart(const StartEvent& e)
{
    totalSteps_ = e.totalSteps;
    epochs_ = e.epochs;
    start_ = std::chrono::steady_clock::now();
    std::fprintf(out_, "run %lld '%s' on %s: %d epochs, %lld steps\n", (long long)e.runId, e.name.c_str(),
                 e.device.c_str(), e.epochs, (long long)e.totalSteps);
    std::fflush(out_);
}

void ProgressPrinter::onStep(const StepEvent& e)
{
    if (!terminal_)
        return;
    const double fraction = totalSteps_ > 0 ? double(e.step) / double(totalSteps_) : 0.0;
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    const double eta = fraction > 0 ? elapsed * (1.0 - fraction) / fraction : 0.0;
    constexpr int kWidth = 30;
    const int filled = int(fraction * kWidth + 0.5);
    std::string bar(size_t(filled), '#');
    bar.resize(kWidth, '.');
    std::fprintf(out_, "\r\033[K[%s] %3.0f%%  epoch %d/%d  loss %.4f  lr %.3g  %.0f samples/s  ETA %.0fs", bar.c_str(),
                 fraction * 100.0, e.epoch, epochs_, e.loss, e.lr, e.samplesPerSec, eta);
    std::fflush(out_);
    barShown_ = true;
}

void ProgressPrinter::onEpoch(const EpochEvent& e)
{
    clearBar();
    std::fprintf(out_, "epoch %d: train loss %.4f, val loss %.4f, val accuracy %.2f%%, lr %.3g, %.1fs\n", e.epoch,
                 e.trainLoss, e.valLoss, e.valAccuracy * 100.0, e.lr, e.seconds);
    std::fflush(out_);
}

void ProgressPrinter::onNotice(const NoticeEvent& e)
{
    if (e.kind == "checkpoint")
        return; // one line per epoch is enough; checkpoints are in the store
    clearBar();
    std::fprintf(out_, "%s: %s\n", e.kind.c_str(), e.message.c_str());
    std::fflush(out_);
}

void ProgressPrinter::onEnd(const EndEvent& e)
{
    clearBar();
    std::fprintf(out_, "%s after %.1fs", toString(e.status), e.seconds);
    if (e.testAccuracy >= 0)
        std::fprintf(out_, ": test accuracy %.2f%%", e.testAccuracy * 100.0);
    if (e.bestValAccuracy >= 0)
        std::fprintf(out_, ", best val accuracy %.2f%%", e.bestValAccuracy * 100.0);
    if (e.samplesPerSec > 0)
        std::fprintf(out_, ", %.0f samples/s", e.samplesPerSec);
    std::fputc('\n', out_);
    std::fflush(out_);
}

} // namespace entrena::cli
