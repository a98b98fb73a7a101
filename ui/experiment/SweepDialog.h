#pragma once

#include "entrena/config/Config.h"
#include "entrena/experiment/Sweep.h"
#include "entrena/experiment/SweepMethodRegistry.h"
#include "form/KeyField.h"

#include <QDialog>
#include <vector>

class QComboBox;
class QFormLayout;
class QGroupBox;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace entrena::ui {

class SweepRunner;
class SweepSpaceEditor;
struct SweepNews;

/// Run → Sweep…: trials of the form's configuration, each a run in the store. Choose the keys to
/// vary with their distributions, the method (grid, random, TPE, ASHA, population-based training)
/// and its settings, how many trials and how many at once, and the metric. Every change is
/// checked as entrena-cli sweep checks it (planSweep): what is wrong shows under the settings and
/// Start waits until it is fixed. The sweep runs off the GUI thread with its trials' progress;
/// Stop stops every trial after its step, with a checkpoint.
class SweepDialog : public QDialog {
    Q_OBJECT
public:
    /// `program`: the entrena-cli that trains each trial; `dbPath`: the store they write to.
    SweepDialog(const RunConfig& base, const QString& dbPath, const QString& program, QWidget* parent = nullptr);
    ~SweepDialog() override;

    /// The configuration trials start from (the form's); kept while a sweep runs.
    void setBase(const RunConfig& base);
    const RunConfig& base() const { return base_; }
    SweepSpaceEditor* space() const { return space_; }
    void setMethod(const QString& method);
    void setTrials(int trials);
    void setParallel(int parallel);
    void setMetric(const QString& metric);
    /// The settings as the form shows them (the method's defaults are planSweep's to fill in).
    SweepSettings settings() const;
    /// What stops the sweep from starting, in planSweep's words; "" when it can start.
    QString problem() const { return problem_; }
    QPushButton* startButton() const { return start_; }

    bool isRunning() const;
    /// The experiment of the sweep running or last run (0: none yet).
    qint64 experimentId() const;
    /// Starts the sweep; false when it cannot (a problem, or one running).
    bool start();
    /// Continues a stopped experiment of this store with its own stored settings (the form's are
    /// not used); false when a sweep runs.
    bool resume(qint64 experiment);
    QPushButton* resumeButton() const { return resume_; }
    void stop();
    /// What the sweep said so far, a line each.
    QString log() const;
    /// Before the window closes: true when no sweep runs, or the user chose to stop it (its trials
    /// save checkpoints; the experiment can be resumed).
    bool confirmClose();

Q_SIGNALS:
    void trialStarted(qint64 runId);
    void trialEnded(qint64 runId);
    void sweepEnded(qint64 experimentId);
    void openExperimentRequested(qint64 experimentId);

protected:
    void changeEvent(QEvent* event) override;

private:
    // The constructor's parts.
    void setUpFields();
    QHBoxLayout* methodAndSpace();
    void setUpProgress();
    QHBoxLayout* buttonRow();
    void connectFields();
    void connectRunner();
    void retranslate();
    void check();
    void updateMethodRows();
    /// The rows of each method's own settings, from the sweep-method registry.
    void addMethodRows();
    void setRunning(bool running);
    void onNews(const SweepNews& news);
    void note(const QString& line);
    QString metricText(double value) const;

    RunConfig base_;
    QString dbPath_;
    QString program_;
    int cores_;
    QString problem_;
    SweepRunner* runner_;
    qint64 experiment_ = 0;
    int ended_ = 0;
    int cvFolds_ = 0; ///< the running sweep's folds a trial (0: one run a trial)
    bool stopRequested_ = false;
    QLabel* intro_;
    QGroupBox* spaceBox_;
    SweepSpaceEditor* space_;
    QGroupBox* methodBox_;
    QFormLayout* methodForm_;
    QComboBox* method_;
    QLabel* methodNote_;
    QSpinBox* trials_;
    QSpinBox* parallel_;
    QComboBox* metric_;
    QLineEdit* name_;
    QSpinBox* seed_;
    QComboBox* cv_; ///< cross-validate each trial: off, or its folds (sweep --cv)
    /// Each method's own settings (the registry's keys), a row each, shown for that method only.
    struct MethodRow {
        const SweepMethodEntry* method;
        KeyField<SweepSettings> field;
    };
    std::vector<MethodRow> methodRows_;
    QLabel* problemLabel_;
    QGroupBox* progressBox_;
    QProgressBar* progress_;
    QLabel* status_;
    QPlainTextEdit* log_;
    QPushButton* open_;
    QPushButton* resume_;
    QPushButton* start_;
    QPushButton* close_;
    qint64 stopped_ = 0; ///< the experiment this dialog stopped: Resume continues it
};

} // namespace entrena::ui
