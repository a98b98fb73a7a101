#include "ProgressPrinter.h"

#include <string>

namespace entrena::cli {

ProgressPrinter::ProgressPrinter(std::FILE* lines, std::FILE* bar)
    : out_(lines)
    , bar_(bar)
{
}

void ProgressPrinter::onStart(const StartEvent& e)
{
    totalSteps_ = e.totalSteps;
    epochs_ = e.epochs;
    start_ = std::chrono::steady_clock::now();
    std::fprintf(out_, "run %lld '%s' on %s: %d epochs, %lld steps\n", (long long)e.runId, e.name.c_str(), e.device.c_str(),
                 e.epochs, (long long)e.totalSteps);
    std::fflush(out_);
}

void ProgressPrinter::onStep(const StepEvent& e)
{
    if (!bar_.enabled())
        return;
    const double fraction = totalSteps_ > 0 ? double(e.step) / double(totalSteps_) : 0.0;
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    const double eta = fraction > 0 ? elapsed * (1.0 - fraction) / fraction : 0.0;
    // Most wanted first: on a narrow terminal the last fields go.
    bar_.draw(fraction, {format("epoch %d/%d", e.epoch, epochs_), format("loss %.4f", e.loss), format("ETA %.0fs", eta),
                         format("%.0f samples/s", e.samplesPerSec), format("lr %.3g", e.lr)});
}

void ProgressPrinter::onEpoch(const EpochEvent& e)
{
    bar_.clear();
    std::fprintf(out_, "epoch %d: train loss %.4f, val loss %.4f, val accuracy %.2f%%, lr %.3g, %.1fs\n", e.epoch, e.trainLoss,
                 e.valLoss, e.valAccuracy * 100.0, e.lr, e.seconds);
    std::fflush(out_);
}

void ProgressPrinter::onNotice(const NoticeEvent& e)
{
    if (e.kind == "checkpoint")
        return; // one line per epoch is enough; checkpoints are in the store
    bar_.clear();
    std::fprintf(out_, "%s: %s\n", e.kind.c_str(), e.message.c_str());
    std::fflush(out_);
}

void ProgressPrinter::onEnd(const EndEvent& e)
{
    bar_.clear();
    std::fprintf(out_, "%s after %.1fs", toString(e.status), e.seconds);
    if (e.testAccuracy >= 0)
        std::fprintf(out_, ": test accuracy %.2f%%", e.testAccuracy * 100.0);
    if (e.testAccuracyLast >= 0)
        std::fprintf(out_, " (best checkpoint; the last weights: %.2f%%)", e.testAccuracyLast * 100.0);
    if (e.bestValAccuracy >= 0)
        std::fprintf(out_, ", best val accuracy %.2f%%", e.bestValAccuracy * 100.0);
    if (e.samplesPerSec > 0)
        std::fprintf(out_, ", %.0f samples/s", e.samplesPerSec);
    std::fputc('\n', out_);
    std::fflush(out_);
}

} // namespace entrena::cli
