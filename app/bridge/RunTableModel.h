#pragma once

#include "entrena/RunStore.h"

#include <QAbstractTableModel>
#include <QString>

#include <memory>
#include <vector>

namespace entrena::app {

/// The runs of a store as a table, read through the GUI's own (reader) connection.
class RunTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Id, Name, Status, Model, Optimizer, BestValAccuracy, TestAccuracy, SamplesPerSec, Duration, Tags, Created, ColumnCount };

    explicit RunTableModel(QObject* parent = nullptr);
    ~RunTableModel() override;

    /// Opens the store (creating it if need be). On failure the model is empty and the
    /// message is returned.
    QString open(const QString& dbPath);
    /// Re-reads the runs.
    void refresh();

    const RunRecord* runAt(int row) const;
    /// The open store (reader connection), for the run details and edits; null when it failed to open.
    RunStore* store() const { return store_.get(); }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /// The translated name of a status.
    static QString statusText(RunStatus status);

private:
    std::unique_ptr<RunStore> store_;
    std::vector<RunRecord> runs_;
    struct Summary {
        QString model;
        QString optimizer;
        QString tags;
    };
    std::vector<Summary> summaries_;
};

} // namespace entrena::app
