#pragma once
// Entrena's one CSV codec (RFC 4180): what every reader reads and every writer writes, so that what
// Entrena writes it reads back unchanged, but for a CRLF inside a cell, which reads back as LF
// (docs/configuration.md, "CSV tables"). No LibTorch here: the workbench's chart export writes
// through it too.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace entrena::csv {

/// One record: its cells, and the line of the file it starts on (1-based; a quoted line break
/// makes a record span several lines).
struct Record {
    std::vector<std::string> cells;
    int64_t line = 0;
};

/// Reads records from CSV text. Quoted fields may hold the separator, doubled quotes ("" for ")
/// and line breaks; a UTF-8 byte-order mark at the start is skipped; CRLF reads as LF, inside
/// quotes too (a Windows file's line breaks); spaces around an unquoted cell and outside a quoted
/// one are dropped; blank lines are skipped. The separator is the first record's: a tab when one
/// stands between values (beside a ',' or ';' it is alignment), else ';' when it holds one, else ','
/// (as a spreadsheet saves and copies them); with a tab or ';', a comma is the decimal mark
/// (number()), never a thousands separator.
class Reader {
public:
    /// `name` is how messages name the text (a file's path).
    Reader(std::string text, std::string name);
    /// The whole file at `path`; throws std::runtime_error naming it and the system's reason when
    /// it cannot be read.
    static Reader fromFile(const std::string& path);

    /// The next record into `record`; false at the end. Throws std::runtime_error naming the line
    /// where a quoted field opens that is never closed.
    bool next(Record& record);

    char separator() const { return separator_; }
    /// Whether numbers in this text may use a decimal comma (a tab or ';' separates the cells).
    bool decimalComma() const { return separator_ != ','; }

private:
    std::string text_;
    std::string name_;
    size_t at_ = 0;
    int64_t line_ = 1;
    char separator_ = ',';
};

/// The separator of a record that starts `text` (see Reader).
char detectSeparator(std::string_view text);

/// One line as the reader reads a record (a row a user typed or pasted), with its separator
/// detected; `separator`, when given, receives it. A quote left open ends the line.
std::vector<std::string> splitLine(std::string_view line, char* separator = nullptr);

/// The number a cell holds, read the same in every locale (std::from_chars, never LC_NUMERIC);
/// a leading '+' is accepted; with `decimalComma`, one ',' reads as the decimal point. False
/// when the cell is not exactly one number (NaN and infinities are numbers here: callers that
/// need finite values check).
bool number(std::string_view cell, double& value, bool decimalComma = false);

/// `text` as one field: quoted, with its quotes doubled, when it holds the separator, a comma, a
/// ';', a tab, a quote, a line break, or spaces at either end (which the reader would drop); else
/// as it is.
std::string field(std::string_view text, char separator = ',');

/// `cells` as one record, each a field(), ending in '\n'.
std::string line(const std::vector<std::string>& cells, char separator = ',');

} // namespace entrena::csv
