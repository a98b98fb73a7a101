#pragma once
// Run details → Evaluation: what the finished model gets wrong. The confusion matrix as a
// heatmap, the per-class precision, recall and support (sortable), and for image data the
// pictures it was most confidently wrong about, captioned true → predicted with the confidence.
// A run without an evaluation says why in a sentence.

#include "entrena/train/Events.h"

#include <QWidget>

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
    QSplitter* splitter_ = nullptr;
    bool fitted_ = false;
    int tableWidth_ = 0; ///< the per-class columns fitted to their contents
};

} // namespace entrena::ui
