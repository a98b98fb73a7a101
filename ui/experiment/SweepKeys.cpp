#include "experiment/SweepKeys.h"

#include "entrena/config/Registry.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QLocale>
#include <algorithm>
#include <cmath>
#include <cstring>

namespace entrena::ui {

namespace {

/// Keys that change how a run is carried out, not what it learns, and the folds.
bool bookkeeping(const QString& key)
{
    static const QStringList skip = {
        QStringLiteral("data.workers"),
        QStringLiteral("data.cache_mb"),
        QStringLiteral("train.log_every"),
        QStringLiteral("train.checkpoint_every"),
        QStringLiteral("train.snapshot_every"),
        QStringLiteral("train.oom_recovery"),
        QStringLiteral("train.memory_budget_mb"),
        QStringLiteral("train.max_rollbacks"),
        QStringLiteral("train.divergence_guard"),
        QStringLiteral("train.precision"),
        // What is learned: another task is another experiment, compared by other figures.
        QStringLiteral("data.task"),
        // Which samples validate: cross-validation's to set (Run → Cross-validate…), not a sweep's.
        QStringLiteral("data.folds"),
        QStringLiteral("data.fold"),
        QStringLiteral("data.stratify"),
    };
    return skip.contains(key);
}

template <class Spec>
void collect(std::vector<SweepKey>& out, const char* section, const std::vector<OptionKey<Spec>>& keys, const Spec& spec)
{
    for (const OptionKey<Spec>& k : keys) {
        if (k.kind == ValueKind::Text || k.kind == ValueKind::Json) // not a space to search
            continue;
        SweepKey s;
        s.key =
            *section ? QString::fromLatin1(section) + QLatin1Char('.') + QString::fromLatin1(k.key) : QString::fromLatin1(k.key);
        if (bookkeeping(s.key) || std::any_of(out.begin(), out.end(), [&](const SweepKey& o) { return o.key == s.key; }))
            continue;
        s.kind = k.kind;
        s.low = k.lo;
        s.high = k.hi;
        for (const std::string& c : k.choices)
            s.choices << QString::fromStdString(c);
        s.doc = QString::fromUtf8(k.doc);
        s.value = QString::fromStdString(formatOptionValue(k.get(spec)));
        out.push_back(s);
    }
}

QString number(double v)
{
    return QString::number(v, 'g', 12);
}

} // namespace

std::vector<SweepKey> sweepableKeys(const RunConfig& base)
{
    std::vector<SweepKey> all;
    collect(all, "optimizer", optimizerKeys(), base.optimizer);
    collect(all, "optimizer", registryEntry(base.optimizer.kind).keys, base.optimizer);
    collect(all, "data", dataKeys(), base.data);
    collect(all, "data", registryEntry(base.data.dataset).keys, base.data);
    collect(all, "model", registryEntry(base.model.arch).keys, base.model);
    collect(all, "model", modelKeys(), base.model);
    collect(all, "train", trainKeys(), base.train);
    collect(all, "scheduler", schedulerKeys(), base.scheduler);
    collect(all, "scheduler", registryEntry(base.scheduler.kind).keys, base.scheduler);
    collect(all, "", topLevelKeys(), base);
    // optimizer.name and scheduler.name are left out: the base's keys of one optimizer or schedule
    // (sgd's dampening) make the others' configurations invalid.
    // What people search most, first.
    static const QStringList first = {
        QStringLiteral("optimizer.lr"),    QStringLiteral("optimizer.momentum"), QStringLiteral("optimizer.weight_decay"),
        QStringLiteral("data.batch_size"), QStringLiteral("model.hidden"),       QStringLiteral("model.channels"),
        QStringLiteral("train.epochs")};
    std::stable_sort(all.begin(), all.end(), [](const SweepKey& a, const SweepKey& b) {
        const auto rank = [](const QString& k) { return first.contains(k) ? first.indexOf(k) : int(first.size()); };
        return rank(a.key) < rank(b.key);
    });
    return all;
}

namespace {

// An integer: a batch size in powers of two around the base, else from half to twice it.
SweepRowStart integerStart(const SweepKey& k, bool ok, double v)
{
    SweepRowStart s;
    const qint64 n = ok ? qint64(v) : qint64(k.low);
    if (k.key == QLatin1String("data.batch_size")) { // powers of two around the base
        s.kind = Distribution::Kind::Choice;
        s.choices = QStringLiteral("%1, %2, %3").arg(std::max<qint64>(1, n / 2)).arg(n).arg(n * 2);
        return s;
    }
    s.kind = Distribution::Kind::IntUniform;
    s.low = std::max(k.low, double(n > 0 ? std::max<qint64>(1, n / 2) : 0));
    s.high = std::min(k.high, double(n > 0 ? n * 2 : 4));
    if (s.low >= s.high) {
        s.low = k.low;
        s.high = std::min(k.high, k.low + 4);
    }
    return s;
}

// A number: in its logarithm where it spans orders of magnitude, else a range around the base.
SweepRowStart numberStart(const SweepKey& k, bool ok, double v)
{
    SweepRowStart s;
    const QString name = k.key.section(QLatin1Char('.'), -1);
    // Rates, decays and epsilons span orders of magnitude: searched in their logarithm.
    const bool logarithmic = name.contains(QLatin1String("lr")) || name.contains(QLatin1String("decay")) ||
                             name == QLatin1String("eps") || name == QLatin1String("eta_min");
    if (logarithmic) {
        s.kind = Distribution::Kind::LogUniform;
        const double centre = ok && v > 0 ? v : 1e-4;
        s.low = std::max(centre / 10.0, k.low > 0 ? k.low : 1e-12);
        s.high = std::min(centre * 10.0, k.high);
        return s;
    }
    s.kind = Distribution::Kind::Uniform;
    const double centre = ok ? v : k.low;
    if (k.high - k.low <= 100) { // a bounded key (momentum, dropout): halfway to either end
        s.low = centre - (centre - k.low) / 2;
        s.high = centre + (k.high - centre) / 2;
    } else {
        s.low = std::max(k.low, centre / 2);
        s.high = std::min(k.high, centre > 0 ? centre * 2 : k.low + 1);
    }
    if (s.low >= s.high) {
        s.low = k.low;
        s.high = std::min(k.high, k.low + 1);
    }
    s.low = number(s.low).toDouble(); // shortest: what the row shows is what is searched
    s.high = number(s.high).toDouble();
    return s;
}

} // namespace

SweepRowStart startFor(const SweepKey& k)
{
    SweepRowStart s;
    bool ok = false;
    const double v = k.value.toDouble(&ok);
    switch (k.kind) {
    case ValueKind::Boolean:
        s.kind = Distribution::Kind::Choice;
        s.choices = QStringLiteral("true, false");
        return s;
    case ValueKind::Choice: {
        s.kind = Distribution::Kind::Choice;
        QStringList quoted;
        for (const QString& c : k.choices)
            quoted << QLatin1Char('"') + c + QLatin1Char('"');
        s.choices = quoted.join(QStringLiteral(", "));
        return s;
    }
    case ValueKind::IntegerList: {
        // The base's widths, and twice as wide.
        s.kind = Distribution::Kind::Choice;
        const QJsonArray widths = QJsonDocument::fromJson(k.value.toUtf8()).array();
        QJsonArray wider;
        for (const QJsonValue w : widths)
            wider.append(std::min<qint64>(qint64(k.high), 2 * w.toInteger()));
        s.choices = k.value + QStringLiteral(", ") + QString::fromUtf8(QJsonDocument(wider).toJson(QJsonDocument::Compact));
        return s;
    }
    case ValueKind::Integer: return integerStart(k, ok, v);
    case ValueKind::Number:
    default: break;
    }
    return numberStart(k, ok, v);
}

} // namespace entrena::ui
