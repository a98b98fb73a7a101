#include "ConfigFlatten.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace entrena::app {
namespace {

void flatten(const QJsonValue& value, const QString& prefix, QList<QPair<QString, QString>>& out)
{
    if (value.isObject()) {
        const QJsonObject object = value.toObject();
        for (auto it = object.begin(); it != object.end(); ++it)
            flatten(it.value(), prefix.isEmpty() ? it.key() : prefix + QLatin1Char('.') + it.key(), out);
        return;
    }
    QString text;
    if (value.isArray())
        text = QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact));
    else if (value.isString())
        text = value.toString();
    else if (value.isBool())
        text = value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    else if (value.isDouble())
        text = QString::number(value.toDouble(), 'g', 10);
    else
        text = QStringLiteral("null");
    out.append({prefix, text});
}

} // namespace

QList<QPair<QString, QString>> flattenConfig(const QString& json)
{
    QList<QPair<QString, QString>> out;
    flatten(QJsonDocument::fromJson(json.toUtf8()).object(), QString(), out);
    return out;
}

} // namespace entrena::app
