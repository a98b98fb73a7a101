#include "RunTableModel.h"

#include "ChoiceLabels.h"
#include "ConfigFlatten.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <algorithm>
#include <cmath>

namespace entrena::app {

RunTableModel::RunTableModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

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
    compareWithBaselines();
    endResetModel();
}

void RunTableModel::compareWithBaselines()
{
    comparisons_.clear();
    if (!store_)
        return;
    try {
        const auto baselines = store_->baselines();
        if (baselines.empty())
            return; // the usual case: no run's configuration needs reading
        // A finished run's comparison changes only with its baseline: reuse it while that stays.
        std::vector<RunRecord> pending;
        for (const RunRecord& r : runs_) {
            const auto b = baselines.find(datasetKey(r.configJson));
            if (b == baselines.end())
                continue;
            const auto settled = settled_.find(r.id);
            if (settled != settled_.end() && settled->second.baselineRun == b->second && r.status != RunStatus::Running)
                comparisons_[r.id] = settled->second;
            else
                pending.push_back(r);
        }
        for (auto& [id, c] : entrena::compareWithBaselines(*store_, pending, tolerance_)) {
            comparisons_[id] = c;
            settled_[id] = c;
        }
    } catch (const std::exception&) {
        // a store from before baselines, or a busy one: no comparisons this time
    }
}

void RunTableModel::setBaselineTolerance(double tolerance)
{
    if (tolerance == tolerance_)
        return;
    beginResetModel();
    tolerance_ = tolerance;
    settled_.clear();
    compareWithBaselines();
    endResetModel();
}

const BaselineComparison* RunTableModel::comparison(int64_t runId) const
{
    const auto it = comparisons_.find(runId);
    return it == comparisons_.end() ? nullptr : &it->second;
}

QString RunTableModel::setBaseline(int64_t runId, bool baseline)
{
    if (!store_)
        return tr("No run store is open.");
    try {
        if (baseline)
            store_->setBaseline(runId);
        else
            store_->clearBaseline(runId);
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
    settled_.clear();
    refresh();
    return {};
}

QVariant RunTableModel::baselineData(const RunRecord& r, int column, int role) const
{
    const BaselineComparison* c = comparison(r.id);
    if (!c)
        return role == Qt::EditRole ? QVariant(-1e9) : QVariant();
    const QLocale locale;
    if (role == Qt::ToolTipRole) {
        if (c->isBaseline)
            return tr("The baseline of its data set: other runs are measured against its final validation accuracy, %1%.")
                .arg(locale.toString(c->targetAccuracy * 100.0, 'f', 2));
        QString tip = c->runSeconds
                          ? tr("Reached the baseline's final validation accuracy (%1%) in %2 s; the baseline took %3 s.")
                                .arg(locale.toString(c->targetAccuracy * 100.0, 'f', 2))
                                .arg(locale.toString(*c->runSeconds, 'f', 1))
                                .arg(locale.toString(c->baselineSeconds.value_or(0), 'f', 1))
                          : tr("Never reached the baseline's final validation accuracy (%1%).")
                                .arg(locale.toString(c->targetAccuracy * 100.0, 'f', 2));
        if (c->warn())
            tip += QLatin1Char('\n') +
                   tr("Warning: faster than the baseline (run %1) but its final %2 accuracy is %3 percentage points lower.")
                       .arg(c->baselineRun)
                       .arg(c->accuracyKind == "test" ? tr("test") : tr("validation"))
                       .arg(locale.toString(-c->deltaAccuracy.value_or(0) * 100.0, 'f', 2));
        if (c->withinNoise() && c->samples < kFewSamples)
            tip += QLatin1Char('\n') +
                   tr("On %n %1 sample(s) a difference under %2 percentage points is chance (95 %): cross-validate "
                      "(entrena-cli cv) to tell these runs apart.",
                      nullptr, int(c->samples))
                       .arg(c->accuracyKind == "test" ? tr("test") : tr("validation"))
                       .arg(locale.toString(c->meaningfulDelta.value_or(0) * 100.0, 'f', 1));
        return tip;
    }
    const bool display = role == Qt::DisplayRole;
    if (column == SpeedUp) {
        if (c->isBaseline)
            return display ? QVariant(tr("baseline")) : QVariant(1.0);
        if (!c->speedup)
            return display ? QVariant(tr("not reached")) : QVariant(0.0);
        return display ? QVariant(locale.toString(*c->speedup, 'f', 2) + QStringLiteral("×")) : QVariant(*c->speedup);
    }
    if (!c->deltaAccuracy)
        return display ? QVariant() : QVariant(-1e9);
    if (!display)
        return *c->deltaAccuracy;
    const double pp = *c->deltaAccuracy * 100.0;
    const QString text =
        (pp >= 0 ? QStringLiteral("+") : QStringLiteral("−")) + locale.toString(std::abs(pp), 'f', 2) + tr(" pp");
    return c->warn() ? QStringLiteral("⚠ ") + text : text;
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

int RunTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(runs_.size());
}

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
    case RunStatus::Pruned: return tr("pruned");
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
    if (column == SpeedUp || column == DeltaAccuracy) {
        if (role == Qt::TextAlignmentRole)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        if (role == Qt::DisplayRole || role == Qt::EditRole || role == Qt::ToolTipRole)
            return baselineData(*r, column, role);
    }
    if (role == Qt::ToolTipRole && !r->error.empty())
        return QString::fromStdString(r->error);
    if (role == Qt::ToolTipRole && column == Name)
        return QString::fromStdString(r->name); // whole, where the column elides it
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
    // The form's names for the choices, not the configuration's identifiers.
    case Dataset: return ChoiceLabels::dataset(s.dataset);
    case Model: return ChoiceLabels::model(s.model);
    case Optimizer: return ChoiceLabels::optimizer(s.optimizer);
    case Scheduler: return ChoiceLabels::scheduler(s.scheduler);
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
    case SpeedUp: return tr("Speed-up vs baseline");
    case DeltaAccuracy: return tr("Δ accuracy vs baseline");
    }
    return parameterKeys_.value(section - ColumnCount);
}

} // namespace entrena::app
