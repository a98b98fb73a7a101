#include "experiment/ExperimentView.h"

#include "JobRunner.h"
#include "RunTableModel.h"
#include "entrena/experiment/SweepMethodRegistry.h"
#include "experiment/BestSoFarChart.h"
#include "experiment/CrossValidationDialog.h"
#include "experiment/FoldChart.h"
#include "experiment/ParallelCoordinates.h"
#include "form/KeyField.h"
#include "form/KeyLabels.h"
#include "widgets/ScreenFit.h"
#include "entrena/experiment/MetricRegistry.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSet>
#include <QShortcut>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <algorithm>

namespace entrena::ui {

namespace {
constexpr int kRunRole = Qt::UserRole + 1; ///< column 0: the row's run
constexpr int kSortRole = Qt::UserRole;    ///< a cell's value for sorting (numbers as numbers)
} // namespace

/// The trials table follows the brushes: only the runs inside them are shown.
class TrialsProxy : public QSortFilterProxyModel {
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;
    void setShown(const QList<qint64>& runs, bool all)
    {
        shown_ = QSet<qint64>(runs.begin(), runs.end());
        all_ = all;
        invalidateFilter();
    }

protected:
    bool filterAcceptsRow(int row, const QModelIndex& parent) const override
    {
        return all_ || shown_.contains(sourceModel()->index(row, 0, parent).data(kRunRole).toLongLong());
    }

private:
    QSet<qint64> shown_;
    bool all_ = true;
};

// The trials' table (sorted by its numbers) and the lineage of copied weights, as tabs.
void ExperimentView::setUpTabs()
{
    proxy_->setSourceModel(model_);
    proxy_->setSortRole(kSortRole);
    table_->setObjectName(QStringLiteral("trialsTable"));
    table_->setModel(proxy_);
    table_->setSortingEnabled(true);
    table_->sortByColumn(0, Qt::AscendingOrder);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setAlternatingRowColors(true);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setStretchLastSection(true);

    lineage_->setObjectName(QStringLiteral("lineageList"));
    lineage_->setRootIsDecorated(false);
    lineage_->setColumnCount(4);
    lineageNote_->setWordWrap(true);
    auto* lineageLayout = new QVBoxLayout(lineagePage_);
    lineageLayout->addWidget(lineageNote_);
    lineageLayout->addWidget(lineage_, 1);
    tabs_->addTab(table_, QString());
    tabs_->addTab(lineagePage_, QString());
}

// The parallel coordinates and the best-so-far curve above the tabs.
QSplitter* ExperimentView::chartsOverTabs()
{
    auto* charts = new QSplitter(Qt::Horizontal);
    charts->addWidget(parallel_);
    charts->addWidget(best_);
    charts->addWidget(folds_); // a cross-validation's, in their place
    folds_->hide();
    charts->setStretchFactor(0, 3);
    charts->setStretchFactor(1, 2);
    charts->setSizes({3000, 1600});
    auto* body = new QSplitter(Qt::Vertical);
    body->addWidget(charts);
    body->addWidget(tabs_);
    body->setStretchFactor(0, 3);
    body->setStretchFactor(1, 2);
    body->setSizes({3000, 2000}); // the charts first: they are what the table is read against
    return body;
}

void ExperimentView::connectControls()
{
    connect(parallel_, &ParallelCoordinates::selectionChanged, this, &ExperimentView::followBrushes);
    connect(clearBrushes_, &QPushButton::clicked, parallel_, &ParallelCoordinates::clearBrushes);
    connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
        QList<qint64> runs;
        for (const QModelIndex& i : table_->selectionModel()->selectedRows())
            runs << i.data(kRunRole).toLongLong();
        parallel_->setHighlighted(runs);
        updateSummary();
    });
    connect(compare_, &QPushButton::clicked, this, [this] {
        if (runsToCompare().size() >= 2)
            Q_EMIT compareRequested(runsToCompare());
    });
    connect(resume_, &QPushButton::clicked, this, [this] { Q_EMIT resumeRequested(experimentId_); });
    // While the sweep runs its trials progress: read them again every few seconds.
    live_->setInterval(2000);
    connect(live_, &QTimer::timeout, this, &ExperimentView::reload);
    // A window of its own, closed with Escape as a dialog is.
    auto* close = new QShortcut(QKeySequence(Qt::Key_Escape), this);
    connect(close, &QShortcut::activated, this, &QWidget::close);
}

ExperimentView::ExperimentView(const QString& dbPath, qint64 experimentId, QWidget* parent)
    : QWidget(parent)
    , dbPath_(dbPath)
    , experimentId_(experimentId)
    , summary_(new QLabel)
    , selection_(new QLabel)
    , clearBrushes_(new QPushButton)
    , compare_(new QPushButton)
    , resume_(new QPushButton)
    , parallel_(new ParallelCoordinates)
    , best_(new BestSoFarChart)
    , folds_(new FoldChart)
    , tabs_(new QTabWidget)
    , model_(new QStandardItemModel(this))
    , proxy_(new TrialsProxy(this))
    , table_(new QTableView)
    , lineage_(new QTreeWidget)
    , lineageNote_(new QLabel)
    , lineagePage_(new QWidget)
    , live_(new QTimer(this))
{
    setObjectName(QStringLiteral("experimentView"));
    setWindowFlag(Qt::Window);
    setAttribute(Qt::WA_DeleteOnClose);
    sizeToScreen(this, QSize(1280, 800));
    summary_->setObjectName(QStringLiteral("experimentSummary"));
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    selection_->setObjectName(QStringLiteral("experimentSelection"));
    clearBrushes_->setObjectName(QStringLiteral("clearBrushesButton"));
    compare_->setObjectName(QStringLiteral("compareTrialsButton"));
    resume_->setObjectName(QStringLiteral("resumeExperimentButton"));
    resume_->setVisible(false);

    setUpTabs();
    auto* body = chartsOverTabs();
    auto* bar = new QHBoxLayout;
    bar->addWidget(selection_, 1);
    bar->addStretch(); // the buttons keep their width when the brushing text is hidden (cross-validation)
    bar->addWidget(clearBrushes_);
    bar->addWidget(compare_);
    bar->addWidget(resume_);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(summary_);
    layout->addLayout(bar);
    layout->addWidget(body, 1);

    connectControls();
    retranslate();
    reload();
}

ExperimentView::~ExperimentView()
{
    load_.cancel();
}

void ExperimentView::reload()
{
    if (load_.isRunning())
        return;
    const QString db = dbPath_;
    const qint64 id = experimentId_;
    load_ = app::JobRunner::shared()->run(tr("Load experiment"), [db, id](app::JobContext&) {
        RunStore store(db.toStdString());
        return ExperimentData::load(store, id);
    });
    load_.onFinished(this, [this](const ExperimentData& d) { onLoaded(d); }).onFailed(this, [this](const QString& message) {
        live_->stop();
        summary_->setText(tr("Cannot read the experiment: %1").arg(message));
        Q_EMIT failed(message);
    });
}

void ExperimentView::onLoaded(const ExperimentData& data)
{
    data_ = data;
    parallel_->setData(data_);
    best_->setData(data_);
    // Folds are no search: side by side with their mean, not a best-so-far curve and a data.fold axis.
    parallel_->setVisible(!data_.cv);
    best_->setVisible(!data_.cv);
    selection_->setVisible(!data_.cv); // brushing is the parallel axes'
    clearBrushes_->setVisible(!data_.cv);
    folds_->setVisible(data_.cv.has_value());
    if (data_.cv)
        folds_->setSummary(*data_.cv);
    fillTable();
    fillLineage();
    followBrushes();
    if (data_.experiment.status == "running")
        live_->start();
    else
        live_->stop();
    resume_->setVisible(data_.experiment.status == "stopped");
    const bool first = !loaded_;
    loaded_ = true;
    if (first)
        Q_EMIT loaded();
}

QString ExperimentView::metricText(std::optional<double> value) const
{
    if (!value)
        return {};
    const QLocale locale;
    return data_.higherIsBetter() ? locale.toString(*value * 100.0, 'f', 2) + QStringLiteral(" %")
                                  : locale.toString(*value, 'f', 4);
}

void ExperimentView::fillTable()
{
    // Sorting and the selection stay as the reader left them across reloads.
    QList<qint64> selected;
    for (const QModelIndex& i : table_->selectionModel()->selectedRows())
        selected << i.data(kRunRole).toLongLong();
    const int sortColumn = table_->horizontalHeader()->sortIndicatorSection();
    const Qt::SortOrder order = table_->horizontalHeader()->sortIndicatorOrder();
    const int columns = 3 + int(data_.params.size()) + 2;
    const bool reshaped = model_->columnCount() != columns;
    model_->setRowCount(0);
    model_->setColumnCount(columns);
    const QLocale locale;
    const auto cell = [](const QString& text, const QVariant& sort) {
        auto* item = new QStandardItem(text);
        item->setData(sort, kSortRole);
        return item;
    };
    for (const TrialRow& t : data_.trials) {
        QList<QStandardItem*> row;
        row << cell(QString::number(t.trial), t.trial);
        row.front()->setData(qint64(t.runId), kRunRole);
        row << cell(QString::number(t.runId), qint64(t.runId));
        row << cell(app::RunTableModel::statusText(t.status), app::RunTableModel::statusText(t.status));
        for (std::size_t i = 0; i < data_.params.size(); ++i) {
            const std::string& v = i < t.values.size() ? t.values[i] : std::string();
            bool number = false; // the value as stored (JSON), not as shown, is the sort key
            const double x = QString::fromStdString(v).toDouble(&number);
            // Folds are counted from 1 where people read them, as the chart and the runs' names do.
            const bool fold = data_.params[i].first == "data.fold" && number;
            row << cell(fold ? QString::number(qint64(x) + 1) : valueText(v), number ? QVariant(x) : QVariant(QString::fromStdString(v)));
        }
        // No value yet sorts below every value, whichever way the column is sorted for "best".
        row << cell(metricText(t.metric), t.metric ? QVariant(*t.metric) : QVariant(data_.higherIsBetter() ? -1e300 : 1e300));
        row << cell(locale.toString(t.epochs), t.epochs);
        model_->appendRow(row);
    }
    for (int r = 0; r < model_->rowCount(); ++r) // numbers to the right, words to the left
        for (int c = 0; c < columns; ++c)
            if (QStandardItem* item = model_->item(r, c))
                item->setTextAlignment(c == 2 ? Qt::AlignLeft | Qt::AlignVCenter : Qt::AlignRight | Qt::AlignVCenter);
    retranslate(); // the headers
    table_->sortByColumn(sortColumn < columns ? sortColumn : 0, order);
    QItemSelection selection;
    for (int r = 0; r < proxy_->rowCount(); ++r)
        if (selected.contains(proxy_->index(r, 0).data(kRunRole).toLongLong()))
            selection.select(proxy_->index(r, 0), proxy_->index(r, columns - 1));
    table_->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect);
    if (reshaped || !table_->property("fitted").toBool()) {
        table_->resizeColumnsToContents();
        table_->setProperty("fitted", model_->rowCount() > 0);
    } else {
        // Values that arrived since (a metric, a longer status) widen their column; none narrows.
        for (int c = 0; c < columns; ++c)
            table_->setColumnWidth(
                c, std::max(table_->columnWidth(c), static_cast<QAbstractItemView*>(table_)->sizeHintForColumn(c)));
    }
}

void ExperimentView::fillLineage()
{
    lineage_->clear();
    for (const ExploitRow& x : data_.exploits) {
        auto* item = new QTreeWidgetItem(lineage_);
        item->setText(0, QLocale().toString(qlonglong(x.step)));
        item->setText(1, tr("trial %1 (run %2)").arg(x.trial).arg(x.runId));
        item->setText(2, x.sourceTrial >= 0 ? tr("trial %1 (run %2)").arg(x.sourceTrial).arg(x.sourceRun)
                                            : tr("run %1").arg(x.sourceRun));
        item->setText(3, x.changes);
        item->setData(0, Qt::UserRole, qint64(x.runId));
    }
    for (int c = 0; c < lineage_->columnCount(); ++c)
        lineage_->resizeColumnToContents(c);
    // Lineage: for a method that copies weights between trials (pbt), or where copies happened.
    const SweepMethodEntry* method = findSweepMethod(data_.experiment.method);
    tabs_->setTabVisible(1, (method && method->copiesState) || !data_.exploits.empty());
}

QList<qint64> ExperimentView::shownRuns() const
{
    QList<qint64> runs;
    for (int r = 0; r < proxy_->rowCount(); ++r)
        runs << proxy_->index(r, 0).data(kRunRole).toLongLong();
    return runs;
}

QList<qint64> ExperimentView::runsToCompare() const
{
    QList<QModelIndex> rows = table_->selectionModel()->selectedRows();
    std::sort(rows.begin(), rows.end(), [](const QModelIndex& a, const QModelIndex& b) { return a.row() < b.row(); });
    QList<qint64> runs;
    for (const QModelIndex& i : rows)
        runs << i.data(kRunRole).toLongLong();
    return runs.isEmpty() ? shownRuns() : runs;
}

void ExperimentView::followBrushes()
{
    proxy_->setShown(parallel_->selectedRuns(), !parallel_->hasBrush());
    updateSummary();
}

QString ExperimentView::summaryText() const
{
    return summary_->text();
}

QString ExperimentView::crossValidationText() const
{
    const CrossValidationSummary& cv = *data_.cv;
    const QLocale locale;
    QString text = tr("<b>%1</b>: %n-fold cross-validation — %2.", nullptr, cv.folds)
                       .arg(QString::fromStdString(data_.experiment.name).toHtmlEscaped(),
                            experimentStatusText(QString::fromStdString(data_.experiment.status)));
    if (cv.repeats > 1)
        text += QLatin1Char(' ') + tr("Repeated %n times, each with its own folds.", nullptr, cv.repeats);
    text += QLatin1Char(' ') + tr("%1 of %2 fold runs finished.").arg(cv.finished).arg(cv.expected());
    const auto percent = [&locale](double v) { return locale.toString(v * 100.0, 'f', 2); };
    const std::pair<const char*, QString> shown[] = {{"best_val_accuracy", tr("Validation accuracy")},
                                                     {"test_accuracy", tr("Test accuracy")}};
    for (const auto& [key, label] : shown)
        if (const FoldFigure* f = cv.find(key)) {
            QStringList folds;
            for (double v : f->values)
                folds << percent(v);
            text += QStringLiteral("<br>") + tr("%1: <b>%2 % ± %3</b> (mean ± sd; folds: %4)")
                                                 .arg(label, percent(f->mean), percent(f->sd), folds.join(QStringLiteral(", ")));
        }
    return text + CrossValidationDialog::recallText(cv);
}

void ExperimentView::updateSummary()
{
    const ExperimentRecord& e = data_.experiment;
    const QLocale locale;
    if (data_.cv) {
        summary_->setText(crossValidationText());
    } else if (loaded_ || !e.name.empty()) {
        QString text =
            tr("<b>%1</b>: %2, %3 — %4.")
                .arg(QString::fromStdString(e.name).toHtmlEscaped(), methodText(QString::fromStdString(e.method)),
                     registryText(metricOrDefault(e.metric).wins),
                     experimentStatusText(QString::fromStdString(e.status)));
        text += QLatin1Char(' ') + tr("Trials: %1").arg(data_.trials.size());
        if (const int pruned = data_.count(RunStatus::Pruned))
            text += QLatin1Char(' ') + tr("(%1 pruned)").arg(pruned);
        text += QLatin1Char('.');
        if (data_.trialFolds > 0)
            text += QLatin1Char(' ') +
                    tr("Each trial is cross-validated on %n folds; its value is their mean.", nullptr, data_.trialFolds);
        if (const auto b = data_.best()) {
            const TrialRow& t = data_.trials[*b];
            text += QLatin1Char(' ') + (data_.trialFolds > 0 ? tr("Best: trial %1 (its first fold is run %2), %3 over its folds.")
                                                             : tr("Best: trial %1 (run %2), %3."))
                                           .arg(t.trial)
                                           .arg(t.runId)
                                           .arg(metricText(t.metric));
        }
        summary_->setText(text);
    }
    const int shown = proxy_->rowCount();
    selection_->setText(parallel_->hasBrush()
                            ? tr("%1 of %2 trials inside the brushed ranges.").arg(shown).arg(model_->rowCount())
                            : tr("Drag along an axis of the chart to narrow the trials to a range."));
    clearBrushes_->setEnabled(parallel_->hasBrush());
    compare_->setEnabled(runsToCompare().size() >= 2);
}

QString ExperimentView::experimentStatusText(const QString& status)
{
    // An experiment's own words (a run's are feminine in Spanish, an experiment is masculine).
    if (status == QLatin1String("running"))
        return tr("running");
    if (status == QLatin1String("finished"))
        return tr("finished");
    if (status == QLatin1String("stopped"))
        return tr("stopped");
    if (status == QLatin1String("failed"))
        return tr("failed");
    return status;
}

QString ExperimentView::methodText(const QString& method)
{
    const SweepMethodEntry* entry = findSweepMethod(method.toStdString());
    return entry ? registryText(entry->title) : method; // a method this version does not know: its name
}

void ExperimentView::retranslate()
{
    setWindowTitle(tr("Experiment %1 — %2").arg(experimentId_).arg(QString::fromStdString(data_.experiment.name)));
    QStringList headers = {tr("Trial"), tr("Run"), tr("Status")};
    for (const auto& [key, d] : data_.params)
        headers << keyLabel(QString::fromStdString(key)); // the form's words; the key is in the header's tooltip
    if (data_.trialFolds > 0) // a trial's row is its folds' mean
        headers << (data_.higherIsBetter() ? tr("Best mean validation accuracy") : tr("Lowest mean validation loss"));
    else
        headers << (data_.higherIsBetter() ? tr("Best validation accuracy") : tr("Lowest validation loss"));
    headers << tr("Epochs");
    if (model_->columnCount() == headers.size()) {
        model_->setHorizontalHeaderLabels(headers);
        int column = 3;
        for (const auto& [key, d] : data_.params) // the key itself, for --set and the sweep's files
            model_->setHeaderData(column++, Qt::Horizontal, QString::fromStdString(key), Qt::ToolTipRole);
    }
    table_->setAccessibleName(tr("Trials"));
    lineage_->setHeaderLabels({tr("Step"), tr("Trial"), tr("Copied from"), tr("Values (before → after)")});
    lineage_->setAccessibleName(tr("Lineage"));
    lineageNote_->setText(tr("Population-based training: at each step listed, a trial took the weights, optimizer "
                             "state and values of a better one, then perturbed the values."));
    tabs_->setTabText(0, tr("Trials"));
    tabs_->setTabText(1, tr("Lineage"));
    clearBrushes_->setText(tr("Clear ranges"));
    compare_->setText(tr("Compare selected"));
    resume_->setText(tr("Resume sweep"));
    resume_->setToolTip(tr("Continues the stopped sweep: running trials go on from their checkpoints, and it ends with "
                           "the trials it would have had."));
    compare_->setToolTip(tr("Opens the selected trials (or, with none selected, those shown) in the compare view."));
    updateSummary();
}

void ExperimentView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

} // namespace entrena::ui
