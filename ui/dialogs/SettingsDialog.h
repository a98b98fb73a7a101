#pragma once

#include <QDialog>

class QComboBox;

namespace entrena::ui {

class LanguageManager;

/// Preferences: the interface language (applied at once).
class SettingsDialog : public QDialog {
    Q_OBJECT
public:
    SettingsDialog(LanguageManager& languages, QWidget* parent = nullptr);

    void accept() override;

private:
    LanguageManager& languages_;
    QComboBox* language_;
};

} // namespace entrena::ui
