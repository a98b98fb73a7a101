#pragma once
// How much disk the run store takes, under the runs list, and the way to free it: the checkpoints
// of archived and pruned runs, or of one run (its right-click menu), deleted with a confirmation
// that says how much goes; the runs keep their metrics (docs/run-store.md#disk-use).

#include <QList>
#include <QWidget>

class QLabel;
class QToolButton;

namespace entrena {
class RunStore;
struct RunRecord;
} // namespace entrena

namespace entrena::ui {

class DiskUseBar : public QWidget {
    Q_OBJECT
public:
    explicit DiskUseBar(QWidget* parent = nullptr);

    /// Reads the store's disk use again (after a run ends, is deleted or loses its checkpoints).
    void update(RunStore* store);
    QString text() const;

    /// Asks, saying how much it frees, then deletes the checkpoints of `runs`; true when it did.
    static bool freeCheckpoints(QWidget* parent, RunStore& store, const QList<RunRecord>& runs);

Q_SIGNALS:
    /// Checkpoints were deleted: the runs list refreshes.
    void freed();

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    void freeArchivedAndPruned();

    RunStore* store_ = nullptr;
    QLabel* label_;
    QToolButton* free_;
    qint64 files_ = 0, storeFile_ = 0;
};

} // namespace entrena::ui
