#pragma once
// The compare view's per-class page: each class's accuracy (its recall: of its samples, the share
// predicted as it) in each run, side by side, the best of each row marked as the summary marks
// it. Runs trained on different classes are compared on the classes they share, and the page
// says so; runs without an evaluation are named.

#include "entrena/store/RunStore.h"
#include "report/Report.h"

#include <QWidget>

class QLabel;
class QTableWidget;

namespace entrena::ui {

/// The rows the page shows, from the runs' stored evaluations.
struct PerClassRows {
    QStringList classes;          ///< the classes every evaluated run has, in the first one's order
    std::vector<SummaryRow> rows; ///< one per class: recall in percent per run, the best found
    bool differentClasses = false;
    QStringList notEvaluated; ///< labels of the runs without an evaluation
    int evaluated = 0;        ///< runs with one

    static PerClassRows from(const std::vector<RunRecord>& runs);
};

class PerClassComparison : public QWidget {
    Q_OBJECT
public:
    explicit PerClassComparison(QWidget* parent = nullptr);

    void setRuns(const std::vector<RunRecord>& runs);
    QTableWidget* table() const { return table_; }
    /// What the page says above the table (different classes, runs without an evaluation).
    QString note() const;

protected:
    void changeEvent(QEvent* event) override;

private:
    void fill();

    std::vector<RunRecord> runs_;
    QLabel* note_;
    QTableWidget* table_;
};

} // namespace entrena::ui
