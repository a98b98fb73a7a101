#include "ProgressBar.h"

#include <algorithm>
#include <cstdlib>
#include <sys/ioctl.h>
#include <unistd.h>

namespace entrena::cli {

ProgressBar::ProgressBar(std::FILE* stream)
    : stream_(stream)
    , enabled_(isatty(fileno(stream)) != 0)
{
}

int ProgressBar::terminalColumns(int fd)
{
    winsize size{};
    if (ioctl(fd, TIOCGWINSZ, &size) == 0 && size.ws_col > 0)
        return size.ws_col;
    if (const char* columns = std::getenv("COLUMNS")) {
        const int n = std::atoi(columns);
        if (n > 0)
            return n;
    }
    return 80;
}

std::string ProgressBar::layout(double fraction, std::vector<std::string> fields, int columns)
{
    // The last column stays empty: writing into it makes some terminals wrap at once.
    const size_t room = size_t(std::max(columns - 1, 1));
    constexpr size_t kMaxBar = 30, kMinBar = 10;
    const bool withBar = fraction >= 0;
    char percent[8] = "";
    if (withBar)
        std::snprintf(percent, sizeof percent, "%3.0f%%", std::clamp(fraction, 0.0, 1.0) * 100.0);
    for (;;) {
        std::string text = percent;
        for (const auto& f : fields)
            text += (text.empty() ? "" : "  ") + f;
        if (!withBar) {
            if (text.size() <= room || fields.size() <= 1) {
                text.resize(std::min(text.size(), room));
                return text;
            }
            fields.pop_back();
            continue;
        }
        const size_t frame = 3; // "[", "]" and the space after it
        const size_t bar = room > text.size() + frame ? std::min(kMaxBar, room - text.size() - frame) : 0;
        if (bar >= kMinBar || fields.empty()) {
            if (bar < kMinBar) { // not even a short bar fits: the figures alone
                text.resize(std::min(text.size(), room));
                return text;
            }
            const size_t filled = size_t(std::clamp(fraction, 0.0, 1.0) * double(bar) + 0.5);
            return "[" + std::string(filled, '#') + std::string(bar - filled, '.') + "] " + text;
        }
        fields.pop_back();
    }
}

void ProgressBar::draw(double fraction, const std::vector<std::string>& fields)
{
    if (!enabled_)
        return;
    const std::string line = layout(fraction, fields, terminalColumns(fileno(stream_)));
    std::fprintf(stream_, "\r\033[K%s", line.c_str());
    std::fflush(stream_);
    shown_ = true;
}

void ProgressBar::clear()
{
    if (!shown_)
        return;
    std::fputs("\r\033[K", stream_);
    std::fflush(stream_);
    shown_ = false;
}

} // namespace entrena::cli
