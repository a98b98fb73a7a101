#include "compare/PerClassComparison.h"

#include "charts/ChartTheme.h"

#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>

namespace entrena::ui {

PerClassRows PerClassRows::from(const std::vector<RunRecord>& runs)
{
    PerClassRows out;
    std::vector<EvaluationReport> reports;
    for (const RunRecord& r : runs) {
        reports.push_back(evaluationFromJson(r.evaluationJson));
        if (reports.back().empty())
            out.notEvaluated << Report::runLabel(r);
        else
            ++out.evaluated;
    }
    // The shared classes, by name, in the order of the first run that has any.
    const EvaluationReport* first = nullptr;
    for (const EvaluationReport& e : reports)
        if (!e.empty() && !first)
            first = &e;
    if (!first)
        return out;
    for (const std::string& name : first->classes) {
        const bool everywhere = std::all_of(reports.begin(), reports.end(), [&](const EvaluationReport& e) {
            return e.empty() || std::find(e.classes.begin(), e.classes.end(), name) != e.classes.end();
        });
        if (everywhere)
            out.classes << QString::fromStdString(name);
    }
    for (const EvaluationReport& e : reports)
        if (!e.empty() && e.classes.size() != std::size_t(out.classes.size()))
            out.differentClasses = true;
    for (const QString& name : std::as_const(out.classes)) {
        SummaryRow row{name, {}, true, 1, -1};
        for (const EvaluationReport& e : reports) {
            std::optional<double> recall;
            for (const ClassScore& s : e.perClass)
                if (QString::fromStdString(s.name) == name)
                    recall = s.recall * 100.0;
            row.values.push_back(recall);
        }
        Report::markBest(row);
        out.rows.push_back(std::move(row));
    }
    return out;
}

PerClassComparison::PerClassComparison(QWidget* parent)
    : QWidget(parent)
    , note_(new QLabel)
    , table_(new QTableWidget)
{
    table_->setObjectName(QStringLiteral("perClassCompareTable"));
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setStretchLastSection(true);
    note_->setObjectName(QStringLiteral("perClassNote"));
    note_->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(note_);
    layout->addWidget(table_, 1);
}

void PerClassComparison::setRuns(const std::vector<RunRecord>& runs)
{
    runs_ = runs;
    fill();
}

QString PerClassComparison::note() const
{
    return note_->text();
}

void PerClassComparison::fill()
{
    const PerClassRows rows = PerClassRows::from(runs_);
    QStringList notes;
    if (rows.evaluated == 0)
        notes << tr("None of these runs has a per-class evaluation: runs that finish have one.");
    else
        notes << tr("Accuracy of each class (recall, %): of the class's samples, the share the model predicted as it.");
    if (rows.differentClasses)
        notes << tr("The runs were trained on different classes: only the classes they share (%1) are shown.")
                     .arg(rows.classes.size());
    if (rows.evaluated > 0 && !rows.notEvaluated.isEmpty())
        notes << tr("Without an evaluation: %1.").arg(rows.notEvaluated.join(QStringLiteral(", ")));
    if (rows.evaluated > 1)
        notes << tr("The best of each row is marked.");
    note_->setText(notes.join(QLatin1Char(' ')));

    QStringList headers{tr("Class")};
    for (const RunRecord& r : runs_)
        headers << Report::runLabel(r);
    table_->clear();
    table_->setColumnCount(int(headers.size()));
    table_->setHorizontalHeaderLabels(headers);
    table_->setRowCount(int(rows.rows.size()));
    for (int r = 0; r < int(rows.rows.size()); ++r) {
        const SummaryRow& row = rows.rows[std::size_t(r)];
        table_->setItem(r, 0, new QTableWidgetItem(row.label));
        for (std::size_t c = 0; c < runs_.size(); ++c) {
            auto* item = new QTableWidgetItem(row.format(c));
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            // Marked as the summary marks its best (ties, as shown, are all best).
            if (row.best >= 0 && row.values[c] && row.format(c) == row.format(std::size_t(row.best))) {
                QFont bold = item->font();
                bold.setBold(true);
                item->setFont(bold);
                item->setBackground(markColor(table_->palette(), true));
                item->setData(Qt::UserRole, true);
                item->setToolTip(tr("best"));
            }
            table_->setItem(r, int(c) + 1, item);
        }
    }
    table_->resizeColumnsToContents();
}

void PerClassComparison::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange || event->type() == QEvent::PaletteChange)
        fill();
    QWidget::changeEvent(event);
}

} // namespace entrena::ui
