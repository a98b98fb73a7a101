#include "experiment/ExperimentData.h"

#include "form/KeyLabels.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonValue>
#include <QLocale>
#include <QRegularExpression>
#include <algorithm>
#include <limits>
#include <stdexcept>

namespace entrena::ui {

namespace {

double wallOf(const std::string& iso)
{
    const QDateTime t = QDateTime::fromString(QString::fromStdString(iso), Qt::ISODateWithMs);
    return t.isValid() ? double(t.toMSecsSinceEpoch()) / 1000.0 : 0.0;
}

} // namespace

std::optional<std::size_t> ExperimentData::best() const
{
    std::optional<std::size_t> best;
    for (std::size_t i = 0; i < trials.size(); ++i) {
        const auto& m = trials[i].metric;
        if (m && (!best || (higherIsBetter() ? *m > *trials[*best].metric : *m < *trials[*best].metric)))
            best = i;
    }
    return best;
}

int ExperimentData::count(RunStatus status) const
{
    return int(std::count_if(trials.begin(), trials.end(), [status](const TrialRow& t) { return t.status == status; }));
}

const TrialRow* ExperimentData::trialOfRun(int64_t runId) const
{
    for (const TrialRow& t : trials)
        if (t.runId == runId)
            return &t;
    return nullptr;
}

namespace {

/// A PBT exploit event as a row: which run's weights were taken, and the settings it changed.
ExploitRow exploitOf(const EventRecord& ev, const RunRecord& r, int trial)
{
    ExploitRow x;
    x.step = ev.step;
    x.runId = r.id;
    x.trial = trial;
    // "took the weights and optimizer state of run 12 at step 430; optimizer.lr 0.01 -> 0.012"
    const QString message = QString::fromStdString(ev.message);
    const auto source = QRegularExpression(QStringLiteral("\\brun (\\d+)")).match(message);
    x.sourceRun = source.hasMatch() ? source.captured(1).toLongLong() : r.parentRun;
    const qsizetype semicolon = message.indexOf(QLatin1Char(';'));
    // "; optimizer.lr 0.2035905655 -> 0.0520260812" as "optimizer.lr 0.2036 → 0.05203"
    QStringList changes;
    for (const QString& part : message.mid(semicolon + 1).split(QLatin1Char(';'), Qt::SkipEmptyParts)) {
        const QStringList words = part.trimmed().split(QLatin1Char(' '), Qt::SkipEmptyParts);
        if (words.size() == 4 && words[2] == QLatin1String("->"))
            changes << QStringLiteral("%1 %2 → %3")
                           .arg(words[0], valueText(words[1].toStdString()), valueText(words[3].toStdString()));
        else
            changes << part.trimmed();
    }
    x.changes = semicolon < 0 ? QString() : changes.join(QStringLiteral("; "));
    return x;
}

/// sweep --cv: a trial's fold runs as one row, valued as the sweep valued it: the folds' mean at each
/// epoch all of them reached, and the best of those means. Its run is the first fold's.
std::vector<TrialRow> foldTrials(const std::vector<TrialRow>& runs, bool higher)
{
    std::vector<TrialRow> merged;
    for (const TrialRow& r : runs) {
        auto it = std::find_if(merged.begin(), merged.end(), [&r](const TrialRow& m) { return m.trial == r.trial; });
        if (it == merged.end()) {
            merged.push_back(r);
            merged.back().metric.reset();
            merged.back().points.clear();
            continue;
        }
        if (r.status != RunStatus::Finished && it->status == RunStatus::Finished)
            it->status = r.status; // one fold not finished: the trial is not either
        it->runId = std::min(it->runId, r.runId);
    }
    for (TrialRow& m : merged) {
        std::vector<const TrialRow*> folds;
        for (const TrialRow& r : runs)
            if (r.trial == m.trial)
                folds.push_back(&r);
        std::vector<std::vector<double>> series;
        for (const TrialRow* f : folds) {
            series.emplace_back();
            for (const MetricPoint& p : f->points)
                series.back().push_back(p.value);
        }
        const std::vector<double> means = foldMeans(series);
        for (size_t i = 0; i < means.size(); ++i) {
            MetricPoint p = folds.front()->points[i];
            p.value = means[i];
            for (const TrialRow* f : folds) // the epoch ended when its last fold did
                p.wallTime = std::max(p.wallTime, f->points[i].wallTime);
            m.points.push_back(p);
            if (!m.metric || (higher ? p.value > *m.metric : p.value < *m.metric))
                m.metric = p.value;
        }
        m.epochs = int(means.size());
    }
    return merged;
}

/// Run `r` as a trial of `d`'s experiment: its values of the searched keys (from `space`, when this
/// version can read it) and its best value of the experiment's metric.
TrialRow trialRow(RunStore& store, const RunRecord& r, const ExperimentData& d, const std::optional<SearchSpace>& space)
{
    TrialRow t;
    t.runId = r.id;
    t.trial = int(r.trial);
    t.status = r.status;
    t.parentRun = r.parentRun;
    if (space) {
        const TrialParams values = space->paramsOf(r.configJson);
        for (const auto& param : d.params) {
            const auto it = std::find_if(values.begin(), values.end(), [&](const auto& v) { return v.first == param.first; });
            t.values.push_back(it == values.end() ? std::string() : it->second);
        }
    }
    t.points = store.metrics(r.id, d.experiment.metric);
    t.epochs = int(t.points.size());
    for (const MetricPoint& p : t.points)
        if (!t.metric || (d.higherIsBetter() ? p.value > *t.metric : p.value < *t.metric))
            t.metric = p.value;
    return t;
}

} // namespace

ExperimentData ExperimentData::load(RunStore& store, int64_t experimentId)
{
    const auto e = store.findExperiment(std::to_string(experimentId));
    if (!e)
        throw std::runtime_error("no experiment " + std::to_string(experimentId) + " in " + store.path());
    ExperimentData d;
    d.experiment = *e;
    if (isCrossValidation(*e))
        d.cv = summarizeCrossValidation(store, *e);
    std::optional<SearchSpace> space;
    try {
        space = SearchSpace::fromJson(e->spaceJson, RunConfig::fromJson(e->baseConfigJson));
        d.params = space->params();
    } catch (const ConfigError&) {
        // A space this version cannot read (a key since renamed): the trials without their values.
    }
    const bool higher = d.higherIsBetter();
    d.startWall = std::numeric_limits<double>::max();
    for (const RunRecord& r : store.trialsOf(experimentId)) {
        const TrialRow t = trialRow(store, r, d, space);
        if (const double started = wallOf(r.started); started > 0)
            d.startWall = std::min(d.startWall, started);
        for (const MetricPoint& p : t.points)
            d.startWall = std::min(d.startWall, p.wallTime);
        for (const EventRecord& ev : store.events(r.id)) {
            if (ev.kind != "exploit")
                continue;
            d.exploits.push_back(exploitOf(ev, r, t.trial));
        }
        d.trials.push_back(t);
    }
    try {
        d.trialFolds = SweepSettings::fromJson(e->settingsJson).cv;
    } catch (const std::exception&) {
        d.trialFolds = 0; // settings this version cannot read: one row a run
    }
    if (d.trialFolds > 0)
        d.trials = foldTrials(d.trials, higher);
    if (d.startWall == std::numeric_limits<double>::max())
        d.startWall = wallOf(e->created);
    std::sort(d.trials.begin(), d.trials.end(), [](const TrialRow& a, const TrialRow& b) { return a.trial < b.trial; });
    for (ExploitRow& x : d.exploits)
        if (const TrialRow* source = d.trialOfRun(x.sourceRun))
            x.sourceTrial = source->trial;
    std::stable_sort(d.exploits.begin(), d.exploits.end(),
                     [](const ExploitRow& a, const ExploitRow& b) { return a.step < b.step; });
    return d;
}

QString valueText(const std::string& json)
{
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray("[") + QByteArray::fromStdString(json) + "]");
    if (doc.isArray() && doc.array().size() == 1 && doc.array().at(0).isDouble()) // in the reader's language: 0,0142
        return QLocale().toString(doc.array().at(0).toDouble(), 'g', 4).remove(QLocale().groupSeparator());
    if (doc.isArray() && doc.array().size() == 1 && doc.array().at(0).isString())
        return doc.array().at(0).toString();
    return QString::fromStdString(json);
}

QString paramsText(const TrialParams& params)
{
    // In the form's words ("Learning rate 0.01", "Fold 2"): folds are counted from 1 where people read them.
    QStringList parts;
    for (const auto& [key, value] : params) {
        QString shown = valueText(value);
        if (key == "data.fold" && !value.empty() && value.find_first_not_of("0123456789") == std::string::npos)
            shown = QString::number(std::stoll(value) + 1);
        parts << keyLabel(QString::fromStdString(key)) + QLatin1Char(' ') + shown;
    }
    return parts.join(QStringLiteral(", "));
}

} // namespace entrena::ui
