#pragma once

#include <QList>
#include <QPair>
#include <QString>

namespace entrena::app {

/// A run's configuration JSON flattened to dotted keys ("optimizer.lr") with display values
/// (arrays as compact JSON), in the document's order: for tables of hyper-parameters.
QList<QPair<QString, QString>> flattenConfig(const QString& json);

} // namespace entrena::app
