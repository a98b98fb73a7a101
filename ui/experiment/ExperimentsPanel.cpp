#include "experiment/ExperimentsPanel.h"

#include "entrena/experiment/CrossValidation.h"
#include "entrena/store/RunStore.h"
#include "experiment/ExperimentView.h"
#include "entrena/experiment/MetricRegistry.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace entrena::ui {

namespace {
enum Column { Id, Name, Method, Status, Trials, Best, Created, ColumnCount };

QTableWidgetItem* cell(const QString& text, bool number = false)
{
    auto* item = new QTableWidgetItem(text);
    item->setTextAlignment((number ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter);
    return item;
}
} // namespace

ExperimentsPanel::ExperimentsPanel(QWidget* parent)
    : QWidget(parent)
    , note_(new QLabel)
    , table_(new QTableWidget(0, ColumnCount))
    , open_(new QPushButton)
{
    setObjectName(QStringLiteral("experimentsPanel"));
    table_->setObjectName(QStringLiteral("experimentsTable"));
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setAlternatingRowColors(true);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setStretchLastSection(true);
    note_->setWordWrap(true);
    open_->setObjectName(QStringLiteral("openExperimentButton"));
    open_->setEnabled(false);
    auto* bar = new QHBoxLayout;
    bar->addWidget(note_, 1);
    bar->addWidget(open_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->addLayout(bar);
    layout->addWidget(table_, 1);
    connect(table_, &QTableWidget::itemSelectionChanged, this, [this] { open_->setEnabled(currentId() > 0); });
    connect(table_, &QTableWidget::cellDoubleClicked, this, [this] {
        if (currentId() > 0)
            Q_EMIT openRequested(currentId());
    });
    connect(open_, &QPushButton::clicked, this, [this] {
        if (currentId() > 0)
            Q_EMIT openRequested(currentId());
    });
    retranslate();
}

int ExperimentsPanel::count() const
{
    return table_->rowCount();
}

qint64 ExperimentsPanel::currentId() const
{
    const int row = table_->currentRow();
    return row >= 0 && table_->item(row, Id) ? table_->item(row, Id)->data(Qt::UserRole).toLongLong() : 0;
}

void ExperimentsPanel::refresh(RunStore* store)
{
    if (!store)
        return;
    const qint64 current = currentId();
    std::vector<ExperimentRecord> experiments;
    try {
        experiments = store->listExperiments();
    } catch (const std::exception&) {
        return; // the store is busy or gone; the next refresh tries again
    }
    const QLocale locale;
    table_->setRowCount(int(experiments.size()));
    int row = 0;
    // Newest first, as the runs list.
    for (auto it = experiments.rbegin(); it != experiments.rend(); ++it, ++row) {
        const ExperimentRecord& e = *it;
        const bool higher = metricOrDefault(e.metric).higherIsBetter;
        const bool folds = isCrossValidation(e); // shows the folds' mean, not the best one
        const TrialsSummary trials = summarizeTrials(*store, e);
        std::optional<double> best; // a cross-validation shows its folds' mean ± sd instead
        if (!folds)
            best = trials.best;
        const int pruned = trials.pruned;
        auto* id = cell(QString::number(e.id), true);
        id->setData(Qt::UserRole, qint64(e.id));
        table_->setItem(row, Id, id);
        table_->setItem(row, Name, cell(QString::fromStdString(e.name)));
        table_->setItem(row, Method, cell(folds ? tr("cross-validation") : ExperimentView::methodText(QString::fromStdString(e.method))));
        table_->setItem(row, Status, cell(ExperimentView::experimentStatusText(QString::fromStdString(e.status))));
        table_->setItem(
            row, Trials,
            cell(pruned ? tr("%1 (%2 pruned)").arg(trials.trials).arg(pruned) : QString::number(trials.trials), true));
        QString bestText = !best    ? QString()
                           : higher ? tr("accuracy %1 %").arg(locale.toString(*best * 100.0, 'f', 2))
                                    : tr("loss %1").arg(locale.toString(*best, 'f', 4));
        if (best && trials.trialFolds > 0)
            bestText += QLatin1Char(' ') + tr("(mean of %n folds)", nullptr, trials.trialFolds);
        if (folds) {
            const CrossValidationSummary cv = summarizeCrossValidation(*store, e);
            const FoldFigure* f = cv.find("best_val_accuracy");
            bestText = f ? tr("accuracy %1 % ± %2 (mean ± sd)")
                               .arg(locale.toString(f->mean * 100.0, 'f', 2), locale.toString(f->sd * 100.0, 'f', 2))
                         : QString();
        }
        table_->setItem(row, Best, cell(bestText, true));
        table_->setItem(row, Created,
                        cell(QString::fromStdString(e.created).left(19).replace(QLatin1Char('T'), QLatin1Char(' '))));
        if (qint64(e.id) == current)
            table_->selectRow(row);
    }
    if (!fitted_ && table_->rowCount() > 0) {
        table_->resizeColumnsToContents();
        fitted_ = true;
    } else if (fitted_) {
        for (int c = 0; c < ColumnCount; ++c)
            table_->setColumnWidth(
                c, std::max(table_->columnWidth(c), static_cast<QAbstractItemView*>(table_)->sizeHintForColumn(c)));
    }
}

void ExperimentsPanel::retranslate()
{
    note_->setText(tr("Sweeps over configurations (Run → Sweep…, or entrena-cli sweep). Open one to see its trials."));
    table_->setHorizontalHeaderLabels(
        {tr("Id"), tr("Name"), tr("Method"), tr("Status"), tr("Trials"), tr("Best"), tr("Created (UTC)")});
    table_->setAccessibleName(tr("Experiments"));
    open_->setText(tr("Open"));
}

void ExperimentsPanel::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

} // namespace entrena::ui
