#pragma once

#include "entrena/config/Config.h"
#include "entrena/system/Devices.h"

#include <QWidget>

#include <vector>

class QLabel;
class QListWidget;
class QListWidgetItem;
class QSpinBox;

namespace entrena::ui {

/// Where a run trains: the CPU or any of the CUDA devices, each listed with its name and memory.
/// Several GPUs checked, or several CPU processes, make a data-parallel run: one process (rank)
/// per device, through c10d (NCCL on GPUs, Gloo on the CPU). The CPU and GPUs are not mixed.
class DevicePicker : public QWidget {
    Q_OBJECT
public:
    explicit DevicePicker(QWidget* parent = nullptr);

    void setDevices(const std::vector<ComputeDevice>& devices);
    /// Checks what `devices` names (devices.type and devices.ids).
    void load(const DeviceSpec& devices);
    /// devices.type and devices.ids as checked; other fields are left as they are.
    void apply(DeviceSpec& devices) const;
    /// The processes a run will use: the GPUs checked, or the CPU processes.
    int ranks() const;
    /// For tests and tools: the CPU processes' box.
    QSpinBox* cpuRanksBox() const { return cpuRanks_; }
    QListWidget* list() const { return list_; }

Q_SIGNALS:
    void changed();

protected:
    void changeEvent(QEvent* event) override;

private:
    void onItemChanged(QListWidgetItem* item);
    void retranslate();

    QListWidget* list_;
    QSpinBox* cpuRanks_;
    QLabel* cpuRanksLabel_;
    QLabel* summary_;
    std::vector<ComputeDevice> devices_;
    bool updating_ = false;
};

} // namespace entrena::ui
