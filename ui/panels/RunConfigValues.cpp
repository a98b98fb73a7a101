// RunConfigPanel's values to and from a run configuration: what the form shows for a configuration,
// and the configuration the form describes (docs/configuration.md names every key).
#include "form/DevicePicker.h"
#include "form/FormCheck.h"
#include "panels/RunConfigPanel.h"
#include "runs/RunNaming.h"
#include "widgets/PathField.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>

namespace entrena::ui {

void RunConfigPanel::select(QComboBox* box, const std::string& value)
{
    const int i = box->findData(QString::fromStdString(value));
    if (i >= 0)
        box->setCurrentIndex(i);
}

void RunConfigPanel::setConfig(const RunConfig& c)
{
    base_ = c;
    name_->setText(QString::fromStdString(c.name));
    select(dataset_, toString(c.data.dataset));
    setPath(dataPath_, QString::fromStdString(c.data.path));
    setPath(testPath_, QString::fromStdString(c.data.testPath));
    labelColumn_->setText(QString::fromStdString(c.data.labelColumn));
    batchSize_->setValue(int(c.data.batchSize));
    crop_->setValue(c.data.augmentCrop);
    flip_->setChecked(c.data.augmentFlip);
    for (const DataKeyRow& row : dataKeyRows_)
        row.field.load(c.data);
    select(arch_, toString(c.model.arch));
    modelPath_->setText(QString::fromStdString(c.model.path));
    hidden_->setText(numberListText(c.model.hidden));
    channels_->setText(numberListText(c.model.channels));
    blocks_->setValue(int(c.model.blocks));
    dropout_->setValue(c.model.dropout);
    for (const ModelKeyRow& row : modelKeyRows_)
        row.field.load(c.model);
    select(optimizer_, toString(c.optimizer.kind));
    lr_->setValue(c.optimizer.lr);
    for (const OptimizerKeyRow& row : optimizerKeyRows_)
        row.field.load(c.optimizer);
    weightDecay_->setValue(c.optimizer.weightDecay);
    select(scheduler_, toString(c.scheduler.kind));
    for (const SchedulerPage& page : schedPages_) {
        for (const auto& f : page.fields) {
            // Another schedule's page shows its own starting value where one is given (gamma 0.95
            // per epoch), not this schedule's.
            if (page.entry->kind != c.scheduler.kind && f.key->form.initial)
                showKeyValue(f.widget, *f.key->form.initial);
            else
                f.load(c.scheduler);
        }
    }
    warmup_->setValue(int(c.scheduler.warmupSteps));
    epochs_->setValue(c.train.epochs);
    gradClip_->setValue(c.train.gradClip);
    accumulate_->setValue(c.train.accumulate);
    labelSmoothing_->setValue(c.train.labelSmoothing);
    earlyStop_->setValue(int(c.train.earlyStopPatience));
    select(precision_, toString(c.train.precision));
    threads_->setValue(c.devices.threads);
    device_->load(c.devices);
    shownDataset_ = c.data.dataset;
    name_->setText(QString::fromStdString(c.name)); // as loaded, whatever the fields' signals suggested
    suggestedName_ = suggestedRunName(c.data.dataset, QString::fromStdString(c.data.path), c.model.arch);
    updateVisibility();
    if (check_)
        check_->recheck(); // a loaded configuration is checked at once, not after the next edit
}

void RunConfigPanel::storeModel(ModelSpec& m) const
{
    m.arch = selectedKind<ModelArch>(arch_);
    m.path = modelPath_->text().trimmed().toStdString();
    if (hasKey(registryEntry(m.arch).keys, "hidden"))
        m.hidden = numberListValues(hidden_->text());
    else
        m.channels = numberListValues(channels_->text());
    m.blocks = blocks_->value();
    m.dropout = dropout_->value();
    for (const ModelKeyRow& row : modelKeyRows_)
        if (row.entry->arch == m.arch)
            row.field.store(m);
}

RunConfig RunConfigPanel::config() const
{
    RunConfig c = base_;
    c.name = name_->text().trimmed().toStdString();
    c.data.dataset = selectedKind<DatasetKind>(dataset_);
    c.data.path = dataPath_->text().trimmed().toStdString();
    c.data.testPath = testPath_->text().trimmed().toStdString();
    c.data.labelColumn = labelColumn_->text().trimmed().toStdString();
    c.data.batchSize = batchSize_->value();
    const bool images = registryEntry(c.data.dataset).images;
    c.data.augmentCrop = images ? crop_->value() : 0;
    c.data.augmentFlip = images && flip_->isChecked();
    for (const DataKeyRow& row : dataKeyRows_)
        if (!row.entry || row.entry->kind == c.data.dataset)
            row.field.store(c.data);
    storeModel(c.model);
    const OptimizerKind optimizer = selectedKind<OptimizerKind>(optimizer_);
    if (optimizer != c.optimizer.kind) {
        // Switched algorithm: its keys the form does not show (SGD's nesterov, Adam's betas) take
        // their defaults, not what an earlier configuration of another algorithm left there.
        const OptimizerEntry& entry = registryEntry(optimizer);
        OptimizerSpec fresh;
        fresh.kind = optimizer; // a parameter block's defaults are its own
        if (entry.defaults)
            entry.defaults(fresh);
        for (const auto& key : entry.keys)
            if (!key.form.label)
                key.set(c.optimizer, key.get(fresh));
    }
    c.optimizer.kind = optimizer;
    c.optimizer.lr = lr_->value();
    for (const OptimizerKeyRow& row : optimizerKeyRows_)
        if (row.shownFor(optimizer))
            row.field.store(c.optimizer);
    c.optimizer.weightDecay = weightDecay_->value();
    if (c.optimizer.nesterov && c.optimizer.momentum <= 0)
        c.optimizer.nesterov = false;
    c.scheduler.kind = selectedKind<SchedulerKind>(scheduler_);
    c.scheduler.warmupSteps = warmup_->value();
    const SchedulerPage& page = shownSchedulerPage();
    for (const auto& f : page.fields)
        f.store(c.scheduler);
    // A schedule that cycles momentum needs one to cycle: SGD without momentum has none.
    if (page.entry->momentum && !registryEntry(optimizer).cyclesMomentum(c.optimizer))
        c.scheduler.cycleMomentum = false;
    c.train.epochs = epochs_->value();
    c.train.gradClip = gradClip_->value();
    c.train.accumulate = accumulate_->value();
    c.train.labelSmoothing = labelSmoothing_->value();
    c.train.earlyStopPatience = earlyStop_->value();
    c.train.precision = *fromString<Precision>(selected(precision_));
    c.devices.threads = threads_->value();
    device_->apply(c.devices);
    return c;
}

} // namespace entrena::ui
