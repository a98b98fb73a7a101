#pragma once

#include <QSortFilterProxyModel>
#include <QTimer>

namespace entrena::ui {

/// The runs list's view of the model: text over every column, an exact status, a tag; and a
/// pulsing dot beside running runs, so a live run is seen at a glance.
class RunFilterProxy : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit RunFilterProxy(QObject* parent = nullptr);

    void setStatus(const QString& status); ///< "" : any
    void setTag(const QString& tag);       ///< "" : any
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    /// Whether the dot is in its bright phase (for tests).
    bool pulse() const { return pulse_; }

protected:
    bool filterAcceptsRow(int row, const QModelIndex& parent) const override;

private:
    void tick();

    QString status_;
    QString tag_;
    QTimer timer_;
    bool pulse_ = true;
};

} // namespace entrena::ui
