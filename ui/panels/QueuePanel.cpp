#include "panels/QueuePanel.h"

#include "runs/RunQueue.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace entrena::ui {

QueuePanel::QueuePanel(RunQueue* queue, QWidget* parent)
    : QWidget(parent)
    , queue_(queue)
    , note_(new QLabel)
    , list_(new QListWidget)
    , up_(new QToolButton)
    , down_(new QToolButton)
    , remove_(new QPushButton)
    , runNext_(new QPushButton)
{
    setObjectName(QStringLiteral("queuePanel"));
    list_->setObjectName(QStringLiteral("queueList"));
    list_->setDragDropMode(QAbstractItemView::InternalMove);
    list_->setDefaultDropAction(Qt::MoveAction);
    list_->setSelectionMode(QAbstractItemView::SingleSelection);
    list_->setAlternatingRowColors(true);
    note_->setWordWrap(true);
    up_->setObjectName(QStringLiteral("queueUp"));
    up_->setArrowType(Qt::UpArrow);
    down_->setObjectName(QStringLiteral("queueDown"));
    down_->setArrowType(Qt::DownArrow);
    remove_->setObjectName(QStringLiteral("queueRemove"));
    runNext_->setObjectName(QStringLiteral("queueRunNext"));

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(up_);
    buttons->addWidget(down_);
    buttons->addWidget(remove_);
    buttons->addStretch(1);
    buttons->addWidget(runNext_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->addWidget(note_);
    layout->addWidget(list_, 1);
    layout->addLayout(buttons);

    connect(queue_, &RunQueue::changed, this, &QueuePanel::rebuild);
    connect(list_, &QListWidget::currentRowChanged, this, &QueuePanel::updateButtons);
    // A drop inside the list moves its row; the queue follows once the view has settled.
    connect(list_->model(), &QAbstractItemModel::rowsMoved, this,
            [this] { QTimer::singleShot(0, this, &QueuePanel::takeOrderFromList); });
    connect(list_->model(), &QAbstractItemModel::rowsRemoved, this, [this] {
        if (!rebuilding_)
            QTimer::singleShot(0, this, &QueuePanel::takeOrderFromList);
    });
    connect(up_, &QToolButton::clicked, this, [this] {
        const int i = currentIndex();
        queue_->move(i, i - 1);
        setCurrentIndex(i - 1);
    });
    connect(down_, &QToolButton::clicked, this, [this] {
        const int i = currentIndex();
        queue_->move(i, i + 1);
        setCurrentIndex(i + 1);
    });
    connect(remove_, &QPushButton::clicked, this, [this] { queue_->remove(currentIndex()); });
    connect(runNext_, &QPushButton::clicked, this, [this] {
        if (currentIndex() >= 0)
            Q_EMIT runNextRequested(currentIndex());
    });
    connect(list_, &QListWidget::itemDoubleClicked, this, [this] { runNext_->click(); });
    rebuild();
    retranslate();
}

int QueuePanel::currentIndex() const
{
    return list_->currentRow();
}

void QueuePanel::setCurrentIndex(int index)
{
    if (index >= 0 && index < list_->count())
        list_->setCurrentRow(index);
}

void QueuePanel::rebuild()
{
    rebuilding_ = true;
    const int current = list_->currentRow();
    list_->clear();
    int i = 0;
    for (const QueuedRun& run : queue_->items()) {
        auto* item = new QListWidgetItem(QStringLiteral("%1. %2 — %3")
                                             .arg(i + 1)
                                             .arg(QString::fromStdString(run.config.name), RunQueue::summaryOf(run.config)));
        item->setData(Qt::UserRole, i++);
        item->setFlags(item->flags() & ~Qt::ItemIsDropEnabled); // dropped between rows, never onto one
        list_->addItem(item);
    }
    list_->setCurrentRow(std::min(current, list_->count() - 1));
    rebuilding_ = false;
    updateButtons();
}

void QueuePanel::takeOrderFromList()
{
    QList<int> order;
    for (int row = 0; row < list_->count(); ++row)
        order << list_->item(row)->data(Qt::UserRole).toInt();
    const int moved = list_->currentRow();
    if (order.size() != queue_->size()) {
        rebuild(); // the view lost or gained a row: show the queue as it is
        return;
    }
    queue_->reorder(order);
    setCurrentIndex(moved);
}

void QueuePanel::updateButtons()
{
    const int i = currentIndex();
    up_->setEnabled(i > 0);
    down_->setEnabled(i >= 0 && i + 1 < list_->count());
    remove_->setEnabled(i >= 0);
    runNext_->setEnabled(i >= 0);
}

void QueuePanel::retranslate()
{
    note_->setText(tr("While a run trains, Start becomes Add to queue, which adds the form's configuration here. When "
                      "the run ends, the first one here starts (one at a time; Stop pauses the queue). Drag to reorder."));
    list_->setAccessibleName(tr("Queued runs"));
    up_->setToolTip(tr("Move up"));
    up_->setAccessibleName(tr("Move up"));
    down_->setToolTip(tr("Move down"));
    down_->setAccessibleName(tr("Move down"));
    remove_->setText(tr("Remove"));
    runNext_->setText(tr("Run next"));
    runNext_->setToolTip(tr("Starts it now when nothing trains; otherwise it starts when the current run ends."));
}

void QueuePanel::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

} // namespace entrena::ui
