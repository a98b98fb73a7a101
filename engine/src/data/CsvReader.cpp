#include "data/CsvReader.h"

#include <charconv>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <vector>

namespace entrena {
namespace {

std::vector<std::string> splitRow(const std::string& line)
{
    std::vector<std::string> cells;
    std::string cell;
    bool quoted = false;
    for (char ch : line) {
        if (ch == '"') {
            quoted = !quoted;
        } else if (ch == ',' && !quoted) {
            cells.push_back(cell);
            cell.clear();
        } else if (ch != '\r') {
            cell += ch;
        }
    }
    cells.push_back(cell);
    for (auto& c : cells) {
        const auto b = c.find_first_not_of(" \t");
        const auto e = c.find_last_not_of(" \t");
        c = b == std::string::npos ? std::string() : c.substr(b, e - b + 1);
    }
    return cells;
}

/// The number a cell holds, read the same way in every locale: strtod follows LC_NUMERIC, which
/// Qt sets from the system, so under es_ES the GUI refused "0.5" as not a number (and would have
/// read "0,5" as 0). A leading '+' is accepted, as strtod did.
bool parseNumber(const std::string& cell, double& value)
{
    const char* begin = cell.data();
    const char* end = cell.data() + cell.size();
    if (begin != end && *begin == '+') {
        ++begin;
        if (begin != end && *begin == '-')
            return false; // "+-1"
    }
    const auto [at, error] = std::from_chars(begin, end, value);
    return error == std::errc() && at == end;
}

} // namespace

CsvTable readCsv(const std::string& path, const std::string& labelColumn, bool header)
{
    std::ifstream in(path);
    if (!in)
        throw std::runtime_error("cannot open CSV file '" + path + "': " + std::strerror(errno) + "; check data.path");
    std::string line;
    size_t row = 0;
    std::vector<std::string> names;
    size_t columns = 0;
    long labelIndex = -1;
    if (header) {
        if (!std::getline(in, line))
            throw std::runtime_error("CSV file '" + path + "' is empty");
        ++row;
        names = splitRow(line);
        columns = names.size();
        for (size_t i = 0; i < names.size(); ++i) {
            if (names[i] == labelColumn)
                labelIndex = long(i);
        }
    }
    if (labelIndex < 0) {
        char* end = nullptr;
        const long index = std::strtol(labelColumn.c_str(), &end, 10);
        if (end == labelColumn.c_str() || *end != '\0')
            throw std::runtime_error("CSV file '" + path + "' has no column named '" + labelColumn +
                                     "'; set data.label_column to a header name or a 0-based column index");
        labelIndex = index;
    }

    std::vector<float> features;
    std::vector<int64_t> labels;
    while (std::getline(in, line)) {
        ++row;
        if (line.find_first_not_of(" \t\r") == std::string::npos)
            continue; // blank lines are allowed
        const auto cells = splitRow(line);
        if (columns == 0)
            columns = cells.size();
        if (cells.size() != columns)
            throw std::runtime_error("CSV file '" + path + "', row " + std::to_string(row) + ": " +
                                     std::to_string(cells.size()) + " cells, but " + std::to_string(columns) +
                                     " are expected (a ragged row)");
        if (labelIndex >= long(columns))
            throw std::runtime_error("CSV file '" + path + "' has " + std::to_string(columns) +
                                     " columns; data.label_column " + std::to_string(labelIndex) + " is not one of them");
        for (size_t c = 0; c < cells.size(); ++c) {
            const std::string& cell = cells[c];
            double v = 0;
            const bool number = parseNumber(cell, v);
            const std::string columnName = names.empty() ? std::to_string(c + 1) : "'" + names[c] + "'";
            if (!number || !std::isfinite(v))
                throw std::runtime_error("CSV file '" + path + "', row " + std::to_string(row) + ", column " +
                                         columnName + ": '" + cell + "' is not a number");
            if (long(c) == labelIndex) {
                if (v < 0 || v != std::floor(v) || v > 1e6)
                    throw std::runtime_error("CSV file '" + path + "', row " + std::to_string(row) + ", column " +
                                             columnName + ": the label '" + cell +
                                             "' is not a class number (0, 1, 2, …)");
                labels.push_back(int64_t(v));
            } else {
                features.push_back(float(v));
            }
        }
    }
    if (labels.empty())
        throw std::runtime_error("CSV file '" + path + "' has no data rows");
    const int64_t n = int64_t(labels.size());
    CsvTable t;
    t.features = torch::from_blob(features.data(), {n, int64_t(columns) - 1}, torch::kFloat32).clone();
    t.labels = torch::from_blob(labels.data(), {n}, torch::kInt64).clone();
    return t;
}

} // namespace entrena
