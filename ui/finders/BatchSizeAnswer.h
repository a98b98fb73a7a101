#pragma once
// The batch-size finder's answer as the user reads it: the largest batch that fits with its steps
// an epoch and memory, the batch suggested for training beside it, and a button for each.

#include <QCoreApplication>
#include <cstdint>
#include <functional>

class QMessageBox;
class QWidget;

namespace entrena {
struct BatchSizeResult;
}

namespace entrena::ui {

class BatchSizeAnswer {
    Q_DECLARE_TR_FUNCTIONS(BatchSizeAnswer)
public:
    /// Opens the answer over `parent` (window-modal, deleted on close; objectName
    /// "batchSizeAnswer"). `apply` receives the batch whose button was pressed; `current` is the
    /// batch the form holds, offered to keep.
    static QMessageBox* open(QWidget* parent, const BatchSizeResult& result, int64_t current,
                             const std::function<void(int64_t)>& apply);
};

} // namespace entrena::ui
