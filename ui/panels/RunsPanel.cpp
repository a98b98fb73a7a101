#include "panels/RunsPanel.h"

#include "ChoiceLabels.h"
#include "RunTableModel.h"
#include "dialogs/RunDetailsDialog.h"
#include "report/Report.h"
#include "report/ReportWriter.h"
#include "runs/RunFilterProxy.h"
#include "settings/Settings.h"
#include "widgets/DiskUseBar.h"
#include "widgets/SortArrowStyle.h"

#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QSortFilterProxyModel>
#include <QStyle>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>

namespace entrena::ui {

namespace {
constexpr int kMinimumVisibleRuns = 5;
}

// The table: sorted, filtered through the proxy, several rows selectable, room for five runs.
void RunsPanel::setUpView()
{
    proxy_->setSourceModel(model_);
    proxy_->setSortRole(Qt::EditRole);
    proxy_->setFilterKeyColumn(-1);
    proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
    view_->setObjectName(QStringLiteral("runsView"));
    view_->setModel(proxy_);
    view_->setSortingEnabled(true);
    view_->sortByColumn(app::RunTableModel::Id, Qt::DescendingOrder);
    SortArrowStyle::install(view_->horizontalHeader());
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    view_->setSelectionMode(QAbstractItemView::ExtendedSelection); // several runs → one comparison report
    view_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view_->setAlternatingRowColors(true);
    view_->setWordWrap(false); // one line a run: a long name is elided (its tooltip has it whole), never a taller row
    // …in the middle: generated names differ at their ends ("wine-mlp 5-fold … fold 4"), not at the start.
    view_->setTextElideMode(Qt::ElideMiddle);
    // Tab leaves the list (arrows move in it), as in a file manager: cell by cell it trapped the keyboard.
    view_->setTabKeyNavigation(false);
    view_->setContextMenuPolicy(Qt::CustomContextMenu);
    view_->verticalHeader()->hide();
    view_->horizontalHeader()->setStretchLastSection(true);
    // The outcome beside the name and status, the set-up after it: on a laptop's screen the list shows
    // some nine columns, and the accuracies are what a look at it is for. Headers can be dragged to
    // another order, which the window keeps (WindowLayout).
    auto* header = view_->horizontalHeader();
    header->setSectionsMovable(true);
    header->moveSection(header->visualIndex(app::RunTableModel::BestValAccuracy),
                        header->visualIndex(app::RunTableModel::Status) + 1);
    header->moveSection(header->visualIndex(app::RunTableModel::TestAccuracy),
                        header->visualIndex(app::RunTableModel::BestValAccuracy) + 1);
    // Room for at least five runs, whatever the window's size: the list is where runs are found.
    view_->setMinimumHeight(view_->horizontalHeader()->sizeHint().height() +
                            kMinimumVisibleRuns * view_->verticalHeader()->defaultSectionSize() +
                            view_->horizontalScrollBar()->sizeHint().height() + 2 * view_->frameWidth());
}

// The text, status and tag filters and the compare button above the table.
QHBoxLayout* RunsPanel::filterBar()
{
    filter_->setClearButtonEnabled(true);
    status_->addItem(QString(), QString());
    for (const char* s : {"running", "finished", "stopped", "failed", "diverged", "interrupted", "pruned"})
        status_->addItem(QString(), QString::fromLatin1(s));

    // Sized to their texts whenever those change: sized once, the Spanish "Todos los estados" read
    // "Todos los es" after a switch of language.
    status_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    tag_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    auto* bar = new QHBoxLayout;
    bar->addWidget(filter_, 1);
    bar->addWidget(status_);
    bar->addWidget(tag_);
    tag_->setObjectName(QStringLiteral("tagFilter"));
    status_->setObjectName(QStringLiteral("statusFilter"));
    tag_->addItem(QString(), QString());
    bar->addWidget(compare_);
    compare_->setObjectName(QStringLiteral("compareButton"));
    compare_->setEnabled(false);
    return bar;
}

void RunsPanel::connectControls()
{
    connect(filter_, &QLineEdit::textChanged, this, &RunsPanel::setTextFilter);
    connect(status_, &QComboBox::currentIndexChanged, this, [this] { proxy_->setStatus(status_->currentData().toString()); });
    connect(tag_, &QComboBox::currentIndexChanged, this, [this] { proxy_->setTag(tag_->currentData().toString()); });
    // The column chooser: fixed columns and any hyper-parameter.
    view_->horizontalHeader()->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(view_->horizontalHeader(), &QHeaderView::customContextMenuRequested, this, [this](const QPoint& pos) {
        QMenu* menu = columnMenu(this);
        menu->exec(view_->horizontalHeader()->mapToGlobal(pos));
        delete menu;
    });
    // Runs of other processes (entrena-cli, a cluster job) progress while the GUI looks on.
    liveRefresh_->setInterval(2000);
    connect(liveRefresh_, &QTimer::timeout, this, &RunsPanel::refresh);
    connect(view_, &QTableView::customContextMenuRequested, this, &RunsPanel::contextMenu);
    connect(view_->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            [this] { compare_->setEnabled(selectedRunIds().size() >= 2); });
    connect(compare_, &QPushButton::clicked, this, [this] {
        if (selectedRunIds().size() >= 2)
            Q_EMIT compareRequested(selectedRunIds());
    });
    connect(view_, &QTableView::doubleClicked, this, [this](const QModelIndex& i) { showDetails(runIdAt(i)); });
}

RunsPanel::RunsPanel(QWidget* parent)
    : QWidget(parent)
    , model_(new app::RunTableModel(this))
    , proxy_(new RunFilterProxy(this))
    , view_(new QTableView(this))
    , filter_(new QLineEdit(this))
    , status_(new QComboBox(this))
    , tag_(new QComboBox(this))
    , compare_(new QPushButton(this))
    , readOnly_(new QLabel(this))
    , liveRefresh_(new QTimer(this))
{
    setUpView();
    auto* bar = filterBar();
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    readOnly_->setObjectName(QStringLiteral("readOnlyNote"));
    readOnly_->setWordWrap(true);
    readOnly_->setFrameShape(QFrame::StyledPanel);
    readOnly_->setMargin(6);
    readOnly_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    readOnly_->hide();
    layout->addWidget(readOnly_);
    layout->addLayout(bar);
    layout->addWidget(view_);

    connectControls();
    retranslate();
    // Reading order: the filters above the list, then the list (it was the list first).
    setTabOrder(filter_, status_);
    setTabOrder(status_, tag_);
    setTabOrder(tag_, compare_);
    setTabOrder(compare_, view_);
}

void RunsPanel::retranslate()
{
    filter_->setPlaceholderText(tr("Filter runs by any column…"));
    filter_->setAccessibleName(tr("Filter runs"));
    view_->setAccessibleName(tr("Runs"));
    status_->setItemText(0, tr("All statuses"));
    tag_->setItemText(0, tr("All tags"));
    compare_->setText(tr("Compare"));
    compare_->setToolTip(tr("Select two or more runs (Ctrl+click) to compare them side by side."));
    showReadOnlyNote();
    // The words changed length: fit the columns to them (to the headers alone before any run).
    view_->resizeColumnsToContents();
    if (sized_)
        fitStatusColumn();
    for (int i = 1; i < status_->count(); ++i)
        status_->setItemText(i,
                             app::RunTableModel::statusText(runStatusFromString(status_->itemData(i).toString().toStdString())));
}

void RunsPanel::fitStatusColumn()
{
    // Every status the column can show fits, not only those present when it was sized: a run that
    // starts later must not read "runn…".
    const QFontMetrics metrics(view_->font());
    int widest = view_->horizontalHeader()->sectionSize(app::RunTableModel::Status);
    const int margins = 2 * (view_->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, view_) + 1) + 2;
    for (RunStatus s : {RunStatus::Running, RunStatus::Finished, RunStatus::Stopped, RunStatus::Failed, RunStatus::Diverged,
                        RunStatus::Interrupted, RunStatus::Pruned})
        widest = std::max(widest, metrics.horizontalAdvance(app::RunTableModel::statusText(s)) + margins);
    if (view_->columnWidth(app::RunTableModel::Status) < widest)
        view_->setColumnWidth(app::RunTableModel::Status, widest);
}

void RunsPanel::fitNewNames()
{
    // A run started after the columns were fitted is named by what differs ("· batch_size 256"),
    // often longer than the names already there: widen the name column for it, never narrow it.
    int widest = view_->columnWidth(app::RunTableModel::Name);
    qint64 newest = fittedUpTo_;
    for (int row = 0; row < proxy_->rowCount(); ++row) {
        const QModelIndex name = proxy_->index(row, app::RunTableModel::Name);
        const qint64 id = runIdAt(name);
        if (id > fittedUpTo_)
            widest = std::max(widest, view_->sizeHintForIndex(name).width());
        newest = std::max(newest, id);
    }
    fittedUpTo_ = newest;
    if (widest > view_->columnWidth(app::RunTableModel::Name))
        view_->setColumnWidth(app::RunTableModel::Name, widest);
}

void RunsPanel::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

QString RunsPanel::open(const QString& dbPath)
{
    const QString error = model_->open(dbPath);
    const QStringList hidden = Settings::hiddenRunColumns.value();
    for (int c = 0; c < app::RunTableModel::ColumnCount; ++c)
        view_->setColumnHidden(c, hidden.contains(QString::number(c)));
    model_->setParameterColumns(Settings::runParameterColumns.value());
    model_->setBaselineTolerance(Settings::baselineTolerance.value() / 100.0);
    refresh();
    showReadOnlyNote();
    return error;
}

void RunsPanel::showReadOnlyNote()
{
    QString why;
    switch (model_->readOnlyCause()) {
    case ReadOnlyCause::Writable:
        readOnly_->hide();
        return;
    case ReadOnlyCause::ReadOnlyMedia:
        why = tr("it is on read-only media");
        break;
    case ReadOnlyCause::NoPermission:
        why = tr("you may not write to it or to its folder");
        break;
    case ReadOnlyCause::DiskFull:
        why = tr("the disk holding it is full");
        break;
    case ReadOnlyCause::Other:
        why = tr("it cannot be written here");
        break;
    }
    readOnly_->setText(tr("This run store can only be read: %1. Its runs can be viewed, compared, exported and tried, "
                          "not changed, and new runs cannot be stored in it. To train, free space or start Entrena with a "
                          "writable store (entrena --db FILE); to keep these runs, import them into yours: entrena-cli import "
                          "FILE.")
                           .arg(why));
    readOnly_->setAccessibleName(tr("Read-only run store"));
    readOnly_->show();
}

void RunsPanel::refresh()
{
    // A refresh re-reads every run; what the user selected stays selected.
    const QList<qint64> selected = selectedRunIds();
    model_->refresh();
    selectRuns(selected);
    refreshTags();
    Q_EMIT refreshed();
    // Fitting the columns measures every cell: on the first rows only, not on every refresh.
    if (!sized_ && model_->rowCount() == 0) {
        view_->resizeColumnsToContents(); // no run yet: the headers, readable
    } else if (!sized_) {
        view_->resizeColumnsToContents();
        fitStatusColumn();
        sized_ = true;
        for (int row = 0; row < model_->rowCount(); ++row)
            if (const RunRecord* r = model_->runAt(row))
                fittedUpTo_ = std::max(fittedUpTo_, qint64(r->id));
    } else if (sized_) {
        fitNewNames();
    }
    if (model_->anyRunning() && !liveRefresh_->isActive())
        liveRefresh_->start();
    else if (!model_->anyRunning())
        liveRefresh_->stop();
}

void RunsPanel::refreshTags()
{
    const QString current = tag_->currentData().toString();
    const QStringList tags = model_->allTags();
    QStringList shown;
    for (int i = 1; i < tag_->count(); ++i)
        shown << tag_->itemData(i).toString();
    if (shown == tags)
        return;
    const QSignalBlocker block(tag_);
    while (tag_->count() > 1)
        tag_->removeItem(1);
    for (const QString& t : tags)
        tag_->addItem(t, t);
    const int i = tag_->findData(current);
    tag_->setCurrentIndex(i >= 0 ? i : 0);
    proxy_->setTag(tag_->currentData().toString());
}

QHeaderView* RunsPanel::header() const
{
    return view_->horizontalHeader();
}

QVector<NamedRun> RunsPanel::namedRuns() const
{
    QVector<NamedRun> runs;
    for (int row = 0; row < model_->rowCount(); ++row)
        if (const RunRecord* r = model_->runAt(row))
            runs.push_back({r->id, QString::fromStdString(r->name), QString::fromStdString(r->configJson)});
    return runs;
}

void RunsPanel::setTagFilter(const QString& tag)
{
    const int i = tag_->findData(tag);
    tag_->setCurrentIndex(i >= 0 ? i : 0);
}

void RunsPanel::setColumnVisible(int column, bool visible)
{
    view_->setColumnHidden(column, !visible);
    QStringList hidden;
    for (int c = 0; c < app::RunTableModel::ColumnCount; ++c)
        if (view_->isColumnHidden(c))
            hidden << QString::number(c);
    Settings::hiddenRunColumns.set(hidden);
    if (visible)
        view_->resizeColumnToContents(column);
}

void RunsPanel::setParameterColumns(const QStringList& keys)
{
    model_->setParameterColumns(keys);
    Settings::runParameterColumns.set(keys);
    view_->resizeColumnsToContents();
}

QMenu* RunsPanel::columnMenu(QWidget* parent)
{
    auto* menu = new QMenu(parent);
    // In the order on screen (headers can be dragged), the fixed columns only.
    for (int visual = 0; visual < view_->horizontalHeader()->count(); ++visual) {
        const int c = view_->horizontalHeader()->logicalIndex(visual);
        if (c >= app::RunTableModel::ColumnCount)
            continue;
        QAction* a = menu->addAction(model_->headerData(c, Qt::Horizontal).toString());
        a->setCheckable(true);
        a->setChecked(!view_->isColumnHidden(c));
        a->setEnabled(c != app::RunTableModel::Name); // a run always has its name
        connect(a, &QAction::toggled, this, [this, c](bool on) { setColumnVisible(c, on); });
    }
    QMenu* parameters = menu->addMenu(tr("Hyper-parameters"));
    const QStringList chosen = model_->parameterColumns();
    for (const QString& key : model_->availableParameters()) {
        QAction* a = parameters->addAction(key);
        a->setCheckable(true);
        a->setChecked(chosen.contains(key));
        connect(a, &QAction::toggled, this, [this, key](bool on) {
            QStringList keys = model_->parameterColumns();
            keys.removeAll(key);
            if (on)
                keys << key;
            setParameterColumns(keys);
        });
    }
    parameters->setEnabled(!parameters->isEmpty());
    return menu;
}

int RunsPanel::visibleRows() const
{
    return proxy_->rowCount();
}

void RunsPanel::setTextFilter(const QString& text)
{
    proxy_->setFilterFixedString(text);
}

void RunsPanel::setStatusFilter(const QString& status)
{
    const int i = status_->findData(status);
    status_->setCurrentIndex(i >= 0 ? i : 0);
}

qint64 RunsPanel::runIdAt(const QModelIndex& proxyIndex) const
{
    const RunRecord* r = model_->runAt(proxy_->mapToSource(proxyIndex).row());
    return r ? r->id : 0;
}

void RunsPanel::showDetails(qint64 runId, bool tryIt)
{
    RunStore* store = model_->store();
    if (!store || runId <= 0)
        return;
    RunDetailsDialog dialog(*store, runId, this);
    if (tryIt)
        dialog.showTryIt();
    dialog.exec();
    refresh();
}

QList<qint64> RunsPanel::selectedRunIds() const
{
    QList<QModelIndex> rows = view_->selectionModel()->selectedRows();
    std::sort(rows.begin(), rows.end(), [](const QModelIndex& a, const QModelIndex& b) { return a.row() < b.row(); });
    QList<qint64> ids;
    for (const QModelIndex& i : rows)
        if (const qint64 id = runIdAt(i); id > 0)
            ids << id;
    return ids;
}

void RunsPanel::selectRuns(const QList<qint64>& runIds)
{
    QItemSelection selection;
    for (int row = 0; row < proxy_->rowCount(); ++row)
        if (runIds.contains(runIdAt(proxy_->index(row, 0))))
            selection.select(proxy_->index(row, 0), proxy_->index(row, proxy_->columnCount() - 1));
    view_->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect);
}

void RunsPanel::exportReportOfSelection()
{
    const QList<qint64> ids = selectedRunIds();
    if (ids.isEmpty()) {
        QMessageBox::information(this, tr("Export report"),
                                 tr("Select one run, or several to compare (Ctrl+click), in the runs list first."));
        return;
    }
    const QString folder = Settings::lastExportFolder.value();
    const QString name =
        ids.size() == 1 ? QStringLiteral("run-%1-report.pdf").arg(ids.front()) : QStringLiteral("comparison-report.pdf");
    QString filter;
    QString path =
        QFileDialog::getSaveFileName(this, tr("Export report"), QDir(folder.isEmpty() ? QDir::homePath() : folder).filePath(name),
                                     tr("PDF (*.pdf)") + QStringLiteral(";;") + tr("HTML, self-contained (*.html)"), &filter);
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += filter.contains(QLatin1String("html")) ? QStringLiteral(".html") : QStringLiteral(".pdf");
    Settings::lastExportFolder.set(QFileInfo(path).absolutePath());
    const QString error = exportReport(ids, path);
    if (!error.isEmpty())
        QMessageBox::warning(this, tr("Export report"), error);
}

QString RunsPanel::exportReport(const QList<qint64>& runIds, const QString& path)
{
    RunStore* store = model_->store();
    if (!store)
        return tr("The run store is not open.");
    // Charts are widgets, so the report renders on this thread: about a second for a few runs.
    QApplication::setOverrideCursor(Qt::WaitCursor);
    QString error;
    try {
        error = writeReport(Report::load(*store, runIds), path);
    } catch (const std::exception& e) {
        error = QString::fromStdString(e.what());
    }
    QApplication::restoreOverrideCursor();
    return error;
}

// Mark the run as its data set's baseline, or clear it where it is one.
void RunsPanel::addBaselineAction(QMenu& menu, const RunRecord& r)
{
    const BaselineComparison* vs = model_->comparison(r.id);
    if (vs && vs->isBaseline) {
        menu.addAction(tr("Clear baseline"), this, [this, r] { model_->setBaseline(r.id, false); });
    } else {
        // The data set in the form's words ("Fashion-MNIST"), the rest of its key as it is (a table's file).
        QString dataset = QString::fromStdString(datasetKey(r.configJson));
        const QString name = dataset.section(QRegularExpression(QStringLiteral("[:,]")), 0, 0);
        dataset.replace(0, name.size(), app::ChoiceLabels::dataset(name));
        QAction* mark = menu.addAction(tr("Mark as baseline for %1").arg(dataset), this, [this, r] {
            const QString error = model_->setBaseline(r.id, true);
            if (!error.isEmpty())
                QMessageBox::warning(this, tr("Baseline"), error);
        });
        mark->setObjectName(QStringLiteral("markBaselineAction"));
        mark->setEnabled(r.status == RunStatus::Finished);
    }
}

// What changes the store: rename, archive, free the checkpoints' space, delete.
void RunsPanel::addStoreActions(QMenu& menu, const RunRecord& r, RunStore* store)
{
    menu.addAction(tr("Rename…"), this, [this, r, store] {
        bool ok = false;
        const QString name =
            QInputDialog::getText(this, tr("Rename run"), tr("Name:"), QLineEdit::Normal, QString::fromStdString(r.name), &ok);
        if (ok && !name.trimmed().isEmpty()) {
            store->rename(r.id, name.trimmed().toStdString());
            refresh();
        }
    });
    menu.addAction(tr("Archive"), this, [this, r, store] {
        store->setArchived(r.id, true);
        refresh();
    });
    QAction* freeSpace = menu.addAction(tr("Delete checkpoints (keep metrics)…"), this, [this, r, store] {
        if (DiskUseBar::freeCheckpoints(this, *store, {r}))
            refresh();
    });
    freeSpace->setObjectName(QStringLiteral("deleteCheckpointsAction"));
    // Not for a run that trains, one whose checkpoints are gone already, or a store that can only be read.
    freeSpace->setEnabled(r.status != RunStatus::Running && !store->readOnly() && !store->checkpoints(r.id).empty());
    QAction* remove = menu.addAction(tr("Delete…"), this, [this, r, store] { deleteAsked(r, *store); });
    remove->setEnabled(r.status != RunStatus::Running);
    if (store->readOnly()) // nothing here can change a store that can only be read: offered, greyed
        for (QAction* a : menu.actions().mid(menu.actions().indexOf(remove) - 3, 4))
            a->setEnabled(false);
}

void RunsPanel::deleteAsked(const RunRecord& r, RunStore& store)
{
    const auto answer =
        QMessageBox::question(this, tr("Delete run"),
                              tr("Delete run %1 “%2” with its metrics and checkpoint files? This cannot be undone.")
                                  .arg(r.id)
                                  .arg(QString::fromStdString(r.name)));
    if (answer != QMessageBox::Yes)
        return;
    try {
        const auto left = store.deleteRun(r.id);
        if (!left.empty())
            QMessageBox::warning(
                this, tr("Delete run"),
                tr("The run was deleted, but %n checkpoint file(s) could not be removed.", nullptr, int(left.size())));
    } catch (const std::exception& e) {
        QMessageBox::warning(this, tr("Delete run"), QString::fromStdString(e.what()));
    }
    refresh();
}

void RunsPanel::contextMenu(const QPoint& pos)
{
    const QModelIndex index = view_->indexAt(pos);
    const RunRecord* run = model_->runAt(proxy_->mapToSource(index).row());
    RunStore* store = model_->store();
    if (!run || !store)
        return;
    const RunRecord r = *run; // the model may reset while the menu is open
    QMenu menu(this);
    menu.addAction(tr("Details…"), this, [this, r] { showDetails(r.id); });
    QAction* tryIt = menu.addAction(tr("Try the model…"), this, [this, r] { showDetails(r.id, true); });
    tryIt->setEnabled(!store->checkpoints(r.id).empty());
    menu.addAction(tr("Run again"), this, [this, r] { Q_EMIT runAgainRequested(QString::fromStdString(r.configJson)); });
    if (r.experiment > 0)
        menu.addAction(tr("Open experiment %1 (trial %2)").arg(r.experiment).arg(r.trial), this,
                       [this, r] { Q_EMIT experimentRequested(r.experiment); });
    QAction* resume = menu.addAction(tr("Resume"), this, [this, r] { Q_EMIT resumeRequested(r.id); });
    resume->setEnabled(r.status == RunStatus::Stopped || r.status == RunStatus::Interrupted || r.status == RunStatus::Failed ||
                       r.status == RunStatus::Pruned);
    // A report of the selection when the clicked run is part of it, else of that run.
    QList<qint64> reportRuns = selectedRunIds();
    if (!reportRuns.contains(r.id))
        reportRuns = {r.id};
    if (reportRuns.size() > 1)
        menu.addAction(tr("Compare %n runs", nullptr, int(reportRuns.size())), this,
                       [this, reportRuns] { Q_EMIT compareRequested(reportRuns); });
    menu.addAction(reportRuns.size() > 1 ? tr("Export comparison report…") : tr("Export report…"), this, [this, reportRuns] {
        selectRuns(reportRuns);
        exportReportOfSelection();
    });
    menu.addSeparator();
    addBaselineAction(menu, r);
    addStoreActions(menu, r, store);
    menu.exec(view_->viewport()->mapToGlobal(pos));
}

} // namespace entrena::ui
