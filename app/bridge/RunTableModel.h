#pragma once

#include "entrena/store/Baseline.h"
#include "entrena/store/RunStore.h"

#include <QAbstractTableModel>
#include <QMap>
#include <QString>
#include <QStringList>

#include <map>
#include <memory>
#include <vector>

namespace entrena::app {

/// The runs of a store as a table, read through the GUI's own (reader) connection.
class RunTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    /// The fixed columns; hyper-parameter columns (setParameterColumns) follow them.
    enum Column {
        Id,
        Name,
        Status,
        Dataset,
        Model,
        Optimizer,
        Scheduler,
        BestValAccuracy,
        TestAccuracy,
        FinalLoss,
        Duration,
        SamplesPerSec,
        PeakMemory,
        Tags,
        Created,
        SpeedUp,       ///< against the data set's baseline: time to its final accuracy
        DeltaAccuracy, ///< final accuracy minus the baseline's
        ColumnCount
    };

    explicit RunTableModel(QObject* parent = nullptr);
    ~RunTableModel() override;

    /// Opens the store (creating it if need be). On failure the model is empty and the
    /// message is returned.
    QString open(const QString& dbPath);
    /// Re-reads the runs.
    void refresh();

    const RunRecord* runAt(int row) const;
    /// The row of a run, or -1.
    int rowOf(int64_t runId) const;
    bool anyRunning() const;
    /// Why the open store can only be read here (Writable: it can be written, or none is open).
    ReadOnlyCause readOnlyCause() const { return store_ ? store_->readOnlyCause() : ReadOnlyCause::Writable; }

    /// Extra columns, one per configuration key ("optimizer.lr"), after the fixed ones.
    void setParameterColumns(const QStringList& keys);
    QStringList parameterColumns() const { return parameterKeys_; }
    /// Every configuration key of the runs shown, sorted: what setParameterColumns() can take.
    QStringList availableParameters() const;
    /// Every tag of the runs shown, sorted.
    QStringList allTags() const;
    /// The open store (reader connection), for the run details and edits; null when it failed to open.
    RunStore* store() const { return store_.get(); }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /// How much worse than its baseline a faster run may end before it is flagged (accuracy,
    /// 0.005: half a percentage point).
    void setBaselineTolerance(double tolerance);
    /// The run's comparison with its data set's baseline, if that has one.
    const BaselineComparison* comparison(int64_t runId) const;
    /// Marks the run as its data set's baseline (or clears it); the message on failure.
    QString setBaseline(int64_t runId, bool baseline);

    /// The translated name of a status.
    static QString statusText(RunStatus status);

private:
    std::unique_ptr<RunStore> store_;
    std::vector<RunRecord> runs_;
    struct Summary {
        QString dataset;
        QString model;
        QString optimizer;
        QString scheduler;
        QStringList tags;
        QMap<QString, QString> parameters; ///< flattened configuration
    };
    std::vector<Summary> summaries_;
    QStringList parameterKeys_;
    double tolerance_ = 0.005;
    std::map<int64_t, BaselineComparison> comparisons_;
    /// Comparisons of runs that no longer change, by run, with the baseline they were made against.
    std::map<int64_t, BaselineComparison> settled_;
    void compareWithBaselines();
    QVariant baselineData(const RunRecord& run, int column, int role) const;
};

} // namespace entrena::app
