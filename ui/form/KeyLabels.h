#pragma once
// A configuration key in the form's words, in the reader's language: "optimizer.lr" is "Learning
// rate", "data.fold" is "Fold". Where a person reads keys they did not type (the sweep dialog, an
// experiment's trials and axes, compare's hyper-parameters, generated run names), these words are
// shown and the key stays in the tooltip. A key the form has no words for is shown as it is.

#include <QString>

namespace entrena::ui {

/// The form's label for `key` (as --set names it), without its colon; `key` itself when there is none.
QString keyLabel(const QString& key);
/// Whether keyLabel() has words for `key`.
bool hasKeyLabel(const QString& key);

} // namespace entrena::ui
