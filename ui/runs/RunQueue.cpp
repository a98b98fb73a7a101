#include "runs/RunQueue.h"

#include "ChoiceLabels.h"
#include "entrena/config/Registry.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QSaveFile>
#include <QStringList>
#include <algorithm>

namespace entrena::ui {

RunQueue::RunQueue(const QString& file, QObject* parent)
    : QObject(parent)
    , file_(file)
{
    load();
}

QString RunQueue::fileFor(const QString& dbPath)
{
    const QFileInfo db(dbPath);
    return db.dir().filePath(db.completeBaseName() + QStringLiteral(".queue.json"));
}

QString RunQueue::summaryOf(const RunConfig& c)
{
    const QLocale locale;
    QString model = app::ChoiceLabels::model(QString::fromLatin1(toString(c.model.arch)));
    // The widths the architecture reads: an mlp's hidden layers, a convolutional model's channels.
    const auto& keys = registryEntry(c.model.arch).keys;
    const bool hidden = hasKey(keys, "hidden");
    const bool channels = hasKey(keys, "channels");
    const std::vector<int64_t>& widths = hidden ? c.model.hidden : c.model.channels;
    if ((hidden || channels) && !widths.empty()) {
        QStringList parts;
        for (int64_t w : widths)
            parts << QString::number(w);
        model += QLatin1Char(' ') + parts.join(QLatin1Char('-'));
    }
    const QString epochs = c.train.epochs == 1 ? tr("1 epoch") : tr("%1 epochs").arg(c.train.epochs);
    return tr("%1 · %2 · %3 lr %4 · batch %5 · %6")
        .arg(model, app::ChoiceLabels::dataset(QString::fromLatin1(toString(c.data.dataset))),
             app::ChoiceLabels::optimizer(QString::fromLatin1(toString(c.optimizer.kind))),
             locale.toString(c.optimizer.lr, 'g', 3))
        .arg(c.data.batchSize)
        .arg(epochs);
}

void RunQueue::add(const RunConfig& config, int ranks)
{
    items_.push_back({config, std::max(1, ranks)});
    save();
}

void RunQueue::remove(int index)
{
    if (index < 0 || index >= items_.size())
        return;
    items_.removeAt(index);
    save();
}

void RunQueue::move(int from, int to)
{
    if (from < 0 || from >= items_.size() || to < 0 || to >= items_.size() || from == to)
        return;
    items_.move(from, to);
    save();
}

void RunQueue::reorder(const QList<int>& order)
{
    QList<int> sorted = order;
    std::sort(sorted.begin(), sorted.end());
    for (int i = 0; i < sorted.size(); ++i)
        if (sorted[i] != i)
            return; // not a permutation: a view out of step with the queue; keep the queue as it is
    if (sorted.size() != items_.size())
        return;
    QList<QueuedRun> next;
    for (int i : order)
        next.push_back(items_[i]);
    items_ = next;
    save();
}

std::optional<QueuedRun> RunQueue::takeFirst()
{
    if (items_.isEmpty())
        return std::nullopt;
    QueuedRun first = items_.takeFirst();
    save();
    return first;
}

void RunQueue::load()
{
    QFile file(file_);
    if (!file.exists())
        return;
    if (!file.open(QIODevice::ReadOnly)) {
        loadError_ = file.errorString();
        return;
    }
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &error);
    if (!doc.isObject()) {
        loadError_ = error.errorString();
        return;
    }
    // A configuration that no longer parses (an older version's key, say) is dropped with a
    // note, not the whole queue.
    QStringList dropped;
    for (const QJsonValue v : doc.object().value(QStringLiteral("runs")).toArray()) {
        const QJsonObject o = v.toObject();
        const QByteArray json = QJsonDocument(o.value(QStringLiteral("config")).toObject()).toJson(QJsonDocument::Compact);
        try {
            items_.push_back({RunConfig::fromJson(json.toStdString()), std::max(1, o.value(QStringLiteral("ranks")).toInt(1))});
        } catch (const ConfigError& e) {
            dropped << QString::fromStdString(e.what());
        }
    }
    if (!dropped.isEmpty())
        loadError_ = dropped.join(QStringLiteral("; "));
}

void RunQueue::save()
{
    QJsonArray runs;
    for (const QueuedRun& r : std::as_const(items_)) {
        QJsonObject o;
        o.insert(QStringLiteral("config"), QJsonDocument::fromJson(QByteArray::fromStdString(r.config.toJson())).object());
        o.insert(QStringLiteral("ranks"), r.ranks);
        runs.append(o);
    }
    QJsonObject root;
    root.insert(QStringLiteral("version"), 1);
    root.insert(QStringLiteral("runs"), runs);
    QDir().mkpath(QFileInfo(file_).absolutePath());
    QSaveFile out(file_);
    if (!out.open(QIODevice::WriteOnly) || out.write(QJsonDocument(root).toJson()) < 0 || !out.commit())
        qWarning("Entrena: cannot keep the run queue in %s: %s", qPrintable(file_), qPrintable(out.errorString()));
    Q_EMIT changed();
}

} // namespace entrena::ui
