#pragma once

#include <cstdio>
#include <string>
#include <vector>

namespace entrena::cli {

/// One line of progress on a terminal, redrawn in place: `[####......]  42%  field  field …`.
/// It is drawn only when its stream is a terminal, and never as wide as the terminal (a line that
/// wraps cannot be redrawn, and old bars would pile up): the fields at the end of the list are
/// dropped first, then the bar narrows. clear() before writing anything else to the terminal.
class ProgressBar {
public:
    explicit ProgressBar(std::FILE* stream = stderr);
    bool enabled() const { return enabled_; }
    /// `fraction` in [0, 1], or below 0 for no bar (only the fields, e.g. while searching).
    void draw(double fraction, const std::vector<std::string>& fields);
    void clear();

    /// The line draw() writes for a terminal `columns` wide (without the carriage return).
    static std::string layout(double fraction, std::vector<std::string> fields, int columns);
    /// The width of the terminal behind `fd` ($COLUMNS, then 80, when it cannot be asked).
    static int terminalColumns(int fd);

private:
    std::FILE* stream_;
    bool enabled_;
    bool shown_ = false;
};

/// printf-style text for one field of a bar ("loss %.4f"); fields are short.
template <typename... Args> std::string format(const char* pattern, Args... args)
{
    char text[96];
    std::snprintf(text, sizeof text, pattern, args...);
    return text;
}

} // namespace entrena::cli
