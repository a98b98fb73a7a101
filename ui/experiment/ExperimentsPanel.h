#pragma once

#include <QWidget>

class QLabel;
class QPushButton;
class QTableWidget;

namespace entrena {
class RunStore;
}

namespace entrena::ui {

/// The store's experiments (sweeps), beside the runs list: name, method, status, trials (pruned),
/// the best trial's metric. Double-click or Open shows one in its experiment view.
class ExperimentsPanel : public QWidget {
    Q_OBJECT
public:
    explicit ExperimentsPanel(QWidget* parent = nullptr);

    /// Reads the experiments again from `store` (the runs list's reader connection; may be null).
    void refresh(RunStore* store);
    QTableWidget* table() const { return table_; }
    int count() const;

Q_SIGNALS:
    void openRequested(qint64 experimentId);

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    qint64 currentId() const;

    QLabel* note_;
    QTableWidget* table_;
    QPushButton* open_;
    bool fitted_ = false;
};

} // namespace entrena::ui
