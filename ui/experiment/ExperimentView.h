#pragma once

#include "JobHandle.h"
#include "experiment/ExperimentData.h"

#include <QList>
#include <QWidget>

class QLabel;
class QPushButton;
class QStandardItemModel;
class QTabWidget;
class QSplitter;
class QTableView;
class QTimer;
class QTreeWidget;

namespace entrena::ui {

class BestSoFarChart;
class FoldChart;
class ParallelCoordinates;
class TrialsProxy;

/// One experiment (a sweep): its trials as a sortable table (status, values, metric, epochs), the
/// best value so far against wall time, the values against the metric as parallel coordinates
/// (brushing an axis narrows the table to the trials in range), and for population-based training
/// the lineage: which trial copied which, at which step. Trials selected (or brushed) open in the
/// compare view. While the experiment runs, the view reloads every few seconds.
class ExperimentView : public QWidget {
    Q_OBJECT
public:
    /// Loads the experiment as a job of the bridge's runner; loaded() (or failed()) follows.
    ExperimentView(const QString& dbPath, qint64 experimentId, QWidget* parent = nullptr);
    ~ExperimentView() override;

    qint64 experimentId() const { return experimentId_; }
    bool isLoaded() const { return loaded_; }
    const ExperimentData& data() const { return data_; }
    QTableView* trialsTable() const { return table_; }
    ParallelCoordinates* parallelCoordinates() const { return parallel_; }
    BestSoFarChart* bestChart() const { return best_; }
    FoldChart* foldChart() const { return folds_; }
    QTreeWidget* lineage() const { return lineage_; }
    /// The runs the table shows (all, or those inside the brushes), in its order.
    QList<qint64> shownRuns() const;
    /// What "Compare selected" compares: the rows selected in the table, else the runs shown.
    QList<qint64> runsToCompare() const;
    void reload();
    /// A method as the views name it: "random search", "population-based training".
    static QString methodText(const QString& method);
    /// An experiment's status in words: running, finished, stopped, failed.
    static QString experimentStatusText(const QString& status);
    /// The summary line's text (its HTML), for tests.
    QString summaryText() const;

Q_SIGNALS:
    void loaded();
    void failed(const QString& message);
    void compareRequested(const QList<qint64>& runIds);
    /// Resume sweep: the experiment was stopped, and its trials go on from their checkpoints.
    void resumeRequested(qint64 experimentId);

protected:
    void changeEvent(QEvent* event) override;

private:
    // The constructor's parts.
    void setUpTabs();
    QSplitter* chartsOverTabs();
    void connectControls();
    void retranslate();
    void onLoaded(const ExperimentData& data);
    void fillTable();
    void fillLineage();
    void updateSummary();
    QString crossValidationText() const;
    void followBrushes();
    QString metricText(std::optional<double> value) const;

    QString dbPath_;
    qint64 experimentId_;
    ExperimentData data_;
    bool loaded_ = false;
    app::JobHandle<ExperimentData> load_;
    QLabel* summary_;
    QLabel* selection_;
    QPushButton* clearBrushes_;
    QPushButton* compare_;
    QPushButton* resume_;
    ParallelCoordinates* parallel_;
    BestSoFarChart* best_;
    FoldChart* folds_;
    QTabWidget* tabs_;
    QStandardItemModel* model_;
    TrialsProxy* proxy_;
    QTableView* table_;
    QTreeWidget* lineage_;
    QLabel* lineageNote_;
    QWidget* lineagePage_;
    QTimer* live_;
};

} // namespace entrena::ui
