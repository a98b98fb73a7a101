#pragma once
// The form's model summary: parameters and forward FLOPs per sample of the configured model for
// the configured data's shape and classes ("235,146 parameters · 0.47 MFLOP per sample"). The
// shape comes from DataShapeProbe: while it is read the line says so, and when the data cannot be
// read it says that instead of a size.

#include "entrena/config/Config.h"
#include "entrena/data/DataPreview.h"

#include <QLabel>

namespace entrena::ui {

class DataShapeProbe;

class ModelSummaryLine : public QLabel {
    Q_OBJECT
public:
    explicit ModelSummaryLine(QWidget* parent = nullptr);

    /// Summarises `config`'s model, now or once its data's shape has been read.
    void showFor(const RunConfig& config);
    DataShapeProbe* probe() const { return probe_; }
    /// Why the shown configuration's data cannot be read ("" when it can, or is still being read):
    /// a run of it would fail at once, so the form does not offer Start.
    QString dataProblem() const { return dataProblem_; }
    /// What reading the shown data found of its size (samples 0: not read, or not counted).
    const DataShape& dataShape() const { return shape_; }

Q_SIGNALS:
    void dataProblemChanged();
    /// dataShape() changed: the data was read.
    void dataShapeChanged();

private:
    void setDataProblem(const QString& problem);

    RunConfig shown_;
    QString dataProblem_;
    DataShape shape_;
    DataShapeProbe* probe_;
};

} // namespace entrena::ui
