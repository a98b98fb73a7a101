#include "data/CsvReader.h"

#include "entrena/data/Csv.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>
#include <stdexcept>
#include <vector>

namespace entrena {
namespace {

bool isFiniteNumber(const std::string& cell, double& value, bool decimalComma)
{
    return csv::number(cell, value, decimalComma) && std::isfinite(value);
}

/// A label cell as read, kept until the whole column is known: whether the labels are class
/// numbers or names is decided by all of them, not by the first row.
struct LabelCell {
    std::string text;
    int64_t row;
    bool decimalComma; ///< its file separates cells with ';' or tabs
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
        const LabelCell*& first = isFiniteNumber(c.text, v, c.decimalComma) ? firstNumber : firstName;
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
        isFiniteNumber(c.text, v, c.decimalComma);
        if (v < 0 || v != std::floor(v) || v > 1e6)
            throw std::runtime_error(where + std::to_string(c.row) + ", column " + column + ": the label '" + c.text +
                                     "' is not a class number (0, 1, 2, …)");
        labels.push_back(int64_t(v));
    }
    return labels;
}

/// The file's records. `folder` ends the message for a folder given as the file, `unreadable`
/// the system's reason when the file cannot be read.
csv::Reader openTable(const std::string& path, const std::string& folder, const std::string& unreadable)
{
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        throw std::invalid_argument("'" + path + "' is a folder" + folder);
    try {
        return csv::Reader::fromFile(path);
    } catch (const std::runtime_error& e) {
        throw std::runtime_error(e.what() + unreadable);
    }
}

/// The label column's index among `names` (the header) or, failing that, `labelColumn` read as a
/// 0-based index; -1 when it is neither.
long labelIndexOf(const std::vector<std::string>& names, const std::string& labelColumn)
{
    for (size_t i = 0; i < names.size(); ++i)
        if (names[i] == labelColumn)
            return long(i);
    char* end = nullptr;
    const long index = std::strtol(labelColumn.c_str(), &end, 10);
    return end == labelColumn.c_str() || *end != '\0' ? -1 : index;
}

CsvTable readTable(const std::string& path, const std::string& labelColumn, bool header, const CsvTable* train,
                   const std::string& trainPath)
{
    csv::Reader in = [&] {
        try {
            return openTable(path, "; data.path of a CSV table names the CSV file itself", "; check data.path");
        } catch (const std::invalid_argument& e) {
            throw std::runtime_error(e.what());
        }
    }();
    csv::Record record;
    std::vector<std::string> names;
    size_t columns = 0;
    if (header) {
        if (!in.next(record))
            throw std::runtime_error("CSV file '" + path + "' is empty");
        names = record.cells;
        columns = names.size();
    }
    const long labelIndex = labelIndexOf(names, labelColumn);
    if (labelIndex < 0)
        throw std::runtime_error("CSV file '" + path + "' has no column named '" + labelColumn +
                                 "'; set data.label_column to a header name or a 0-based column index");
    const auto columnName = [&](size_t c) { return names.empty() ? std::to_string(c + 1) : "'" + names[c] + "'"; };
    const auto where = [&](int64_t row) { return "CSV file '" + path + "', row " + std::to_string(row); };

    std::vector<float> features;
    std::vector<LabelCell> labelCells;
    std::vector<int64_t> lines;
    while (in.next(record)) {
        auto& cells = record.cells;
        if (columns == 0)
            columns = cells.size();
        if (cells.size() != columns)
            throw std::runtime_error(where(record.line) + ": " + std::to_string(cells.size()) + " cells, but " +
                                     std::to_string(columns) + " are expected (a ragged row)");
        if (labelIndex >= long(columns))
            throw std::runtime_error("CSV file '" + path + "' has " + std::to_string(columns) + " columns; data.label_column " +
                                     std::to_string(labelIndex) + " is not one of them");
        for (size_t c = 0; c < cells.size(); ++c) {
            if (long(c) == labelIndex) {
                labelCells.push_back({std::move(cells[c]), record.line, in.decimalComma()});
                continue;
            }
            double v = 0;
            if (!isFiniteNumber(cells[c], v, in.decimalComma()))
                throw std::runtime_error(where(record.line) + ", column " + columnName(c) + ": '" + cells[c] +
                                         "' is not a number");
            features.push_back(float(v));
        }
        lines.push_back(record.line);
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

/// Where a table to predict holds each of the model's features, and its label (-1: none).
struct Layout {
    std::vector<size_t> at;
    long labelIndex = -1;
    size_t width = 0;
};

/// The layout from a header row: the model's columns found by name (the label too, by name or,
/// when the model trained with an index, at that index unless it names a feature).
Layout layoutByName(const std::string& path, const std::vector<std::string>& names, const std::vector<std::string>& columns,
                    int64_t featureCount, const std::string& labelColumn)
{
    Layout l;
    l.width = names.size();
    const std::set<std::string> known(columns.begin(), columns.end());
    // Trained with data.label_column as a 0-based index: the label is that column when its header
    // is not one of the model's features.
    const long label = labelIndexOf(names, labelColumn);
    const bool inRange = label >= 0 && label < long(names.size());
    const bool byName = inRange && names[size_t(label)] == labelColumn;
    const bool byIndex = inRange && !byName && !columns.empty() && !known.count(names[size_t(label)]);
    l.labelIndex = byName || byIndex ? label : -1;
    if (columns.empty()) {
        for (size_t i = 0; i < names.size(); ++i)
            if (long(i) != l.labelIndex)
                l.at.push_back(i);
        if (int64_t(l.at.size()) != featureCount)
            throw std::invalid_argument("CSV file '" + path + "' has " + std::to_string(l.at.size()) +
                                        " feature columns; the model takes " + std::to_string(featureCount));
        return l;
    }
    std::map<std::string, size_t> index;
    for (size_t i = 0; i < names.size(); ++i)
        index.emplace(names[i], i);
    std::vector<std::string> missing, extra;
    for (const auto& c : columns) {
        const auto found = index.find(c);
        if (found == index.end())
            missing.push_back(c);
        else
            l.at.push_back(found->second);
    }
    for (size_t i = 0; i < names.size(); ++i)
        if (long(i) != l.labelIndex && !known.count(names[i]))
            extra.push_back(names[i]);
    if (!missing.empty() || !extra.empty())
        throw std::invalid_argument(
            "CSV file '" + path +
            "' does not have the model's columns: " + (missing.empty() ? std::string() : "missing " + quotedList(missing)) +
            (!missing.empty() && !extra.empty() ? "; " : "") +
            (extra.empty() ? std::string() : "not known to the model " + quotedList(extra)) + ". The model was trained on " +
            quotedList(columns) + (labelColumn.empty() ? "" : " (and the label '" + labelColumn + "')") +
            "; give a table with those columns, in any order");
    return l;
}

/// The layout of a table without names: the model's features by position, with the label column
/// where it trained when the row is one wider.
Layout layoutByPosition(const std::string& path, size_t width, int64_t featureCount, const std::string& labelColumn)
{
    Layout l;
    l.width = width;
    char* end = nullptr;
    const long index = std::strtol(labelColumn.c_str(), &end, 10);
    const bool hasLabel = int64_t(width) == featureCount + 1 && end != labelColumn.c_str() && *end == '\0' && index >= 0 &&
                          index < long(width);
    if (int64_t(width) != featureCount && !hasLabel)
        throw std::invalid_argument("CSV file '" + path + "' has " + std::to_string(width) + " columns; the model takes " +
                                    std::to_string(featureCount) + " features (or " + std::to_string(featureCount + 1) +
                                    " columns with the label at column " + labelColumn + ")");
    l.labelIndex = hasLabel ? index : -1;
    for (size_t i = 0; i < width; ++i)
        if (long(i) != l.labelIndex)
            l.at.push_back(i);
    return l;
}

} // namespace

TableToPredict readTableToPredict(const std::string& path, const std::vector<std::string>& columns, int64_t featureCount,
                                  const std::string& labelColumn, bool header)
{
    csv::Reader in = openTable(path, ", not a CSV table", "");
    csv::Record record;
    Layout layout;
    if (header) {
        if (!in.next(record))
            throw std::invalid_argument("CSV file '" + path + "' is empty");
        layout = layoutByName(path, record.cells, columns, featureCount, labelColumn);
    }
    std::vector<float> features;
    TableToPredict t;
    t.decimalComma = in.decimalComma();
    while (in.next(record)) {
        const auto& cells = record.cells;
        if (!header && layout.at.empty())
            layout = layoutByPosition(path, cells.size(), featureCount, labelColumn);
        if (cells.size() != layout.width) {
            t.skipped.push_back({record.line, std::to_string(cells.size()) + " cells, but " + std::to_string(layout.width) +
                                                  " are expected"});
            continue;
        }
        const size_t before = features.size();
        for (const size_t c : layout.at) {
            double v = 0;
            if (!isFiniteNumber(cells[c], v, in.decimalComma())) {
                t.skipped.push_back({record.line, "'" + cells[c] + "' is not a number"});
                break;
            }
            features.push_back(float(v));
        }
        if (features.size() - before != layout.at.size()) {
            features.resize(before);
            continue;
        }
        t.lines.push_back(record.line);
        if (layout.labelIndex >= 0)
            t.labels.push_back(cells[size_t(layout.labelIndex)]);
    }
    const int64_t n = int64_t(t.lines.size());
    t.features = torch::from_blob(features.data(), {n, int64_t(layout.at.size())}, torch::kFloat32).clone();
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
