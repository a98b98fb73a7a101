#pragma once
// Run → Cross-validate…: the form's configuration trained once per fold, each fold held out in turn,
// as entrena-cli cv does (docs/experiments.md, "Cross-validation"): the number of folds, whether
// they keep each class's share, repeats and folds at once. What would stop it is said under the
// settings, in the engine's words, before anything runs; at the end each figure's mean ± sd.

#include "entrena/config/Config.h"
#include "entrena/experiment/CrossValidation.h"

#include <QDialog>

class QCheckBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace entrena::ui {

class SweepRunner;
struct SweepNews;

class CrossValidationDialog : public QDialog {
    Q_OBJECT
public:
    /// `program`: the entrena-cli that trains each fold; `dbPath`: the store they write to.
    CrossValidationDialog(const RunConfig& base, const QString& dbPath, const QString& program, QWidget* parent = nullptr);
    ~CrossValidationDialog() override;

    void setBase(const RunConfig& base);
    CrossValidationSettings settings() const;
    QSpinBox* foldsBox() const { return folds_; }
    QCheckBox* stratifyBox() const { return stratify_; }
    QSpinBox* parallelBox() const { return parallel_; }
    QPushButton* startButton() const { return start_; }
    /// What stops it from starting, in the engine's words; "" when it can start.
    QString problem() const;
    bool isRunning() const;
    /// The experiment of the cross-validation running or last run (0: none yet).
    qint64 experimentId() const;
    /// Why `folded` (a configuration with data.folds) cannot be cross-validated, for a person: a class
    /// with fewer training samples than stratified folds in the reader's language, else `engineWords`.
    static QString foldProblemText(const RunConfig& folded, const QString& engineWords);
    /// The folds' recall (the classes' mean, then each class's, lowest first) as rich text; "" when
    /// the folds kept no evaluation.
    static QString recallText(const CrossValidationSummary& summary);
    /// The result line: each figure's mean ± sd ("" until one ends).
    QString resultText() const;
    /// Checks the data as the command line does, then starts; false when it cannot.
    bool start();
    void stop();
    bool confirmClose();

Q_SIGNALS:
    void foldStarted(qint64 runId);
    void foldEnded(qint64 runId);
    void ended(qint64 experimentId);
    void openExperimentRequested(qint64 experimentId);

protected:
    void changeEvent(QEvent* event) override;

private:
    void layOut();
    void connectParts();
    void retranslate();
    void check();
    void onNews(const SweepNews& news);
    void showResult(qint64 experiment);
    void setRunning(bool running);

    RunConfig base_;
    QString dbPath_, program_;
    int cores_;
    SweepRunner* runner_;
    qint64 experiment_ = 0;
    int ended_ = 0;
    QLabel* intro_;
    QLabel* foldsLabel_;
    QSpinBox* folds_;
    QCheckBox* stratify_;
    QLabel* repeatLabel_;
    QSpinBox* repeat_;
    QLabel* parallelLabel_;
    QSpinBox* parallel_;
    QLabel* nameLabel_;
    QLineEdit* name_;
    QLabel* problem_;
    QProgressBar* progress_;
    QLabel* status_;
    QLabel* result_;
    QPlainTextEdit* log_;
    QPushButton* start_;
    QPushButton* stop_;
    QPushButton* open_;
    QPushButton* close_;
};

} // namespace entrena::ui
