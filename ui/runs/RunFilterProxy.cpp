#include "runs/RunFilterProxy.h"

#include "RunTableModel.h"

#include <QColor>
#include <QIcon>
#include <QPainter>
#include <QPixmap>

namespace entrena::ui {
namespace {

QIcon dot(const QColor& color)
{
    QPixmap p(12, 12);
    p.fill(Qt::transparent);
    QPainter painter(&p);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(Qt::NoPen);
    painter.setBrush(color);
    painter.drawEllipse(QRectF(2, 2, 8, 8));
    return QIcon(p);
}

bool running(const QModelIndex& index)
{
    return index.siblingAtColumn(app::RunTableModel::Status).data(Qt::UserRole).toString() == QLatin1String("running");
}

} // namespace

RunFilterProxy::RunFilterProxy(QObject* parent)
    : QSortFilterProxyModel(parent)
{
    timer_.setInterval(600);
    connect(&timer_, &QTimer::timeout, this, &RunFilterProxy::tick);
    timer_.start();
}

void RunFilterProxy::setStatus(const QString& status)
{
    status_ = status;
    invalidateFilter();
}

void RunFilterProxy::setTag(const QString& tag)
{
    tag_ = tag;
    invalidateFilter();
}

bool RunFilterProxy::filterAcceptsRow(int row, const QModelIndex& parent) const
{
    const QModelIndex status = sourceModel()->index(row, app::RunTableModel::Status, parent);
    if (!status_.isEmpty() && status.data(Qt::UserRole).toString() != status_)
        return false;
    if (!tag_.isEmpty() && !status.data(Qt::UserRole + 1).toStringList().contains(tag_))
        return false;
    return QSortFilterProxyModel::filterAcceptsRow(row, parent);
}

QVariant RunFilterProxy::data(const QModelIndex& index, int role) const
{
    if (role == Qt::DecorationRole && index.column() == app::RunTableModel::Status && running(index)) {
        static const QIcon bright = dot(QColor(44, 160, 44)), dim = dot(QColor(44, 160, 44, 70));
        return pulse_ ? bright : dim;
    }
    return QSortFilterProxyModel::data(index, role);
}

void RunFilterProxy::tick()
{
    // Repaint only the status cells of running runs; nothing at all when none runs.
    bool any = false;
    for (int row = 0; row < rowCount(); ++row) {
        const QModelIndex i = index(row, app::RunTableModel::Status);
        if (running(i)) {
            if (!any)
                pulse_ = !pulse_;
            any = true;
            Q_EMIT dataChanged(i, i, {Qt::DecorationRole});
        }
    }
}

} // namespace entrena::ui
