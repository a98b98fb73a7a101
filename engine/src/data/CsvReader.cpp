#include "data/CsvReader.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
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

bool isFiniteNumber(const std::string& cell, double& value)
{
    return parseNumber(cell, value) && std::isfinite(value);
}

/// A label cell as read, kept until the whole column is known: whether the labels are class
/// numbers or names is decided by all of them, not by the first row.
struct LabelCell {
    std::string text;
    size_t row;
};

/// Turns the label cells into class indices. `train` is the training file's table when this is
/// its test file (its mapping is used), or null for a training file.
std::vector<int64_t> mapLabels(const std::string& path, const std::string& column, const std::vector<LabelCell>& cells,
                               const CsvTable* train, const std::string& trainPath, std::vector<std::string>& classes)
{
    const std::string where = "CSV file '" + path + "', row ";
    const LabelCell* firstNumber = nullptr;
    const LabelCell* firstName = nullptr;
    for (const LabelCell& c : cells) {
        if (c.text.empty())
            throw std::runtime_error(where + std::to_string(c.row) + ", column " + column + ": the label is empty");
        double v = 0;
        const LabelCell*& first = isFiniteNumber(c.text, v) ? firstNumber : firstName;
        if (!first)
            first = &c;
    }

    std::vector<int64_t> labels;
    labels.reserve(cells.size());
    if (train && !train->classes.empty()) {
        // The training file named its classes: every test label is looked up by name, digits included.
        for (const LabelCell& c : cells) {
            const auto at = std::lower_bound(train->classes.begin(), train->classes.end(), c.text);
            if (at == train->classes.end() || *at != c.text) {
                std::string known;
                for (size_t i = 0; i < train->classes.size() && i < 10; ++i)
                    known += (i ? ", '" : "'") + train->classes[i] + "'";
                if (train->classes.size() > 10)
                    known += ", …";
                throw std::runtime_error(where + std::to_string(c.row) + ", column " + column + ": the class '" + c.text +
                                         "' does not occur in the training file '" + trainPath + "' (its classes: " + known +
                                         "); a model cannot be tested on a class it was not trained on");
            }
            labels.push_back(int64_t(at - train->classes.begin()));
        }
        classes = train->classes;
        return labels;
    }
    if (firstName && firstNumber && !train)
        throw std::runtime_error("CSV file '" + path + "', column " + column + ": row " + std::to_string(firstName->row) +
                                 " names the class '" + firstName->text + "' but row " + std::to_string(firstNumber->row) +
                                 " gives the number '" + firstNumber->text +
                                 "'; labels must be all class numbers (0, 1, 2, …) or all class names");
    if (firstName && train)
        throw std::runtime_error(where + std::to_string(firstName->row) + ", column " + column + ": '" + firstName->text +
                                 "' is a class name, but the training file '" + trainPath +
                                 "' gives its labels as class numbers (0, 1, 2, …); use the same kind of label in both");
    if (firstName) {
        // Names: the classes are the distinct names in bytewise order (as image folders sort theirs).
        std::map<std::string, int64_t> index;
        for (const LabelCell& c : cells)
            index.emplace(c.text, 0);
        int64_t next = 0;
        for (auto& [name, i] : index) {
            i = next++;
            classes.push_back(name);
        }
        for (const LabelCell& c : cells)
            labels.push_back(index[c.text]);
        return labels;
    }
    for (const LabelCell& c : cells) {
        double v = 0;
        isFiniteNumber(c.text, v);
        if (v < 0 || v != std::floor(v) || v > 1e6)
            throw std::runtime_error(where + std::to_string(c.row) + ", column " + column + ": the label '" + c.text +
                                     "' is not a class number (0, 1, 2, …)");
        labels.push_back(int64_t(v));
    }
    return labels;
}

CsvTable readTable(const std::string& path, const std::string& labelColumn, bool header, const CsvTable* train,
                   const std::string& trainPath)
{
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        throw std::runtime_error("'" + path + "' is a folder; data.path of a CSV table names the CSV file itself");
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
    const auto columnName = [&](size_t c) { return names.empty() ? std::to_string(c + 1) : "'" + names[c] + "'"; };

    std::vector<float> features;
    std::vector<LabelCell> labelCells;
    std::vector<int64_t> lines;
    while (std::getline(in, line)) {
        ++row;
        if (line.find_first_not_of(" \t\r") == std::string::npos)
            continue; // blank lines are allowed
        auto cells = splitRow(line);
        if (columns == 0)
            columns = cells.size();
        if (cells.size() != columns)
            throw std::runtime_error("CSV file '" + path + "', row " + std::to_string(row) + ": " + std::to_string(cells.size()) +
                                     " cells, but " + std::to_string(columns) + " are expected (a ragged row)");
        if (labelIndex >= long(columns))
            throw std::runtime_error("CSV file '" + path + "' has " + std::to_string(columns) + " columns; data.label_column " +
                                     std::to_string(labelIndex) + " is not one of them");
        for (size_t c = 0; c < cells.size(); ++c) {
            if (long(c) == labelIndex) {
                labelCells.push_back({std::move(cells[c]), row});
                continue;
            }
            double v = 0;
            if (!isFiniteNumber(cells[c], v))
                throw std::runtime_error("CSV file '" + path + "', row " + std::to_string(row) + ", column " + columnName(c) +
                                         ": '" + cells[c] + "' is not a number");
            features.push_back(float(v));
        }
        lines.push_back(int64_t(row));
    }
    if (labelCells.empty())
        throw std::runtime_error("CSV file '" + path + "' has no data rows");
    CsvTable t;
    std::vector<int64_t> labels = mapLabels(path, columnName(size_t(labelIndex)), labelCells, train, trainPath, t.classes);
    const int64_t n = int64_t(labels.size());
    t.features = torch::from_blob(features.data(), {n, int64_t(columns) - 1}, torch::kFloat32).clone();
    t.labels = torch::from_blob(labels.data(), {n}, torch::kInt64).clone();
    for (size_t c = 0; c < names.size(); ++c)
        if (long(c) != labelIndex)
            t.featureNames.push_back(names[c]);
    t.lines = std::move(lines);
    return t;
}

std::string quotedList(const std::vector<std::string>& names)
{
    std::string text;
    for (size_t i = 0; i < names.size() && i < 12; ++i)
        text += (i ? ", '" : "'") + names[i] + "'";
    if (names.size() > 12)
        text += ", … (" + std::to_string(names.size()) + " in all)";
    return text;
}

} // namespace

TableToPredict readTableToPredict(const std::string& path, const std::vector<std::string>& columns, int64_t featureCount,
                                  const std::string& labelColumn, bool header)
{
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        throw std::invalid_argument("'" + path + "' is a folder, not a CSV table");
    std::ifstream in(path);
    if (!in)
        throw std::runtime_error("cannot open CSV file '" + path + "': " + std::strerror(errno));
    std::string line;
    int64_t lineNo = 0;
    // Where each of the model's features is in this file, and where its label is (-1: none).
    std::vector<size_t> at;
    long labelIndex = -1;
    size_t width = 0;
    if (header) {
        if (!std::getline(in, line))
            throw std::invalid_argument("CSV file '" + path + "' is empty");
        ++lineNo;
        const auto names = splitRow(line);
        width = names.size();
        std::map<std::string, size_t> index;
        for (size_t i = 0; i < names.size(); ++i)
            index.emplace(names[i], i);
        if (const auto l = index.find(labelColumn); l != index.end())
            labelIndex = long(l->second);
        const std::set<std::string> known(columns.begin(), columns.end());
        if (labelIndex < 0 && !columns.empty()) {
            // Trained with data.label_column as a 0-based index: the label is that column when its
            // header is not one of the model's features.
            char* end = nullptr;
            const long i = std::strtol(labelColumn.c_str(), &end, 10);
            if (end != labelColumn.c_str() && *end == '\0' && i >= 0 && i < long(names.size()) && !known.count(names[size_t(i)]))
                labelIndex = i;
        }
        std::vector<std::string> missing, extra;
        if (!columns.empty()) {
            for (const auto& c : columns) {
                const auto found = index.find(c);
                if (found == index.end())
                    missing.push_back(c);
                else
                    at.push_back(found->second);
            }
            for (size_t i = 0; i < names.size(); ++i)
                if (long(i) != labelIndex && !known.count(names[i]))
                    extra.push_back(names[i]);
        } else {
            for (size_t i = 0; i < names.size(); ++i)
                if (long(i) != labelIndex)
                    at.push_back(i);
            if (int64_t(at.size()) != featureCount)
                throw std::invalid_argument("CSV file '" + path + "' has " + std::to_string(at.size()) +
                                            " feature columns; the model takes " + std::to_string(featureCount));
        }
        if (!missing.empty() || !extra.empty())
            throw std::invalid_argument(
                "CSV file '" + path +
                "' does not have the model's columns: " + (missing.empty() ? std::string() : "missing " + quotedList(missing)) +
                (!missing.empty() && !extra.empty() ? "; " : "") +
                (extra.empty() ? std::string() : "not known to the model " + quotedList(extra)) + ". The model was trained on " +
                quotedList(columns) + (labelColumn.empty() ? "" : " (and the label '" + labelColumn + "')") +
                "; give a table with those columns, in any order");
    }
    std::vector<float> features;
    TableToPredict t;
    while (std::getline(in, line)) {
        ++lineNo;
        if (line.find_first_not_of(" \t\r") == std::string::npos)
            continue;
        auto cells = splitRow(line);
        if (!header && at.empty()) {
            // No names: the model's features by position, with the label column where it trained.
            width = cells.size();
            char* end = nullptr;
            const long index = std::strtol(labelColumn.c_str(), &end, 10);
            const bool hasLabel = int64_t(width) == featureCount + 1 && end != labelColumn.c_str() && *end == '\0' &&
                                  index >= 0 && index < long(width);
            if (int64_t(width) != featureCount && !hasLabel)
                throw std::invalid_argument("CSV file '" + path + "' has " + std::to_string(width) +
                                            " columns; the model takes " + std::to_string(featureCount) + " features (or " +
                                            std::to_string(featureCount + 1) + " columns with the label at column " +
                                            labelColumn + ")");
            labelIndex = hasLabel ? index : -1;
            for (size_t i = 0; i < width; ++i)
                if (long(i) != labelIndex)
                    at.push_back(i);
        }
        if (cells.size() != width) {
            t.skipped.push_back(
                {lineNo, std::to_string(cells.size()) + " cells, but " + std::to_string(width) + " are expected"});
            continue;
        }
        std::string problem;
        const size_t before = features.size();
        for (const size_t c : at) {
            double v = 0;
            if (!isFiniteNumber(cells[c], v)) {
                problem = "'" + cells[c] + "' is not a number";
                break;
            }
            features.push_back(float(v));
        }
        if (!problem.empty()) {
            features.resize(before);
            t.skipped.push_back({lineNo, problem});
            continue;
        }
        t.lines.push_back(lineNo);
        if (labelIndex >= 0)
            t.labels.push_back(cells[size_t(labelIndex)]);
    }
    const int64_t n = int64_t(t.lines.size());
    t.features = torch::from_blob(features.data(), {n, int64_t(at.size())}, torch::kFloat32).clone();
    return t;
}

CsvTable readCsv(const std::string& path, const std::string& labelColumn, bool header)
{
    return readTable(path, labelColumn, header, nullptr, std::string());
}

CsvPair readCsvPair(const std::string& trainPath, const std::string& testPath, const std::string& labelColumn, bool header)
{
    CsvPair p;
    p.train = readTable(trainPath, labelColumn, header, nullptr, std::string());
    if (testPath.empty())
        return p; // no test file: an empty test table
    p.test = readTable(testPath, labelColumn, header, &p.train, trainPath);
    if (p.test.features.size(1) != p.train.features.size(1))
        throw std::runtime_error("the test CSV '" + testPath + "' has " + std::to_string(p.test.features.size(1)) +
                                 " feature columns, the training CSV " + std::to_string(p.train.features.size(1)));
    return p;
}

} // namespace entrena
