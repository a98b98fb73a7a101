#pragma once

#include <QWidget>

class QTableView;
class QSortFilterProxyModel;

namespace entrena::app {
class RunTableModel;
}

namespace entrena::ui {

/// The runs in the store, newest last, sortable.
class RunsPanel : public QWidget {
    Q_OBJECT
public:
    explicit RunsPanel(QWidget* parent = nullptr);

    /// Opens the store; returns an error message or an empty string.
    QString open(const QString& dbPath);
    void refresh();
    app::RunTableModel* model() const { return model_; }

private:
    app::RunTableModel* model_;
    QSortFilterProxyModel* proxy_;
    QTableView* view_;
};

} // namespace entrena::ui
