#include "RunTableModel.h"

#include "ConfigFlatten.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>

#include <algorithm>

namespace entrena::app {

RunTableModel::RunTableModel(QObject* parent) : QAbstractTableModel(parent) {}

RunTableModel::~RunTableModel() = default;

QString RunTableModel::open(const QString& dbPath)
{
    beginResetModel();
    runs_.clear();
    summaries_.clear();
    store_.reset();
    QString error;
    try {
        store_ = std::make_unique<RunStore>(dbPath.toStdString());
    } catch (const std::exception& e) {
        error = QString::fromStdString(e.what());
    }
    endResetModel();
    refresh();
    return error;
}

void RunTableModel::refresh()
{
    if (!store_)
        return;
    std::vector<RunRecord> runs;
    try {
        runs = store_->listRuns();
    } catch (const std::exception&) {
        return; // keep showing what was there; the next refresh tries again
    }
    std::map<int64_t, std::vector<std::string>> tags;
    try {
        tags = store_->tagsByRun();
    } catch (const std::exception&) {
    }
    beginResetModel();
    runs_ = std::move(runs);
    summaries_.clear();
    for (const auto& r : runs_) {
        const QJsonObject config = QJsonDocument::fromJson(QByteArray::fromStdString(r.configJson)).object();
        auto field = [&](const char* section, const char* key) {
            return config.value(QLatin1String(section)).toObject().value(QLatin1String(key)).toString();
        };
        Summary s;
        s.dataset = field("data", "dataset");
        s.model = field("model", "arch");
        s.optimizer = field("optimizer", "name");
        s.scheduler = field("scheduler", "name");
        for (const auto& t : tags[r.id])
            s.tags << QString::fromStdString(t);
        for (const auto& [key, value] : flattenConfig(QString::fromStdString(r.configJson)))
            s.parameters.insert(key, value);
        summaries_.push_back(std::move(s));
    }
    endResetModel();
}

int RunTableModel::rowOf(int64_t runId) const
{
    for (std::size_t i = 0; i < runs_.size(); ++i)
        if (runs_[i].id == runId)
            return int(i);
    return -1;
}

bool RunTableModel::anyRunning() const
{
    return std::any_of(runs_.begin(), runs_.end(), [](const RunRecord& r) { return r.status == RunStatus::Running; });
}

void RunTableModel::setParameterColumns(const QStringList& keys)
{
    beginResetModel();
    parameterKeys_ = keys;
    endResetModel();
}

QStringList RunTableModel::availableParameters() const
{
    QStringList keys;
    for (const Summary& s : summaries_)
        for (auto it = s.parameters.begin(); it != s.parameters.end(); ++it)
            if (!keys.contains(it.key()))
                keys << it.key();
    keys.sort();
    return keys;
}

QStringList RunTableModel::allTags() const
{
    QStringList tags;
    for (const Summary& s : summaries_)
        for (const QString& t : s.tags)
            if (!tags.contains(t))
                tags << t;
    tags.sort(Qt::CaseInsensitive);
    return tags;
}

const RunRecord* RunTableModel::runAt(int row) const
{
    return row >= 0 && size_t(row) < runs_.size() ? &runs_[size_t(row)] : nullptr;
}

int RunTableModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(runs_.size()); }

int RunTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount + int(parameterKeys_.size());
}

QString RunTableModel::statusText(RunStatus status)
{
    switch (status) {
    case RunStatus::Running: return tr("running");
    case RunStatus::Finished: return tr("finished");
    case RunStatus::Stopped: return tr("stopped");
    case RunStatus::Failed: return tr("failed");
    case RunStatus::Diverged: return tr("diverged");
    case RunStatus::Interrupted: return tr("interrupted");
    }
    return {};
}

QVariant RunTableModel::data(const QModelIndex& index, int role) const
{
    const RunRecord* r = runAt(index.row());
    if (!r)
        return {};
    const Summary& s = summaries_[size_t(index.row())];
    const int column = index.column();
    const QLocale locale;
    if (role == Qt::ToolTipRole && !r->error.empty())
        return QString::fromStdString(r->error);
    if (role == Qt::UserRole)
        return QString::fromLatin1(toString(r->status)); // untranslated, for filtering
    if (role == Qt::UserRole + 1)
        return s.tags; // for filtering by tag
    if (column >= ColumnCount) {
        if (role != Qt::DisplayRole && role != Qt::EditRole)
            return {};
        const QString value = s.parameters.value(parameterKeys_.value(column - ColumnCount));
        bool numeric = false;
        const double number = value.toDouble(&numeric);
        return role == Qt::EditRole && numeric ? QVariant(number) : QVariant(value); // numbers sort as numbers
    }
    const bool text = column == Name || column == Status || column == Dataset || column == Model || column == Optimizer ||
                      column == Scheduler || column == Tags || column == Created;
    if (role == Qt::TextAlignmentRole && !text)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && role != Qt::EditRole)
        return {};
    // EditRole is the sort key: numbers as numbers (a missing value sorts first).
    const bool display = role == Qt::DisplayRole;
    auto number = [&](const std::optional<double>& v, double scale, int decimals, const QString& suffix) -> QVariant {
        if (!v)
            return display ? QVariant() : QVariant(-1.0);
        return display ? QVariant(locale.toString(*v * scale, 'f', decimals) + suffix) : QVariant(*v * scale);
    };
    switch (column) {
    case Id: return qlonglong(r->id);
    case Name: return QString::fromStdString(r->name);
    case Status: return statusText(r->status);
    case Dataset: return s.dataset;
    case Model: return s.model;
    case Optimizer: return s.optimizer;
    case Scheduler: return s.scheduler;
    case BestValAccuracy: return number(r->bestValAccuracy, 100.0, 2, QStringLiteral("%"));
    case TestAccuracy: return number(r->testAccuracy, 100.0, 2, QStringLiteral("%"));
    case FinalLoss: return number(r->finalTrainLoss, 1.0, 4, QString());
    case Duration: return number(r->seconds, 1.0, 1, QStringLiteral(" s"));
    case SamplesPerSec: return number(r->samplesPerSec, 1.0, 0, QString());
    case PeakMemory: return number(r->peakMemoryBytes, 1.0 / (1024.0 * 1024.0), 0, QStringLiteral(" MiB"));
    case Tags: return s.tags.join(QStringLiteral(", "));
    case Created: return QString::fromStdString(r->created).replace(QLatin1Char('T'), QLatin1Char(' ')).left(19);
    }
    return {};
}

QVariant RunTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Id: return tr("ID");
    case Name: return tr("Name");
    case Status: return tr("Status");
    case Dataset: return tr("Data set");
    case Model: return tr("Model");
    case Optimizer: return tr("Optimizer");
    case Scheduler: return tr("Scheduler");
    case BestValAccuracy: return tr("Best val. accuracy");
    case TestAccuracy: return tr("Test accuracy");
    case FinalLoss: return tr("Final loss");
    case Duration: return tr("Duration");
    case SamplesPerSec: return tr("Samples/s");
    case PeakMemory: return tr("Peak memory");
    case Tags: return tr("Tags");
    case Created: return tr("Created");
    }
    return parameterKeys_.value(section - ColumnCount);
}

} // namespace entrena::app
