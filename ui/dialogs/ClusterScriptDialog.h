#pragma once

#include "entrena/config/Config.h"

#include <QDialog>

class QLabel;
class QPlainTextEdit;
class QSpinBox;

namespace entrena::ui {

/// "Launch on a cluster": the torchrun line and an sbatch script that train the panel's
/// configuration on several machines, to copy, or to save with the configuration beside it.
class ClusterScriptDialog : public QDialog {
    Q_OBJECT
public:
    ClusterScriptDialog(RunConfig config, QWidget* parent = nullptr);

    QString command() const;
    QString script() const;
    QSpinBox* nodesBox() const { return nodes_; }
    QSpinBox* ranksBox() const { return ranks_; }
    /// Writes the script to `scriptPath` and the configuration beside it (same name, .json),
    /// which the script names. Returns an error message, or nothing.
    QString save(const QString& scriptPath);

private:
    static QPlainTextEdit* codeText(const QString& objectName, const QString& accessibleName);
    void update();
    QString configPath_; ///< the path the texts name (a placeholder until saved)

    RunConfig config_;
    QSpinBox* nodes_;
    QSpinBox* ranks_;
    QPlainTextEdit* command_;
    QPlainTextEdit* script_;
    QLabel* note_;
};

} // namespace entrena::ui
