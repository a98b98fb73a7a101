#pragma once

#include "entrena/config/Config.h"
#include "entrena/config/Registry.h"
#include "entrena/system/Devices.h"
#include "form/KeyField.h"

#include <QElapsedTimer>
#include <QHash>
#include <QKeySequence>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QStackedWidget;
class QToolButton;

namespace entrena::ui {

class DevicePicker;
class FormCheck;
class ModelSummaryLine;
class SchedulePreview;

/// The form that edits a run's configuration: data, model, optimizer, schedule, loop, device.
/// Fields it does not show are kept from the configuration it was last given.
class RunConfigPanel : public QWidget {
    Q_OBJECT
public:
    explicit RunConfigPanel(QWidget* parent = nullptr);

    void setConfig(const RunConfig& config);
    RunConfig config() const;
    void setDevices(const std::vector<ComputeDevice>& devices);
    /// Processes the run will use (several: data-parallel; see DevicePicker).
    int ranks() const;
    /// While a run trains, Stop is enabled and "Add to queue" (startRequested() too) stands in
    /// for Start; the form stays editable for the runs to queue.
    void setRunning(bool running);
    /// The keys that press the buttons (the window's Run menu), by the buttons' object names: their
    /// tooltips name them.
    void showShortcuts(const QHash<QString, QKeySequence>& keysByButton);
    /// While the batch-size finder runs, its button stops it.
    void setBatchSearchRunning(bool running);
    /// Start and Stop, to be placed where they stay visible however the form scrolls.
    QWidget* buttonBar() const { return buttonBar_; }
    /// The model summary line ("235,146 parameters · 0.47 MFLOP per sample"), for tests.
    QString summaryText() const;
    ModelSummaryLine* summary() const { return summary_; }
    SchedulePreview* schedulePreview() const { return preview_; }
    /// What is wrong with the form's configuration, in the form's words (its labels, not the
    /// configuration's keys); empty when it can start. Shown above the buttons, which it disables.
    QString problem() const;
    /// A configuration message with the keys the form shows put as their labels ("«Learning rate»").
    QString inFormWords(const QString& message) const;

Q_SIGNALS:
    void startRequested();
    void stopRequested();
    /// The learning-rate range test for the panel's configuration.
    void lrFinderRequested();
    void batchFinderRequested();
    /// The data's classes, counts and pictures, before training.
    void dataPreviewRequested();

protected:
    void changeEvent(QEvent* event) override;

private:
    QLabel* addRow(QFormLayout* form, QWidget* field);
    QLabel* addRow(QFormLayout* form, QLayout* field);
    /// Every labelled field: its configuration key and its label, in the current language.
    struct FieldText {
        QObject* field;
        QString key;
        QString label;
    };
    /// A schedule's parameters: the fields of its registry keys that the form shows.
    struct SchedulerPage {
        const SchedulerEntry* entry;
        QLabel* note; ///< for a schedule with nothing to set: what it does
        std::vector<KeyField<SchedulerSpec>> fields;
    };
    // The constructor's parts: each box's fields and its form, the buttons, the connections.
    void buildDataBox();
    void buildModelBox();
    void buildOptimizerBox();
    void buildScheduleBox();
    void buildTrainingBox();
    void buildButtonBar();
    void connectFields();
    void buildSchedulerPages();
    /// A data set's own keys with a form label (image size, channels): rows shown with that data set.
    void buildDataKeyRows();
    /// The optimizers' own keys with a form label (momentum): a row each, shown with every algorithm
    /// that has the key.
    void buildOptimizerKeyRows();
    void buildModelKeyRows();
    /// The model section as the form holds it.
    void storeModel(ModelSpec& model) const;
    /// The key rows' labels and tooltips in the current language.
    void retranslateKeyRows();
    const SchedulerPage& shownSchedulerPage() const;
    std::vector<FieldText> fieldTexts() const;
    void showProblem(const QString& problem);
    void updateButtons();
    /// The identifier behind a combo box's current choice ("reduce_on_plateau").
    static std::string selected(const QComboBox* box);
    /// Shows the item whose data is `value` (none: the selection stays).
    static void select(QComboBox* box, const std::string& value);
    /// The entry behind a combo box of a registry's names.
    template <class Kind>
    static Kind selectedKind(const QComboBox* box)
    {
        return *fromString<Kind>(selected(box));
    }
    /// The folder a data set lives in on Debian ("" when it has none).
    static QString defaultPath(DatasetKind dataset);
    void retranslate();
    void updateVisibility();
    void updateSummary();
    void updatePreview();
    /// Puts the name the data and model suggest in Run name, unless the person named the run.
    void followSuggestedName();
    void browseData();
    void browseTest();

    RunConfig base_;
    QHash<QObject*, QLabel*> labels_;
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
    // data
    QLineEdit* name_;
    QComboBox* dataset_;
    QLineEdit* dataPath_;
    QToolButton* browse_;
    QLayout* pathRow_;
    QLineEdit* testPath_;
    QToolButton* browseTest_;
    QLayout* testRow_;
    QLineEdit* labelColumn_;
    QSpinBox* batchSize_;
    QSpinBox* crop_;
    QCheckBox* flip_;
    /// The data keys that the form shows, each with its entry (null: every data set's).
    struct DataKeyRow {
        const DatasetEntry* entry;
        KeyField<DataSpec> field;
    };
    std::vector<DataKeyRow> dataKeyRows_;
    QPushButton* previewData_;
    // model
    QComboBox* arch_;
    QLineEdit* modelPath_;
    QToolButton* browseModel_;
    QLayout* modelPathRow_;
    QLineEdit* hidden_;
    QLineEdit* channels_;
    QSpinBox* blocks_;
    QDoubleSpinBox* dropout_;
    /// The keys of architectures that have no field of their own above, each with its entry (an
    /// architecture registered from outside the engine: its parameter block's rows).
    struct ModelKeyRow {
        const ModelEntry* entry;
        KeyField<ModelSpec> field;
    };
    std::vector<ModelKeyRow> modelKeyRows_;
    ModelSummaryLine* summary_;
    // optimizer
    QComboBox* optimizer_;
    QDoubleSpinBox* lr_;
    /// An optimizer key that the form shows, by its name: SGD's and RMSprop's momentum are one row.
    struct OptimizerKeyRow {
        KeyField<OptimizerSpec> field;
        bool shownFor(OptimizerKind kind) const;
    };
    std::vector<OptimizerKeyRow> optimizerKeyRows_;
    QDoubleSpinBox* weightDecay_;
    // schedule
    QComboBox* scheduler_;
    QStackedWidget* schedParams_;
    std::vector<SchedulerPage> schedPages_; ///< in registry order, as the combo box lists them
    QSpinBox* warmup_;
    SchedulePreview* preview_;
    // training
    QSpinBox* epochs_;
    QDoubleSpinBox* gradClip_;
    QSpinBox* accumulate_;
    QDoubleSpinBox* labelSmoothing_;
    QSpinBox* earlyStop_;
    QComboBox* precision_;
    DevicePicker* device_;
    QSpinBox* threads_;
    QPushButton* start_;
    QPushButton* queue_;
    QPushButton* stop_;
    QPushButton* findLr_;
    QPushButton* findBatch_;
    QWidget* buttonBar_;
    QLabel* problem_;
    FormCheck* check_ = nullptr;
    DatasetKind shownDataset_ = DatasetKind::FashionMnist;
    QString suggestedName_; ///< the run name the form last suggested: replaced while the person keeps it
    bool running_ = false;
    QElapsedTimer startPressed_; ///< since Start was last pressed (Add to queue ignores a repeated press)
    static constexpr qint64 kRepeatedPressMs = 600;
    bool searching_ = false;
};

} // namespace entrena::ui
