#include "entrena/data/Csv.h"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <system_error>

namespace entrena::csv {
namespace {

constexpr std::string_view kBom = "\xEF\xBB\xBF";

bool isBlank(char c, char separator)
{
    return (c == ' ' || c == '\t') && c != separator;
}

/// Parses one record of `text` from `at`, leaving `at` after its line break and counting the line
/// breaks it crosses into `line`. Returns false where a quoted field is still open at the end.
bool parseRecord(std::string_view text, size_t& at, int64_t& line, char separator, std::vector<std::string>& cells, bool& blank)
{
    cells.assign(1, std::string());
    blank = true;
    bool quoted = false;    // inside a quoted field
    bool wasQuoted = false; // the current cell was quoted: its inner spaces are kept
    std::string pending;    // spaces after an unquoted cell's text, kept only if more text follows
    for (; at < text.size(); ++at) {
        char c = text[at];
        if (c == '\r' && at + 1 < text.size() && text[at + 1] == '\n')
            c = text[++at]; // CRLF reads as LF, in quotes too
        if (quoted) {
            if (c == '"' && at + 1 < text.size() && text[at + 1] == '"') {
                cells.back() += '"';
                ++at;
            } else if (c == '"') {
                quoted = false;
            } else {
                line += c == '\n';
                cells.back() += c;
            }
            continue;
        }
        if (c == '\n') {
            ++at;
            ++line;
            return true;
        }
        if (c == separator) {
            cells.emplace_back();
            pending.clear();
            wasQuoted = false;
            blank = false;
        } else if (c == '"' && cells.back().empty() && pending.empty() && !wasQuoted) {
            quoted = wasQuoted = true;
            blank = false;
        } else if (isBlank(c, separator) || c == '\r') {
            if (!cells.back().empty() && !wasQuoted)
                pending += c;
        } else {
            // A quote inside an unquoted cell, or text after a closing quote: kept as written.
            cells.back() += pending;
            pending.clear();
            cells.back() += c;
            blank = false;
        }
    }
    return !quoted;
}

} // namespace

Reader::Reader(std::string text, std::string name)
    : text_(std::move(text))
    , name_(std::move(name))
{
    if (std::string_view(text_).substr(0, kBom.size()) == kBom)
        at_ = kBom.size();
    separator_ = detectSeparator(std::string_view(text_).substr(at_));
}

Reader Reader::fromFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw std::runtime_error("cannot open CSV file '" + path + "': " + std::strerror(errno));
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad())
        throw std::runtime_error("cannot read CSV file '" + path + "': " + std::strerror(errno));
    return Reader(std::move(text).str(), path);
}

bool Reader::next(Record& record)
{
    bool blank = true;
    while (at_ < text_.size()) {
        record.line = line_;
        if (!parseRecord(text_, at_, line_, separator_, record.cells, blank))
            throw std::runtime_error("CSV file '" + name_ + "', line " + std::to_string(record.line) +
                                     ": a quoted field opens there and is never closed (a \" missing at its end?)");
        if (!blank)
            return true;
    }
    record.cells.clear();
    return false;
}

char detectSeparator(std::string_view text)
{
    // The first record that is not blank, read as the reader reads any: a quote opens quoted text
    // only at a cell's start. A tab counts only between values: beside a ',' or ';' it is a comma
    // file's alignment, read as space.
    bool quoted = false, cellStart = true, semicolon = false, tab = false, content = false;
    char previous = '\n';
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"')
                ++i;
            else if (c == '"')
                quoted = false;
            continue;
        }
        if (c == '\n' || c == '\r') {
            if (content)
                break;
            continue; // a blank line before the first record
        }
        if (c == '"' && cellStart) {
            quoted = true;
            cellStart = false;
            content = true;
        } else if (c == ',' || c == ';') {
            semicolon |= c == ';';
            cellStart = content = true;
        } else if (c == '\t') {
            const char next = i + 1 < text.size() ? text[i + 1] : '\n';
            tab |= content && previous != ',' && previous != ';' && next != ',' && next != ';' && next != '\n' && next != '\r';
            cellStart = true;
        } else if (c != ' ') {
            cellStart = false;
            content = true;
        }
        if (c != ' ')
            previous = c;
    }
    return tab ? '\t' : semicolon ? ';' : ',';
}

std::vector<std::string> splitLine(std::string_view line, char* separator)
{
    const char sep = detectSeparator(line);
    if (separator)
        *separator = sep;
    std::vector<std::string> cells;
    size_t at = 0;
    int64_t lines = 1;
    bool blank = true;
    parseRecord(line, at, lines, sep, cells, blank);
    return cells;
}

bool number(std::string_view cell, double& value, bool decimalComma)
{
    std::string copy;
    if (decimalComma && cell.find(',') != std::string_view::npos) {
        copy = cell;
        copy[copy.find(',')] = '.';
        cell = copy;
    }
    const char* begin = cell.data();
    const char* end = cell.data() + cell.size();
    if (begin != end && *begin == '+') {
        ++begin;
        if (begin != end && *begin == '-')
            return false; // "+-1"
    }
    const auto [stop, error] = std::from_chars(begin, end, value);
    return begin != end && error == std::errc() && stop == end;
}

std::string field(std::string_view text, char separator)
{
    // ';' and tabs are quoted in any file, so that a reader's detection never takes them for its separator.
    const bool plain = text.find_first_of(std::string{separator, ',', ';', '\t', '"', '\r', '\n'}) == std::string_view::npos &&
                       (text.empty() || (!isBlank(text.front(), separator) && !isBlank(text.back(), separator)));
    if (plain)
        return std::string(text);
    std::string quoted = "\"";
    for (const char c : text)
        quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    return quoted + '"';
}

std::string line(const std::vector<std::string>& cells, char separator)
{
    if (cells.size() == 1 && cells.front().empty())
        return "\"\"\n"; // not a blank line, which the reader skips
    std::string text;
    for (size_t i = 0; i < cells.size(); ++i)
        text += (i ? std::string(1, separator) : std::string()) + field(cells[i], separator);
    return text + '\n';
}

} // namespace entrena::csv
