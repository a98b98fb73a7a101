#pragma once

#include "entrena/config/Config.h"

#include <QWidget>

class QCustomPlot;

namespace entrena::ui {

/// A small chart of the learning rate a configuration will apply at each optimizer step, drawn from
/// the engine's own scheduler (reduce-on-plateau is drawn as if the metric kept improving).
class SchedulePreview : public QWidget {
    Q_OBJECT
public:
    explicit SchedulePreview(QWidget* parent = nullptr);

    /// Redraws for `config`; the steps per epoch are estimated from the data set's size.
    void show(const RunConfig& config);
    int points() const;

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();

    QCustomPlot* plot_;
};

} // namespace entrena::ui
