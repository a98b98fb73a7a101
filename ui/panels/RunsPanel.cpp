#include "panels/RunsPanel.h"

#include "RunTableModel.h"

#include <QHeaderView>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace entrena::ui {

RunsPanel::RunsPanel(QWidget* parent)
    : QWidget(parent)
    , model_(new app::RunTableModel(this))
    , proxy_(new QSortFilterProxyModel(this))
    , view_(new QTableView(this))
{
    proxy_->setSourceModel(model_);
    proxy_->setSortRole(Qt::EditRole);
    view_->setObjectName(QStringLiteral("runsView"));
    view_->setModel(proxy_);
    view_->setSortingEnabled(true);
    view_->sortByColumn(app::RunTableModel::Id, Qt::DescendingOrder);
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    view_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view_->setAlternatingRowColors(true);
    view_->verticalHeader()->hide();
    view_->horizontalHeader()->setStretchLastSection(true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(view_);
}

QString RunsPanel::open(const QString& dbPath)
{
    const QString error = model_->open(dbPath);
    view_->resizeColumnsToContents();
    return error;
}

void RunsPanel::refresh()
{
    model_->refresh();
    view_->resizeColumnsToContents();
}

} // namespace entrena::ui
