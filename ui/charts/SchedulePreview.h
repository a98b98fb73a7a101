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

    /// Redraws for `config`; the steps per epoch come from the data's training `samples` as read (0:
    /// the data set's typical size), less the validation split unless the data holds its own.
    void show(const RunConfig& config, int64_t samples = 0, bool ownValidation = false);
    int points() const;
    /// The last step drawn (the run's planned length, in optimizer steps; 0 when nothing is drawn).
    double lastStep() const;

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();

    QCustomPlot* plot_;
};

} // namespace entrena::ui
