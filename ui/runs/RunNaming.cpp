#include "runs/RunNaming.h"

#include "ConfigFlatten.h"
#include "entrena/config/Registry.h"

#include <QDir>
#include <QFileInfo>
#include <QMap>
#include <QRegularExpression>

#include <algorithm>

namespace entrena::ui {

namespace {

const QString kSeparator = QStringLiteral(" · ");

/// The part of a name before what a previous naming added (" · …" or " #N").
QString baseOf(const QString& name)
{
    QString base = name.section(kSeparator, 0, 0);
    base.remove(QRegularExpression(QStringLiteral(" #\\d+$")));
    return base.trimmed();
}

/// The configuration's leaves by dotted key, as the runs table shows them; the name is not a setting.
QMap<QString, QString> leaves(const QString& json)
{
    QMap<QString, QString> out;
    for (const auto& [key, value] : app::flattenConfig(json))
        out.insert(key, value);
    out.remove(QStringLiteral("name"));
    return out;
}

} // namespace

QString nameForNewRun(const QString& name, const QString& configJson, const QVector<NamedRun>& runs)
{
    const auto isTaken = [&](const QString& n) {
        return std::any_of(runs.begin(), runs.end(), [&](const NamedRun& r) { return r.name == n; });
    };
    if (!isTaken(name))
        return name;
    const QString base = baseOf(name);
    const NamedRun* latest = nullptr;
    int sameBase = 0;
    for (const NamedRun& r : runs) {
        if (baseOf(r.name) != base)
            continue;
        ++sameBase;
        if (!latest || r.id > latest->id)
            latest = &r;
    }
    QStringList differences;
    if (latest) {
        const QMap<QString, QString> now = leaves(configJson), before = leaves(latest->configJson);
        for (auto it = now.begin(); it != now.end(); ++it)
            if (before.value(it.key()) != it.value())
                differences << it.key().section(QLatin1Char('.'), -1) + QLatin1Char(' ') + it.value();
    }
    if (differences.isEmpty()) { // the same settings again: the next free number
        int n = sameBase + 1;
        while (isTaken(QStringLiteral("%1 #%2").arg(base).arg(n)))
            ++n;
        return QStringLiteral("%1 #%2").arg(base).arg(n);
    }
    const int extra = int(differences.size()) - 3;
    QString candidate = base + kSeparator + QStringList(differences.mid(0, 3)).join(QStringLiteral(", "));
    if (extra > 0)
        candidate += QStringLiteral(" +%1").arg(extra);
    const QString stem = candidate; // the same change made twice: number it
    for (int n = 2; isTaken(candidate); ++n)
        candidate = QStringLiteral("%1 #%2").arg(stem).arg(n);
    return candidate;
}

QString suggestedRunName(DatasetKind dataset, const QString& path, ModelArch arch)
{
    const DatasetEntry& entry = registryEntry(dataset);
    QString data = dataset == DatasetKind::FashionMnist ? QStringLiteral("fmnist") : QString::fromLatin1(entry.name);
    // Data with no place of its own (a table, an image folder, CIFAR-10 unpacked somewhere): its folder or file.
    if (entry.needsPath && !*entry.defaultPath) {
        const QFileInfo file(QDir::cleanPath(path));
        const QString own = entry.pathIsFile ? file.completeBaseName() : file.fileName();
        if (!own.isEmpty())
            data = own;
    }
    return data + QLatin1Char('-') + QString::fromLatin1(toString(arch));
}

} // namespace entrena::ui
