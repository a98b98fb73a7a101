#include "RunTableModel.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>

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
    beginResetModel();
    runs_ = std::move(runs);
    summaries_.clear();
    for (const auto& r : runs_) {
        const QJsonObject config = QJsonDocument::fromJson(QByteArray::fromStdString(r.configJson)).object();
        QStringList tags;
        for (const auto& t : store_->tags(r.id))
            tags << QString::fromStdString(t);
        summaries_.push_back({config.value(QStringLiteral("model")).toObject().value(QStringLiteral("arch")).toString(),
                              config.value(QStringLiteral("optimizer")).toObject().value(QStringLiteral("name")).toString(),
                              tags.join(QStringLiteral(", "))});
    }
    endResetModel();
}

const RunRecord* RunTableModel::runAt(int row) const
{
    return row >= 0 && size_t(row) < runs_.size() ? &runs_[size_t(row)] : nullptr;
}

int RunTableModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(runs_.size()); }

int RunTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

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
    const auto& s = summaries_[size_t(index.row())];
    const QLocale locale;
    auto percent = [&](const std::optional<double>& v) -> QVariant {
        return v ? QVariant(locale.toString(*v * 100.0, 'f', 2) + QLatin1Char('%')) : QVariant();
    };
    if (role == Qt::ToolTipRole && !r->error.empty())
        return QString::fromStdString(r->error);
    if (role == Qt::TextAlignmentRole && index.column() != Name && index.column() != Status &&
        index.column() != Created && index.column() != Model && index.column() != Optimizer && index.column() != Tags)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::UserRole)
        return QString::fromLatin1(toString(r->status)); // untranslated, for filtering
    if (role != Qt::DisplayRole && role != Qt::EditRole)
        return {};
    switch (index.column()) {
    case Id: return qlonglong(r->id);
    case Name: return QString::fromStdString(r->name);
    case Status: return statusText(r->status);
    case Model: return s.model;
    case Optimizer: return s.optimizer;
    case BestValAccuracy: return percent(r->bestValAccuracy);
    case TestAccuracy: return percent(r->testAccuracy);
    case SamplesPerSec: return r->samplesPerSec ? QVariant(locale.toString(*r->samplesPerSec, 'f', 0)) : QVariant();
    case Duration:
        return r->seconds ? QVariant(tr("%1 s").arg(locale.toString(*r->seconds, 'f', 1))) : QVariant();
    case Tags: return s.tags;
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
    case Model: return tr("Model");
    case Optimizer: return tr("Optimizer");
    case BestValAccuracy: return tr("Best val. accuracy");
    case TestAccuracy: return tr("Test accuracy");
    case SamplesPerSec: return tr("Samples/s");
    case Duration: return tr("Duration");
    case Tags: return tr("Tags");
    case Created: return tr("Created");
    }
    return {};
}

} // namespace entrena::app
