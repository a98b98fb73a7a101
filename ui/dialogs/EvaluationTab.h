#pragma once
// Run details → Evaluation: what the finished model gets wrong. The confusion matrix as a
// heatmap, the per-class precision, recall and support (sortable), and for image data the
// pictures it was most confidently wrong about, captioned true → predicted with the confidence.
// A run without an evaluation says why in a sentence. Clicking a cell or a picture asks for the
// samples of that pair (the run's details open them: CellSamplesDialog).

#include "entrena/train/Events.h"

#include <QWidget>

class QAbstractButton;
class QLabel;
class QSplitter;
class QTableWidget;

namespace entrena::ui {

class ConfusionMatrixChart;

class EvaluationTab : public QWidget {
    Q_OBJECT
public:
    explicit EvaluationTab(const EvaluationReport& report, QWidget* parent = nullptr);

    /// Null when the run has no evaluation.
    ConfusionMatrixChart* matrix() const { return matrix_; }
    QTableWidget* perClassTable() const { return perClass_; }
    /// The sentence shown instead of the evaluation (null when there is one).
    QLabel* emptyNote() const { return empty_; }
    /// Thumbnails shown of the most confidently wrong samples.
    int wrongShown() const { return wrongShown_; }
    /// The thumbnails' buttons, most confident first.
    QList<QAbstractButton*> wrongButtons() const { return wrongButtons_; }

Q_SIGNALS:
    /// The samples of a (true, predicted) pair are wanted; `index`: the split's sample to select
    /// (a wrong example's), −1 for none.
    void samplesWanted(int trueClass, int predicted, qint64 index);

protected:
    void showEvent(QShowEvent* event) override;

private:
    QLabel* captionFor(const EvaluationReport& report);
    void buildPerClassTable(const EvaluationReport& report);
    QWidget* wrongExamples(const EvaluationReport& report);

    ConfusionMatrixChart* matrix_ = nullptr;
    QTableWidget* perClass_ = nullptr;
    QLabel* empty_ = nullptr;
    int wrongShown_ = 0;
    QList<QAbstractButton*> wrongButtons_;
    QSplitter* splitter_ = nullptr;
    bool fitted_ = false;
    int tableWidth_ = 0; ///< the per-class columns fitted to their contents
};

} // namespace entrena::ui
