#pragma once

#include "runs/RunNaming.h"

#include <QWidget>

class QHBoxLayout;
class QHeaderView;

class QComboBox;
class QLabel;
class QLineEdit;
class QMenu;
class QTimer;
class QPushButton;
class QTableView;

namespace entrena {
struct RunRecord;
class RunStore;
} // namespace entrena
namespace entrena::app {
class RunTableModel;
}

namespace entrena::ui {

class RunFilterProxy;

/// The runs in the store: filter by text and status, sort, and act on a run from its context
/// menu (details, run again, resume, rename, archive, delete, report) or by double-click (details).
class RunsPanel : public QWidget {
    Q_OBJECT
public:
    explicit RunsPanel(QWidget* parent = nullptr);

    /// Opens the store; returns an error message or an empty string. A store that can only be read
    /// here (read-only media, a full disk) is listed, with a note saying so over the list.
    QString open(const QString& dbPath);
    void refresh();
    app::RunTableModel* model() const { return model_; }
    /// The list's column header (its widths and order are remembered with the window).
    QHeaderView* header() const;
    /// Rows shown after filtering.
    int visibleRows() const;
    void setTextFilter(const QString& text);
    void setStatusFilter(const QString& status); ///< "" : all
    void setTagFilter(const QString& tag);       ///< "" : all
    /// Shows or hides a fixed column (RunTableModel::Column); remembered across sessions.
    void setColumnVisible(int column, bool visible);
    /// Hyper-parameter columns ("optimizer.lr", …) after the fixed ones; remembered.
    void setParameterColumns(const QStringList& keys);
    /// The column chooser (what right-clicking the header shows), built for the current runs.
    QMenu* columnMenu(QWidget* parent);

    /// Opens the details dialog of a run (what double-click does); `tryIt`: opened on its "Try it" tab.
    void showDetails(qint64 runId, bool tryIt = false);

    /// Every run's id, name and configuration (for naming a new run by what differs).
    QVector<NamedRun> namedRuns() const;

    /// The selected runs, in the order shown.
    QList<qint64> selectedRunIds() const;
    void selectRuns(const QList<qint64>& runIds);
    /// Asks for a file and writes a report (PDF or HTML) of the selected runs.
    void exportReportOfSelection();
    /// Writes a report of `runIds` to `path`; returns an empty string or the error message.
    QString exportReport(const QList<qint64>& runIds, const QString& path);

Q_SIGNALS:
    void runAgainRequested(const QString& configJson);
    void resumeRequested(qint64 runId);
    /// Two or more runs to open side by side.
    void compareRequested(const QList<qint64>& runIds);
    /// The list was read again (a run started or ended, was deleted or lost its checkpoints).
    void refreshed();
    /// The experiment (sweep) a run is a trial of.
    void experimentRequested(qint64 experimentId);

protected:
    void changeEvent(QEvent* event) override;

private:
    // The constructor's parts.
    void setUpView();
    QHBoxLayout* filterBar();
    void connectControls();
    void retranslate();
    /// The note over the list when the store can only be read here: why, and what still works.
    void showReadOnlyNote();
    void contextMenu(const QPoint& pos);
    void addBaselineAction(QMenu& menu, const RunRecord& r);
    void addStoreActions(QMenu& menu, const RunRecord& r, RunStore* store);
    /// Deletes the run after asking, and says which files could not be removed.
    void deleteAsked(const RunRecord& r, RunStore& store);
    void refreshTags();
    void fitStatusColumn();
    void fitNewNames();
    qint64 runIdAt(const QModelIndex& proxyIndex) const;

    app::RunTableModel* model_;
    RunFilterProxy* proxy_;
    QTableView* view_;
    QLineEdit* filter_;
    QComboBox* status_;
    QComboBox* tag_;
    QPushButton* compare_;
    QLabel* readOnly_;
    QTimer* liveRefresh_;
    bool sized_ = false;
    qint64 fittedUpTo_ = 0; ///< the newest run whose name the name column was fitted to
};

} // namespace entrena::ui
