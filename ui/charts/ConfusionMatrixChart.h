#pragma once
// A run's confusion matrix as a heatmap: true classes down the rows, predicted classes across the
// columns, each cell's count written in it and coloured by its share of the row (a class's
// recall reads along the diagonal however unbalanced the classes are). Readable from 2 to 20
// classes: long names are shortened and the column names turned, the counts' font follows the
// cells' size, and hovering a cell shows the whole names. Clicking a cell asks for its samples.

#include "entrena/train/Events.h"

#include <QStringList>
#include <qcustomplot.h>

namespace entrena::ui {

class ConfusionMatrixChart : public QCustomPlot {
    Q_OBJECT
public:
    explicit ConfusionMatrixChart(QWidget* parent = nullptr);

    void setReport(const EvaluationReport& report);

    int classCount() const { return int(report_.classes.size()); }
    /// The colour map's value of a cell (true class row, predicted column): its share of the row.
    double mapShare(int trueClass, int predicted) const;
    /// The text written in a cell.
    QString cellText(int trueClass, int predicted) const;
    /// The class names as the axis shows them: Qt::Horizontal the predicted (columns),
    /// Qt::Vertical the true classes (rows), in label order.
    QStringList axisLabels(Qt::Orientation orientation) const;
    /// A class name shortened to fit a tick label ("Ankle boot" stays, a long one ends in "…").
    static QString shortName(const QString& name);

    /// What hovering the cell at widget position `pos` shows ("" outside the cells).
    QString hoverText(const QPointF& pos) const;
    /// The cell (true class, predicted class) at widget position `pos`; false outside the cells.
    bool cellAt(const QPointF& pos, int& trueClass, int& predicted) const;
    /// The samples counted in a cell (0 outside the matrix).
    int64_t count(int trueClass, int predicted) const;
    /// The centre of a cell in widget coordinates (where a click on it lands).
    QPoint cellCentre(int trueClass, int predicted) const;

Q_SIGNALS:
    /// A cell with samples was clicked: the samples of that pair are wanted.
    void cellClicked(int trueClass, int predicted);

protected:
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void retranslate();
    void fitText();
    void recolour();
    void turnColumnNames();

    EvaluationReport report_;
    QCPColorMap* map_;
    QVector<QCPItemText*> cells_; ///< row-major: cells_[t * K + p]
};

} // namespace entrena::ui
