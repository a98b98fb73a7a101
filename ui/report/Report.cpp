#include "report/Report.h"

#include "ConfigFlatten.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <algorithm>
#include <set>

namespace entrena::ui {
namespace {

// Enough points for a chart a page wide; decimatedMetrics keeps each bucket's extremes.
constexpr int kChartBuckets = 600;
constexpr double kMiB = 1024.0 * 1024.0;

QString jsonText(const QJsonValue& v)
{
    if (v.isString())
        return v.toString();
    if (v.isDouble())
        return QString::number(v.toDouble(), 'g', 10);
    if (v.isArray() || v.isObject())
        return QString::fromUtf8(v.isArray() ? QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact)
                                             : QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact));
    return QString();
}

/// Versions, CPU, BLAS and devices, from the environment stored with each run. Runs of a
/// comparison may come from different machines: each value lists every distinct one.
QList<QPair<QString, QString>> environmentRows(const std::vector<ReportRun>& runs)
{
    struct Field {
        QString label;
        QString (*read)(const QJsonObject&);
    };
    const Field fields[] = {
        {Report::tr("Entrena"), [](const QJsonObject& e) { return jsonText(e[QStringLiteral("entrena_version")]); }},
        {Report::tr("LibTorch"), [](const QJsonObject& e) { return jsonText(e[QStringLiteral("torch_version")]); }},
        {Report::tr("Host"), [](const QJsonObject& e) { return jsonText(e[QStringLiteral("host")]); }},
        {Report::tr("CPU"),
         [](const QJsonObject& e) {
             const QJsonObject cpu = e[QStringLiteral("cpu")].toObject();
             if (cpu.isEmpty())
                 return QString();
             return QStringLiteral("%1, %2 logical CPUs, %3")
                 .arg(jsonText(cpu[QStringLiteral("model")]), jsonText(cpu[QStringLiteral("logical_cpus")]),
                      jsonText(cpu[QStringLiteral("isa")]));
         }},
        {Report::tr("Threads"), [](const QJsonObject& e) { return jsonText(e[QStringLiteral("threads")]); }},
        {Report::tr("BLAS"),
         [](const QJsonObject& e) { return jsonText(e[QStringLiteral("blas")].toObject()[QStringLiteral("config")]); }},
        {Report::tr("Devices"),
         [](const QJsonObject& e) {
             QStringList names;
             for (const QJsonValue& d : e[QStringLiteral("devices")].toArray()) {
                 const QJsonObject o = d.toObject();
                 names << QStringLiteral("%1:%2 %3")
                              .arg(jsonText(o[QStringLiteral("type")]), jsonText(o[QStringLiteral("index")]),
                                   jsonText(o[QStringLiteral("name")]));
             }
             return names.join(QStringLiteral("; "));
         }},
        {Report::tr("Process tuning"), [](const QJsonObject& e) { return jsonText(e[QStringLiteral("tuning")]); }},
    };
    QList<QPair<QString, QString>> rows;
    for (const Field& f : fields) {
        QStringList values;
        for (const ReportRun& r : runs) {
            const QJsonObject env = QJsonDocument::fromJson(QByteArray::fromStdString(r.record.environmentJson)).object();
            const QString v = f.read(env);
            if (!v.isEmpty() && !values.contains(v))
                values << v;
        }
        if (!values.isEmpty())
            rows.append({f.label, values.join(QStringLiteral(" | "))});
    }
    return rows;
}

} // namespace

QString SummaryRow::format(std::size_t run) const
{
    if (run >= values.size() || !values[run])
        return QStringLiteral("–");
    return QLocale().toString(*values[run], 'f', decimals);
}


QString Report::runLabel(const RunRecord& run)
{
    return QStringLiteral("#%1 %2").arg(run.id).arg(QString::fromStdString(run.name));
}

std::vector<ChartSpec> Report::charts()
{
    return {
        {tr("Training loss"), QStringLiteral("train_loss"), tr("loss"), false, 1.0},
        {tr("Validation accuracy"), QStringLiteral("val_accuracy"), tr("accuracy"), true, 1.0},
        {tr("Learning rate"), QStringLiteral("lr"), tr("learning rate"), false, 1.0},
        {tr("Memory (MiB, process resident)"), QStringLiteral("memory_bytes"), tr("MiB"), false, 1.0 / kMiB},
        {tr("Throughput (samples/s)"), QStringLiteral("samples_per_s"), tr("samples/s"), false, 1.0},
    };
}

Report Report::load(RunStore& store, const QList<qint64>& runIds)
{
    if (runIds.isEmpty())
        throw ReportError(tr("No runs to report on: give at least one run ID.").toStdString());
    Report report;
    report.generated = QDateTime::currentDateTime();
    const std::vector<ChartSpec> specs = charts();
    for (qint64 id : runIds) {
        auto record = store.findRun(std::to_string(id));
        if (!record || record->id != id)
            throw ReportError(tr("There is no run %1 in %2; `entrena-cli runs --db %2` lists them.")
                                  .arg(id)
                                  .arg(QString::fromStdString(store.path()))
                                  .toStdString());
        ReportRun run;
        run.record = *record;
        for (const std::string& t : store.tags(id))
            run.tags << QString::fromStdString(t);
        run.events = store.events(id);
        run.evaluation = evaluationFromJson(run.record.evaluationJson);
        for (const ChartSpec& spec : specs)
            run.series[spec.metric] = store.decimatedMetrics(id, spec.metric.toStdString(), kChartBuckets);
        report.runs.push_back(std::move(run));
    }

    const auto& first = report.runs.front().record;
    report.title = report.runs.size() == 1 ? tr("Run report: %1").arg(runLabel(first))
                                           : tr("Comparison of %n runs", nullptr, int(report.runs.size()));
    report.environment = environmentRows(report.runs);

    std::vector<RunRecord> records;
    for (const ReportRun& r : report.runs)
        records.push_back(r.record);
    report.configuration = configurationRows(records, records.size() > 1, &report.sameSettings);
    report.summary = summaryRows(records);
    return report;
}

QList<QPair<QString, QStringList>> Report::configurationRows(const std::vector<RunRecord>& runs, bool onlyDifferences, int* same)
{
    // Every key any run has, in first-seen order.
    std::vector<std::map<QString, QString>> configs;
    QStringList keys;
    for (const RunRecord& r : runs) {
        std::map<QString, QString> values;
        for (const auto& [key, value] : app::flattenConfig(QString::fromStdString(r.configJson))) {
            values[key] = value;
            if (!keys.contains(key))
                keys << key;
        }
        configs.push_back(std::move(values));
    }
    QList<QPair<QString, QStringList>> rows;
    int identical = 0;
    for (const QString& key : keys) {
        QStringList row;
        std::set<QString> distinct;
        for (const auto& c : configs) {
            const auto it = c.find(key);
            row << (it == c.end() ? QStringLiteral("–") : it->second);
            distinct.insert(row.back());
        }
        if (!onlyDifferences || distinct.size() > 1)
            rows.append({key, row});
        else
            ++identical;
    }
    if (same)
        *same = identical;
    return rows;
}

void Report::markBest(SummaryRow& s)
{
    s.best = -1;
    int have = 0;
    for (std::size_t i = 0; i < s.values.size(); ++i) {
        if (!s.values[i])
            continue;
        ++have;
        if (s.best < 0 ||
            (s.higherIsBetter ? *s.values[i] > *s.values[std::size_t(s.best)] : *s.values[i] < *s.values[std::size_t(s.best)]))
            s.best = int(i);
    }
    if (have < 2)
        s.best = -1;
}

std::vector<SummaryRow> Report::summaryRows(const std::vector<RunRecord>& runs)
{
    std::vector<SummaryRow> rows;
    auto row = [&](const QString& label, bool higherIsBetter, int decimals, auto value) {
        SummaryRow s{label, {}, higherIsBetter, decimals, -1};
        for (const RunRecord& r : runs)
            s.values.push_back(value(r));
        markBest(s);
        rows.push_back(std::move(s));
    };
    auto percent = [](const std::optional<double>& v) { return v ? std::optional<double>(*v * 100.0) : std::nullopt; };
    auto mib = [](const std::optional<double>& v) { return v ? std::optional<double>(*v / kMiB) : std::nullopt; };
    row(tr("Best validation accuracy (%)"), true, 2, [&](const RunRecord& r) { return percent(r.bestValAccuracy); });
    row(tr("Test accuracy (%)"), true, 2, [&](const RunRecord& r) { return percent(r.testAccuracy); });
    row(tr("Final training loss"), false, 4, [](const RunRecord& r) { return r.finalTrainLoss; });
    row(tr("Final validation loss"), false, 4, [](const RunRecord& r) { return r.finalValLoss; });
    row(tr("Throughput (samples/s)"), true, 0, [](const RunRecord& r) { return r.samplesPerSec; });
    row(tr("Duration (s)"), false, 1, [](const RunRecord& r) { return r.seconds; });
    row(tr("Peak memory (MiB)"), false, 0, [&](const RunRecord& r) { return mib(r.peakMemoryBytes); });
    return rows;
}

} // namespace entrena::ui
