#pragma once

#include "entrena/Config.h"
#include "entrena/Devices.h"

#include <QWidget>

class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QStackedWidget;
class QToolButton;
class QGroupBox;

namespace entrena::ui {

/// The form that edits a run's configuration: data, model, optimizer, schedule, loop, device.
/// Fields it does not show are kept from the configuration it was last given.
class RunConfigPanel : public QWidget {
    Q_OBJECT
public:
    explicit RunConfigPanel(QWidget* parent = nullptr);

    void setConfig(const RunConfig& config);
    RunConfig config() const;
    void setDevices(const std::vector<ComputeDevice>& devices);
    /// While a run trains, the form is read-only and Stop replaces Start.
    void setRunning(bool running);

Q_SIGNALS:
    void startRequested();
    void stopRequested();

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    void updateVisibility();
    void browseDataFolder();

    RunConfig base_;
    QGroupBox* dataBox_;
    QGroupBox* modelBox_;
    QGroupBox* optimBox_;
    QGroupBox* schedBox_;
    QGroupBox* trainBox_;
    QFormLayout* dataForm_;
    QFormLayout* modelForm_;
    QFormLayout* optimForm_;
    QFormLayout* schedForm_;
    QFormLayout* trainForm_;
    QLineEdit* name_;
    QComboBox* dataset_;
    QLineEdit* dataPath_;
    QToolButton* browse_;
    QComboBox* arch_;
    QComboBox* optimizer_;
    QDoubleSpinBox* lr_;
    QDoubleSpinBox* momentum_;
    QDoubleSpinBox* weightDecay_;
    QComboBox* scheduler_;
    QStackedWidget* schedParams_;
    QSpinBox* stepSize_;
    QDoubleSpinBox* stepGamma_;
    QDoubleSpinBox* expGamma_;
    QSpinBox* tMax_;
    QDoubleSpinBox* etaMin_;
    QDoubleSpinBox* factor_;
    QSpinBox* patience_;
    QLabel* constantNote_;
    QLabel* stepSizeLabel_;
    QLabel* stepGammaLabel_;
    QLabel* expGammaLabel_;
    QLabel* tMaxLabel_;
    QLabel* etaMinLabel_;
    QLabel* factorLabel_;
    QLabel* patienceLabel_;
    QSpinBox* batchSize_;
    QSpinBox* epochs_;
    QComboBox* device_;
    QSpinBox* threads_;
    QPushButton* start_;
    QPushButton* stop_;
};

} // namespace entrena::ui
