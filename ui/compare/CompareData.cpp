#include "compare/CompareData.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>
#include <cmath>
#include <future>
#include <stdexcept>

namespace entrena::ui {
namespace {

CompareRun loadRun(const std::string& db, qint64 id, bool overview)
{
    RunStore store(db); // a connection per thread: SQLite connections are not shared
    auto record = store.findRun(std::to_string(id));
    if (!record || record->id != id)
        throw std::runtime_error("there is no run " + std::to_string(id) + " in " + db);
    CompareRun run;
    run.record = *record;
    run.events = store.events(id);
    for (const QString& key : CompareData::metricKeys()) {
        int64_t points = 0;
        Series s = overview ? store.metricOverview(id, key.toStdString(), &points) : Series{};
        if (overview && points > CompareData::kWholeUpTo)
            run.overview = true;
        else
            s = store.metricColumns(id, key.toStdString());
        if (s.size() > 0)
            run.metrics.emplace(key, std::move(s));
    }
    const QJsonObject config = QJsonDocument::fromJson(QByteArray::fromStdString(run.record.configJson)).object();
    const double batch = config[QStringLiteral("data")].toObject()[QStringLiteral("batch_size")].toDouble(1);
    const double accumulate = config[QStringLiteral("train")].toObject()[QStringLiteral("accumulate")].toDouble(1);
    run.samplesPerStep = std::max(1.0, batch * accumulate);
    // Epoch-level metrics are stored at the epoch's last step: that step over the epoch number
    // gives the steps per epoch, and per-step metrics land on fractional epochs.
    for (const char* key : {"val_loss", "epoch_train_loss"}) {
        const auto it = run.metrics.find(QString::fromLatin1(key));
        if (it != run.metrics.end() && it->second.epoch.front() > 0) {
            run.stepsPerEpoch = it->second.step.front() / it->second.epoch.front();
            break;
        }
    }
    const QDateTime started = QDateTime::fromString(QString::fromStdString(run.record.started), Qt::ISODateWithMs);
    run.startWall = started.isValid() ? double(started.toMSecsSinceEpoch()) / 1000.0 : 0.0;
    if (run.startWall == 0)
        for (const auto& [key, s] : run.metrics)
            run.startWall = run.startWall == 0 ? s.wall.front() : std::min(run.startWall, s.wall.front());
    return run;
}

} // namespace

std::vector<double> CompareRun::xs(const Series& s, XAxisMode mode) const
{
    std::vector<double> x(s.size());
    for (std::size_t i = 0; i < s.size(); ++i) {
        switch (mode) {
        case XAxisMode::Step: x[i] = s.step[i]; break;
        case XAxisMode::Epoch: x[i] = stepsPerEpoch > 0 ? s.step[i] / stepsPerEpoch : s.epoch[i]; break;
        case XAxisMode::Samples: x[i] = s.step[i] * samplesPerStep; break;
        case XAxisMode::WallTime: x[i] = s.wall[i]; break;
        case XAxisMode::RelativeTime: x[i] = s.wall[i] - startWall; break;
        }
    }
    return x;
}

QStringList CompareData::metricKeys()
{
    return {QStringLiteral("train_loss"),
            QStringLiteral("val_loss"),
            QStringLiteral("val_accuracy"),
            QStringLiteral("epoch_train_loss"),
            QStringLiteral("lr"),
            QStringLiteral("memory_bytes"),
            QStringLiteral("device_allocated_bytes"),
            QStringLiteral("samples_per_s")};
}

bool CompareData::partial() const
{
    return std::any_of(runs.begin(), runs.end(), [](const CompareRun& r) { return r.overview; });
}

CompareData CompareData::load(const QString& dbPath, const QList<qint64>& runIds, bool overview, double baselineTolerance)
{
    const std::string db = dbPath.toStdString();
    // One thread per run, each with its own connection; get() rethrows a run's error here.
    std::vector<std::future<CompareRun>> pending;
    for (qint64 id : runIds)
        pending.push_back(std::async(std::launch::async, [db, id, overview] { return loadRun(db, id, overview); }));
    CompareData data;
    std::exception_ptr error;
    for (auto& f : pending) {
        try {
            data.runs.push_back(f.get());
        } catch (...) {
            if (!error)
                error = std::current_exception();
        }
    }
    if (error)
        std::rethrow_exception(error);
    RunStore store(db);
    std::vector<RunRecord> records;
    for (const CompareRun& r : data.runs)
        records.push_back(r.record);
    data.baselines = compareWithBaselines(store, records, baselineTolerance);
    return data;
}

std::vector<double> emaDebiased(const std::vector<double>& y, double weight)
{
    std::vector<double> out(y.size());
    double last = 0, debias = 1;
    int counted = 0;
    for (std::size_t i = 0; i < y.size(); ++i) {
        if (!std::isfinite(y[i])) {
            out[i] = y[i];
            continue;
        }
        last = last * weight + (1 - weight) * y[i];
        ++counted;
        debias = 1 - std::pow(weight, counted);
        out[i] = weight > 0 ? last / debias : y[i];
    }
    return out;
}

} // namespace entrena::ui
