#pragma once

#include "entrena/system/Devices.h"

#include <QDialog>

class QLabel;

namespace entrena::ui {

/// About Entrena and the devices it computes with: BLAS in use, threads, measured GEMM rate,
/// CUDA devices, and warnings when the machine runs far below what it can do.
class DevicesDialog : public QDialog {
    Q_OBJECT
public:
    DevicesDialog(const DeviceReport& report, QWidget* parent = nullptr);

private:
    QLabel* text_;
};

} // namespace entrena::ui
