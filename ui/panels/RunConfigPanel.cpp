#include "panels/RunConfigPanel.h"

#include "ChoiceLabels.h"
#include "charts/SchedulePreview.h"
#include "form/DevicePicker.h"
#include "form/FormCheck.h"
#include "form/ModelSummaryLine.h"
#include "widgets/DecimalSpinBox.h"
#include "widgets/PathField.h"
#include "widgets/WheelGuard.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QSpinBox>
#include <QStackedWidget>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <cstring>

namespace entrena::ui {
namespace {

QDoubleSpinBox* doubleBox(double lo, double hi, int decimals, double step)
{
    auto* b = new DecimalSpinBox;
    b->setRange(lo, hi);
    b->setDecimals(decimals);
    b->setSingleStep(step);
    return b;
}

QSpinBox* intBox(int lo, int hi)
{
    auto* b = new QSpinBox;
    b->setRange(lo, hi);
    return b;
}

QComboBox* choices(const std::vector<std::string>& values)
{
    auto* box = new QComboBox;
    for (const auto& v : values)
        box->addItem(QString(), QString::fromStdString(v));
    return box;
}

std::string selectedAt(const QComboBox* box, int index)
{
    return box->itemData(index).toString().toStdString();
}

QHBoxLayout* withButton(QLineEdit* edit, QToolButton* button)
{
    auto* row = new QHBoxLayout;
    row->addWidget(edit);
    row->addWidget(button);
    return row;
}

} // namespace

// The label is its field's buddy: assistive technology reads it as the field's name ("Run name", not
// the group's title or a combo box's current choice alone).
QLabel* RunConfigPanel::addRow(QFormLayout* form, QWidget* field)
{
    auto* label = new QLabel;
    label->setBuddy(field);
    form->addRow(label, field);
    labels_.insert(field, label);
    return label;
}

QLabel* RunConfigPanel::addRow(QFormLayout* form, QLayout* field)
{
    auto* label = new QLabel;
    for (int i = 0; i < field->count(); ++i) // a row of a field and its button: the field
        if (QWidget* w = field->itemAt(i)->widget(); w && (w->focusPolicy() & Qt::TabFocus)) {
            label->setBuddy(w);
            break;
        }
    form->addRow(label, field);
    labels_.insert(field, label);
    return label;
}

void RunConfigPanel::buildSchedulerPages()
{
    for (const SchedulerEntry& e : schedulerRegistry()) {
        auto* w = new QWidget;
        auto* form = new QFormLayout(w);
        form->setContentsMargins(0, 0, 0, 0);
        SchedulerPage page{&e, new QLabel, {}};
        for (const auto& k : e.keys) {
            if (!k.form.label)
                continue; // set in the file only
            page.fields.push_back(KeyField<SchedulerSpec>::make(k));
            addRow(form, page.fields.back().widget);
        }
        page.note->setWordWrap(true);
        page.note->setVisible(page.fields.empty());
        form->addRow(page.note);
        schedParams_->addWidget(w);
        schedPages_.push_back(std::move(page));
    }
}

const RunConfigPanel::SchedulerPage& RunConfigPanel::shownSchedulerPage() const
{
    return schedPages_.at(size_t(std::max(0, scheduler_->currentIndex())));
}

void RunConfigPanel::buildDataBox()
{
    name_ = new QLineEdit;
    name_->setObjectName(QStringLiteral("nameEdit"));
    dataset_ = choices(choiceNames<DatasetKind>());
    dataset_->setObjectName(QStringLiteral("datasetCombo"));
    dataPath_ = new QLineEdit;
    dataPath_->setObjectName(QStringLiteral("dataPathEdit"));
    browse_ = new QToolButton;
    testPath_ = new QLineEdit;
    browseTest_ = new QToolButton;
    makePathField(dataPath_);
    makePathField(testPath_);
    labelColumn_ = new QLineEdit;
    batchSize_ = intBox(1, 65536);
    crop_ = intBox(0, 16);
    flip_ = new QCheckBox;

    dataBox_ = new QGroupBox;
    dataForm_ = new QFormLayout(dataBox_);
    addRow(dataForm_, name_);
    addRow(dataForm_, dataset_);
    pathRow_ = withButton(dataPath_, browse_);
    addRow(dataForm_, pathRow_);
    testRow_ = withButton(testPath_, browseTest_);
    addRow(dataForm_, testRow_);
    addRow(dataForm_, labelColumn_);
    buildDataKeyRows();
    addRow(dataForm_, batchSize_);
    addRow(dataForm_, crop_);
    addRow(dataForm_, flip_);
    previewData_ = new QPushButton;
    previewData_->setObjectName(QStringLiteral("previewDataButton"));
    auto* previewRow = new QHBoxLayout;
    previewRow->addStretch(1);
    previewRow->addWidget(previewData_);
    dataForm_->addRow(previewRow);
}

void RunConfigPanel::buildModelBox()
{
    arch_ = choices(choiceNames<ModelArch>());
    modelPath_ = new QLineEdit;
    browseModel_ = new QToolButton;
    arch_->setObjectName(QStringLiteral("archCombo"));
    hidden_ = new QLineEdit;
    channels_ = new QLineEdit;
    blocks_ = intBox(1, 16);
    dropout_ = doubleBox(0.0, 0.9, 2, 0.05);
    summary_ = new ModelSummaryLine;

    modelBox_ = new QGroupBox;
    modelForm_ = new QFormLayout(modelBox_);
    addRow(modelForm_, arch_);
    modelPathRow_ = withButton(modelPath_, browseModel_);
    addRow(modelForm_, modelPathRow_);
    addRow(modelForm_, hidden_);
    addRow(modelForm_, channels_);
    addRow(modelForm_, blocks_);
    buildModelKeyRows();
    addRow(modelForm_, dropout_);
    modelForm_->addRow(summary_);
}

void RunConfigPanel::buildOptimizerBox()
{
    optimizer_ = new QComboBox;
    for (const OptimizerEntry& e : optimizerRegistry()) // the algorithms' own names, in every language
        optimizer_->addItem(QString::fromLatin1(e.label), QString::fromLatin1(e.name));
    lr_ = doubleBox(-10.0, 10.0, 6, 0.001); // a minus sign typed is kept, and the check says why not
    lr_->setObjectName(QStringLiteral("learningRateBox"));
    weightDecay_ = doubleBox(0.0, 1.0, 6, 0.0001);

    optimBox_ = new QGroupBox;
    optimForm_ = new QFormLayout(optimBox_);
    addRow(optimForm_, optimizer_);
    addRow(optimForm_, lr_);
    buildOptimizerKeyRows();
    addRow(optimForm_, weightDecay_);
}

void RunConfigPanel::buildScheduleBox()
{
    scheduler_ = choices(choiceNames<SchedulerKind>());
    scheduler_->setObjectName(QStringLiteral("schedulerCombo"));
    warmup_ = intBox(0, 1000000);
    preview_ = new SchedulePreview;
    schedParams_ = new QStackedWidget;
    buildSchedulerPages();

    schedBox_ = new QGroupBox;
    schedForm_ = new QFormLayout(schedBox_);
    addRow(schedForm_, scheduler_);
    schedForm_->addRow(schedParams_);
    addRow(schedForm_, warmup_);
    schedForm_->addRow(preview_);
}

void RunConfigPanel::buildTrainingBox()
{
    epochs_ = intBox(1, 100000);
    gradClip_ = doubleBox(0.0, 1000.0, 2, 0.5);
    accumulate_ = intBox(1, 1024);
    labelSmoothing_ = doubleBox(0.0, 0.5, 2, 0.05);
    earlyStop_ = intBox(0, 1000);
    precision_ = choices(choiceNames<Precision>());
    precision_->setObjectName(QStringLiteral("precisionCombo"));
    device_ = new DevicePicker;
    threads_ = intBox(0, 1024);

    trainBox_ = new QGroupBox;
    trainForm_ = new QFormLayout(trainBox_);
    addRow(trainForm_, epochs_);
    addRow(trainForm_, gradClip_);
    addRow(trainForm_, accumulate_);
    addRow(trainForm_, labelSmoothing_);
    addRow(trainForm_, earlyStop_);
    addRow(trainForm_, precision_);
    addRow(trainForm_, device_);
    addRow(trainForm_, threads_);
}

void RunConfigPanel::buildButtonBar()
{
    start_ = new QPushButton;
    start_->setObjectName(QStringLiteral("startButton"));
    start_->setDefault(true);
    // While a run trains, Start's place holds "Add to queue": the form stays editable for the next run.
    queue_ = new QPushButton;
    queue_->setObjectName(QStringLiteral("queueButton"));
    queue_->setVisible(false);
    stop_ = new QPushButton;
    stop_->setObjectName(QStringLiteral("stopButton"));
    stop_->setEnabled(false);
    findLr_ = new QPushButton;
    findLr_->setObjectName(QStringLiteral("findLrButton"));
    findBatch_ = new QPushButton;
    findBatch_->setObjectName(QStringLiteral("findBatchButton"));
    buttonBar_ = new QWidget(this);
    // What is wrong with the form, if anything, just above the buttons it disables.
    problem_ = new QLabel(buttonBar_);
    problem_->setObjectName(QStringLiteral("formProblem"));
    problem_->setWordWrap(true);
    problem_->setVisible(false);
    problem_->setStyleSheet(QStringLiteral("color: #d33f3f; font-weight: bold;"));
    auto* bar = new QVBoxLayout(buttonBar_);
    bar->setContentsMargins(6, 6, 6, 6);
    bar->addWidget(problem_);
    auto* buttons = new QHBoxLayout;
    buttons->setContentsMargins(0, 0, 0, 0);
    bar->addLayout(buttons);
    buttons->addWidget(start_);
    buttons->addWidget(queue_);
    buttons->addWidget(stop_);
    buttons->addWidget(findLr_);
    buttons->addWidget(findBatch_);
}

// Every field's signal to what follows from it: the model summary, the schedule's preview, the
// rows shown, and the requests the buttons make.
void RunConfigPanel::connectFields()
{
    connect(start_, &QPushButton::clicked, this, [this] {
        startPressed_.start();
        emit startRequested();
    });
    // Add to queue takes Start's place and its focus: a second press of the key (or a double click)
    // that started the run lands on it. Within a moment of Start it is taken as that, not as a
    // request: it queued a copy of the run that had just started (a new user's walk did).
    connect(queue_, &QPushButton::clicked, this, [this] {
        if (!startPressed_.isValid() || startPressed_.elapsed() >= kRepeatedPressMs)
            emit startRequested();
    });
    connect(stop_, &QPushButton::clicked, this, &RunConfigPanel::stopRequested);
    connect(findLr_, &QPushButton::clicked, this, &RunConfigPanel::lrFinderRequested);
    connect(findBatch_, &QPushButton::clicked, this, &RunConfigPanel::batchFinderRequested);
    connect(previewData_, &QPushButton::clicked, this, &RunConfigPanel::dataPreviewRequested);
    // What the data is shapes the model: its summary follows the path, image size and channels
    // (DataShapeProbe waits for the typing to pause before reading).
    connect(dataPath_, &QLineEdit::textChanged, this, &RunConfigPanel::updateSummary);
    connect(labelColumn_, &QLineEdit::editingFinished, this, &RunConfigPanel::updateSummary);
    for (const DataKeyRow& row : dataKeyRows_)
        onKeyValueChanged(row.field.widget, this, [this] { updateSummary(); });
    for (const ModelKeyRow& row : modelKeyRows_) // the model's size follows its keys
        onKeyValueChanged(row.field.widget, this, [this] { updateSummary(); });
    connect(browse_, &QToolButton::clicked, this, &RunConfigPanel::browseData);
    connect(browseTest_, &QToolButton::clicked, this, &RunConfigPanel::browseTest);
    connect(browseModel_, &QToolButton::clicked, this, [this] {
        const QString chosen = QFileDialog::getOpenFileName(this, tr("TorchScript model"), modelPath_->text(),
                                                            tr("TorchScript modules (*.pt *.pth *.ts);;All files (*)"));
        if (!chosen.isEmpty()) {
            modelPath_->setText(chosen);
            updateSummary();
        }
    });
    connect(modelPath_, &QLineEdit::editingFinished, this, &RunConfigPanel::updateSummary);
    for (QComboBox* box : {scheduler_, optimizer_, dataset_, arch_})
        connect(box, &QComboBox::currentIndexChanged, this, &RunConfigPanel::updateVisibility);
    for (QLineEdit* edit : {hidden_, channels_})
        connect(edit, &QLineEdit::editingFinished, this, &RunConfigPanel::updateSummary);
    connect(blocks_, &QSpinBox::valueChanged, this, &RunConfigPanel::updateSummary);
    // Anything that shapes the schedule redraws its preview.
    connect(lr_, &QDoubleSpinBox::valueChanged, this, &RunConfigPanel::updatePreview);
    for (QSpinBox* box : {warmup_, epochs_, batchSize_, accumulate_})
        connect(box, &QSpinBox::valueChanged, this, &RunConfigPanel::updatePreview);
    for (const SchedulerPage& page : schedPages_)
        for (const auto& f : page.fields)
            onKeyValueChanged(f.widget, this, [this] { updatePreview(); });
}

RunConfigPanel::RunConfigPanel(QWidget* parent)
    : QWidget(parent)
{
    // Box by box, in the form's order (the order focus moves in).
    buildDataBox();
    buildModelBox();
    buildOptimizerBox();
    buildScheduleBox();
    buildTrainingBox();
    buildButtonBar();
    auto* layout = new QVBoxLayout(this);
    for (QWidget* w : std::initializer_list<QWidget*>{dataBox_, modelBox_, optimBox_, schedBox_, trainBox_})
        layout->addWidget(w);
    layout->addStretch(1);

    connectFields();
    setDevices({ComputeDevice{"cpu", 0, {}, 0, {}}});
    retranslate();
    setConfig(RunConfig{});
    WheelGuard::install(this);
    check_ = new FormCheck(this, [this] { return problem(); });
    connect(check_, &FormCheck::problemChanged, this, &RunConfigPanel::showProblem);
    connect(summary_, &ModelSummaryLine::dataProblemChanged, check_, &FormCheck::recheck);
    connect(summary_, &ModelSummaryLine::dataShapeChanged, this, &RunConfigPanel::updatePreview);
    // Another data set: the old one's folder is no place for it.
    connect(dataset_, &QComboBox::currentIndexChanged, this, [this] {
        const DatasetKind now = selectedKind<DatasetKind>(dataset_);
        // Nor is a folder a file: an image folder's path kept for a CSV table read as "empty CSV".
        const bool otherKind = registryEntry(now).pathIsFile != registryEntry(shownDataset_).pathIsFile;
        if (otherKind || dataPath_->text().trimmed().isEmpty() || dataPath_->text().trimmed() == defaultPath(shownDataset_))
            setPath(dataPath_, defaultPath(now));
        shownDataset_ = now;
    });
    connect(dataset_, &QComboBox::currentIndexChanged, this, &RunConfigPanel::followSuggestedName);
    connect(arch_, &QComboBox::currentIndexChanged, this, &RunConfigPanel::followSuggestedName);
    connect(dataPath_, &QLineEdit::textChanged, this, &RunConfigPanel::followSuggestedName);
    check_->recheck();
}

void RunConfigPanel::retranslate()
{
    dataBox_->setTitle(tr("Data"));
    modelBox_->setTitle(tr("Model"));
    optimBox_->setTitle(tr("Optimizer"));
    schedBox_->setTitle(tr("Learning-rate schedule"));
    trainBox_->setTitle(tr("Training"));
    for (const FieldText& f : fieldTexts()) {
        if (QLabel* label = labels_.value(f.field))
            label->setText(f.label);
    }
    for (int i = 0; i < dataset_->count(); ++i)
        dataset_->setItemText(i, app::ChoiceLabels::dataset(dataset_->itemData(i).toString()));
    for (int i = 0; i < arch_->count(); ++i)
        arch_->setItemText(i, registryText(registryEntry(*fromString<ModelArch>(selectedAt(arch_, i))).longLabel));
    browseModel_->setText(tr("Browse…"));
    modelPath_->setPlaceholderText(tr("saved with torch.jit.script(model).save(path)"));
    for (int i = 0; i < scheduler_->count(); ++i)
        scheduler_->setItemText(i, app::ChoiceLabels::scheduler(scheduler_->itemData(i).toString()));
    for (const SchedulerPage& page : schedPages_) {
        page.note->setText(registryText(page.entry->doc));
        for (const auto& f : page.fields)
            retranslateKeyWidget(f.widget, f.key->form);
    }
    for (int i = 0; i < precision_->count(); ++i) {
        const PrecisionEntry& p = registryEntry(*fromString<Precision>(selectedAt(precision_, i)));
        precision_->setItemText(i, registryText(p.label));
        precision_->setItemData(i, p.tip ? registryText(p.tip) : QString(), Qt::ToolTipRole);
    }
    hidden_->setPlaceholderText(tr("e.g. 256, 128"));
    channels_->setPlaceholderText(tr("e.g. 32, 64"));
    threads_->setSpecialValueText(tr("automatic"));
    crop_->setSpecialValueText(tr("off"));
    gradClip_->setSpecialValueText(tr("off"));
    earlyStop_->setSpecialValueText(tr("off"));
    warmup_->setSpecialValueText(tr("none"));
    flip_->setText(tr("left–right, half the images"));
    browse_->setText(tr("Browse…"));
    browse_->setToolTip(tr("Choose the data set's folder (images) or training file (CSV)"));
    browseTest_->setText(tr("Browse…"));
    retranslateKeyRows();
    previewData_->setText(tr("Preview data…"));
    previewData_->setToolTip(tr("Each class with its number of samples and a few of its pictures"));
    start_->setText(tr("Start"));
    start_->setProperty("help", tr("Trains this configuration; the charts follow it as it goes."));
    queue_->setText(tr("Add to queue"));
    queue_->setProperty("help", tr("Adds this configuration to the queue: it starts when the runs before it have ended."));
    findLr_->setText(tr("Find LR…"));
    findLr_->setProperty("help", tr("Learning-rate range test: sweep the rate on a copy of the model and suggest one."));
    setBatchSearchRunning(findBatch_->property("searching").toBool());
    stop_->setText(tr("Stop"));
    stop_->setProperty("help", tr("Stops the run after its current step; it can be resumed from the runs list."));
    updateSummary();
    updateButtons(); // the tooltips, from the texts above
}

void RunConfigPanel::retranslateKeyRows()
{
    for (const OptimizerKeyRow& row : optimizerKeyRows_)
        retranslateKeyWidget(row.field.widget, row.field.key->form);
    for (const ModelKeyRow& row : modelKeyRows_)
        retranslateKeyWidget(row.field.widget, row.field.key->form);
    for (const DataKeyRow& row : dataKeyRows_) {
        retranslateKeyWidget(row.field.widget, row.field.key->form);
        if (auto* edit = qobject_cast<QLineEdit*>(row.field.widget); edit && std::strcmp(row.field.key->key, "image_size") == 0)
            edit->setPlaceholderText(tr("as stored; e.g. 32 or 64, 48"));
    }
}

void RunConfigPanel::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

void RunConfigPanel::setDevices(const std::vector<ComputeDevice>& devices)
{
    device_->setDevices(devices);
}

int RunConfigPanel::ranks() const
{
    return device_->ranks();
}

void RunConfigPanel::updateVisibility()
{
    schedParams_->setCurrentIndex(scheduler_->currentIndex());
    // The stack is as tall as the shown page, not its tallest (a blank band under two fields).
    for (int i = 0; i < schedParams_->count(); ++i)
        schedParams_->widget(i)->setSizePolicy(QSizePolicy::Preferred,
                                               i == schedParams_->currentIndex() ? QSizePolicy::Preferred : QSizePolicy::Ignored);
    schedParams_->updateGeometry();
    for (const OptimizerKeyRow& row : optimizerKeyRows_)
        optimForm_->setRowVisible(row.field.widget, row.shownFor(selectedKind<OptimizerKind>(optimizer_)));
    const DatasetEntry& data = registryEntry(selectedKind<DatasetKind>(dataset_));
    dataForm_->setRowVisible(pathRow_, data.needsPath);
    dataForm_->setRowVisible(testRow_, hasKey(data.keys, "test_path"));
    dataForm_->setRowVisible(labelColumn_, hasKey(data.keys, "label_column"));
    dataForm_->setRowVisible(crop_, data.images);
    dataForm_->setRowVisible(flip_, data.images);
    for (const DataKeyRow& row : dataKeyRows_)
        dataForm_->setRowVisible(row.field.widget, !row.entry || row.entry == &data);
    const ModelEntry& model = registryEntry(selectedKind<ModelArch>(arch_));
    modelForm_->setRowVisible(hidden_, hasKey(model.keys, "hidden"));
    modelForm_->setRowVisible(channels_, hasKey(model.keys, "channels"));
    modelForm_->setRowVisible(blocks_, hasKey(model.keys, "blocks"));
    modelForm_->setRowVisible(dropout_, !registryEntry(model.arch).fromFile);
    modelForm_->setRowVisible(modelPathRow_, hasKey(model.keys, "path"));
    for (const ModelKeyRow& row : modelKeyRows_)
        modelForm_->setRowVisible(row.field.widget, row.entry == &model);
    if (QLabel* l = labels_.value(pathRow_))
        l->setText(data.pathIsFile ? tr("Training file:") : tr("Folder:"));
    updateSummary();
    updatePreview();
}

void RunConfigPanel::updatePreview()
{
    preview_->show(config(), summary_->dataShape().samples, summary_->dataShape().ownValidation);
}

void RunConfigPanel::updateSummary()
{
    summary_->showFor(config());
}

void RunConfigPanel::browseData()
{
    QString chosen;
    if (registryEntry(selectedKind<DatasetKind>(dataset_)).pathIsFile)
        chosen = QFileDialog::getOpenFileName(this, tr("Training data"), dataPath_->text(), tr("CSV files (*.csv)"));
    else
        chosen = QFileDialog::getExistingDirectory(this, tr("Data set folder"), dataPath_->text());
    if (!chosen.isEmpty())
        setPath(dataPath_, chosen);
}

void RunConfigPanel::browseTest()
{
    const QString chosen = QFileDialog::getOpenFileName(this, tr("Test data"), testPath_->text(), tr("CSV files (*.csv)"));
    if (!chosen.isEmpty())
        setPath(testPath_, chosen);
}

QString RunConfigPanel::summaryText() const
{
    return summary_->text();
}

void RunConfigPanel::setRunning(bool running)
{
    // The form stays editable: what it holds goes to the queue (the run keeps its own copy).
    // The button pressed keeps the keyboard where it was: Start becomes Add to queue and back, and
    // Stop, disabled at the end, hands it to Start. Left to Qt, a hidden or disabled focus went to the
    // next field in the chain, and after a run the name field had the focus with its text selected,
    // so the next key typed replaced the name.
    QWidget* before = window()->focusWidget();
    const bool buttonHadFocus = before == start_ || before == queue_ || before == stop_;
    running_ = running;
    QPushButton* shown = running ? queue_ : start_;
    shown->setVisible(true);
    updateButtons();
    if (buttonHadFocus && window()->focusWidget() != shown)
        shown->setFocus(Qt::OtherFocusReason);
    (running ? start_ : queue_)->setVisible(false);
}

void RunConfigPanel::showShortcuts(const QHash<QString, QKeySequence>& keysByButton)
{
    for (auto* b : buttonBar()->findChildren<QPushButton*>())
        if (keysByButton.contains(b->objectName()))
            b->setProperty("shortcutHint", QVariant::fromValue(keysByButton.value(b->objectName())));
    updateButtons();
}

void RunConfigPanel::setBatchSearchRunning(bool running)
{
    findBatch_->setProperty("searching", running);
    findBatch_->setText(running ? tr("Stop search") : tr("Find batch size…"));
    findBatch_->setToolTip(tr("The largest batch that fits in memory (train.memory_budget_mb when set): doubling, then "
                              "binary search, each trial a few real steps of a fresh model."));
    searching_ = running;
    updateButtons();
}

} // namespace entrena::ui
