#pragma once

#include <QDialog>

class QComboBox;
class QDoubleSpinBox;

namespace entrena::ui {

class LanguageManager;

/// Preferences: the interface language and the appearance (light, dark or the desktop's; both applied
/// at once) and the baseline check's tolerance.
class SettingsDialog : public QDialog {
    Q_OBJECT
public:
    SettingsDialog(LanguageManager& languages, QWidget* parent = nullptr);

    void accept() override;

private:
    LanguageManager& languages_;
    QComboBox* language_;
    QComboBox* theme_;
    QDoubleSpinBox* tolerance_;
};

} // namespace entrena::ui
