#pragma once

#include "entrena/RunStore.h"

#include <QDialog>

class QLineEdit;
class QPlainTextEdit;
class QTableWidget;

namespace entrena::ui {

/// One run: its summary, configuration, events and checkpoints; notes and tags editable.
class RunDetailsDialog : public QDialog {
    Q_OBJECT
public:
    RunDetailsDialog(RunStore& store, int64_t runId, QWidget* parent = nullptr);

    void accept() override;

    /// Checkpoint rows whose file no longer exists (for tests).
    int missingCheckpoints() const { return missing_; }

private:
    RunStore& store_;
    int64_t runId_;
    QPlainTextEdit* notes_;
    QLineEdit* tags_;
    int missing_ = 0;
};

} // namespace entrena::ui
