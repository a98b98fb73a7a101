#include "panels/RunNaming.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
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

void flatten(const QJsonValue& value, const QString& path, QMap<QString, QJsonValue>& out)
{
    if (value.isObject()) {
        const QJsonObject object = value.toObject();
        for (auto it = object.begin(); it != object.end(); ++it)
            flatten(it.value(), path.isEmpty() ? it.key() : path + QLatin1Char('.') + it.key(), out);
        return;
    }
    out.insert(path, value);
}

QMap<QString, QJsonValue> leaves(const QString& json)
{
    QMap<QString, QJsonValue> out;
    flatten(QJsonDocument::fromJson(json.toUtf8()).object(), QString(), out);
    out.remove(QStringLiteral("name"));
    return out;
}

QString shown(const QJsonValue& value)
{
    if (value.isDouble())
        return QLocale::c().toString(value.toDouble(), 'g', 6);
    if (value.isString())
        return value.toString();
    if (value.isBool())
        return value.toBool() ? QStringLiteral("on") : QStringLiteral("off");
    if (value.isArray()) {
        QStringList parts;
        for (const QJsonValue& v : value.toArray())
            parts << shown(v);
        return QLatin1Char('[') + parts.join(QLatin1Char(',')) + QLatin1Char(']');
    }
    return QStringLiteral("-");
}

} // namespace

QString nameForNewRun(const QString& name, const QString& configJson, const QVector<NamedRun>& runs)
{
    if (std::none_of(runs.begin(), runs.end(), [&](const NamedRun& r) { return r.name == name; }))
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
        const QMap<QString, QJsonValue> now = leaves(configJson), before = leaves(latest->configJson);
        for (auto it = now.begin(); it != now.end(); ++it)
            if (before.value(it.key()) != it.value())
                differences << it.key().section(QLatin1Char('.'), -1) + QLatin1Char(' ') + shown(it.value());
    }
    const auto isTaken = [&](const QString& n) {
        return std::any_of(runs.begin(), runs.end(), [&](const NamedRun& r) { return r.name == n; });
    };
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

} // namespace entrena::ui
