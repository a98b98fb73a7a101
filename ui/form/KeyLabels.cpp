#include "form/KeyLabels.h"

#include "entrena/config/Registry.h"
#include "form/KeyField.h"

#include <QCoreApplication>

namespace entrena::ui {
namespace {

// The form's own labels (RunConfigPanel's words, so one translation serves both), and the words of
// keys the form sets through its dialogs (cross-validation's fold).
struct FormWord {
    const char* key;
    const char* context;
    const char* label;
};
const FormWord kFormWords[] = {
    {"name", "entrena::ui::RunConfigPanel", QT_TRANSLATE_NOOP("entrena::ui::RunConfigPanel", "Run name:")},
    {"seed", "entrena::ui::KeyLabels", QT_TRANSLATE_NOOP("entrena::ui::KeyLabels", "Random seed:")},
    {"data.dataset", "entrena::ui::RunConfigPanel", QT_TRANSLATE_NOOP("entrena::ui::RunConfigPanel", "Data set:")},
    {"data.task", "entrena::ui::KeyLabels", QT_TRANSLATE_NOOP("entrena::ui::KeyLabels", "Task:")},
    {"data.path", "entrena::ui::RunConfigPanel", QT_TRANSLATE_NOOP("entrena::ui::RunConfigPanel", "Folder:")},
    {"data.test_path", "entrena::ui::RunConfigPanel", QT_TRANSLATE_NOOP("entrena::ui::RunConfigPanel", "Test file:")},
    {"data.label_column", "entrena::ui::RunConfigPanel", QT_TRANSLATE_NOOP("entrena::ui::RunConfigPanel", "Label column:")},
    {"data.batch_size", "entrena::ui::RunConfigPanel", QT_TRANSLATE_NOOP("entrena::ui::RunConfigPanel", "Batch size:")},
    {"data.augment_crop", "entrena::ui::RunConfigPanel",
     QT_TRANSLATE_NOOP("entrena::ui::RunConfigPanel", "Random crop (pixels):")},
    {"data.augment_flip", "entrena::ui::RunConfigPanel", QT_TRANSLATE_NOOP("entrena::ui::RunConfigPanel", "Random flip:")},
    {"data.fold", "entrena::ui::KeyLabels", QT_TRANSLATE_NOOP("entrena::ui::KeyLabels", "Fold:")},
    {"data.folds", "entrena::ui::KeyLabels", QT_TRANSLATE_NOOP("entrena::ui::KeyLabels", "Folds:")},
    {"data.val_fraction", "entrena::ui::KeyLabels", QT_TRANSLATE_NOOP("entrena::ui::KeyLabels", "Validation share:")},
    {"data.balance", "entrena::ui::KeyLabels", QT_TRANSLATE_NOOP("entrena::ui::KeyLabels", "Balance classes:")},
    {"model.arch", "entrena::ui::RunConfigPanel", QT_TRANSLATE_NOOP("entrena::ui::RunConfigPanel", "Architecture:")},
    {"model.hidden", "entrena::ui::RunConfigPanel", QT_TRANSLATE_NOOP("entrena::ui::RunConfigPanel", "Hidden widths:")},
    {"model.channels", "entrena::ui::RunConfigPanel", QT_TRANSLATE_NOOP("entrena::ui::RunConfigPanel", "Channels:")},
    {"model.blocks", "entrena::ui::RunConfigPanel", QT_TRANSLATE_NOOP("entrena::ui::RunConfigPanel", "Blocks per stage:")},
    {"model.dropout", "entrena::ui::RunConfigPanel", QT_TRANSLATE_NOOP("entrena::ui::RunConfigPanel", "Dropout:")},
    {"optimizer.name", "entrena::ui::RunConfigPanel", QT_TRANSLATE_NOOP("entrena::ui::RunConfigPanel", "Algorithm:")},
    {"optimizer.lr", "entrena::ui::RunConfigPanel", QT_TRANSLATE_NOOP("entrena::ui::RunConfigPanel", "Learning rate:")},
    {"optimizer.weight_decay", "entrena::ui::RunConfigPanel", QT_TRANSLATE_NOOP("entrena::ui::RunConfigPanel", "Weight decay:")},
    {"scheduler.name", "entrena::ui::RunConfigPanel", QT_TRANSLATE_NOOP("entrena::ui::RunConfigPanel", "Schedule:")},
    {"scheduler.warmup_steps", "entrena::ui::RunConfigPanel",
     QT_TRANSLATE_NOOP("entrena::ui::RunConfigPanel", "Warm-up (steps):")},
    {"train.epochs", "entrena::ui::RunConfigPanel", QT_TRANSLATE_NOOP("entrena::ui::RunConfigPanel", "Epochs:")},
    {"train.grad_clip", "entrena::ui::RunConfigPanel", QT_TRANSLATE_NOOP("entrena::ui::RunConfigPanel", "Clip gradient norm:")},
    {"train.accumulate", "entrena::ui::RunConfigPanel", QT_TRANSLATE_NOOP("entrena::ui::RunConfigPanel", "Accumulate batches:")},
    {"train.label_smoothing", "entrena::ui::RunConfigPanel",
     QT_TRANSLATE_NOOP("entrena::ui::RunConfigPanel", "Label smoothing:")},
    {"train.early_stop_patience", "entrena::ui::RunConfigPanel",
     QT_TRANSLATE_NOOP("entrena::ui::RunConfigPanel", "Early stop after (epochs):")},
    {"train.precision", "entrena::ui::RunConfigPanel", QT_TRANSLATE_NOOP("entrena::ui::RunConfigPanel", "Precision:")},
    {"devices.threads", "entrena::ui::RunConfigPanel", QT_TRANSLATE_NOOP("entrena::ui::RunConfigPanel", "CPU threads:")},
    // Keys the sweep dialog offers that the form has no row for.
    {"optimizer.nesterov", "entrena::ui::KeyLabels", QT_TRANSLATE_NOOP("entrena::ui::KeyLabels", "Nesterov momentum:")},
    {"optimizer.dampening", "entrena::ui::KeyLabels", QT_TRANSLATE_NOOP("entrena::ui::KeyLabels", "Momentum dampening:")},
    {"data.train_limit", "entrena::ui::KeyLabels", QT_TRANSLATE_NOOP("entrena::ui::KeyLabels", "Training samples used:")},
    {"data.test_limit", "entrena::ui::KeyLabels", QT_TRANSLATE_NOOP("entrena::ui::KeyLabels", "Test samples used:")},
    {"train.max_steps", "entrena::ui::KeyLabels", QT_TRANSLATE_NOOP("entrena::ui::KeyLabels", "Steps at most:")},
    {"train.keep_checkpoints", "entrena::ui::KeyLabels", QT_TRANSLATE_NOOP("entrena::ui::KeyLabels", "Checkpoints kept:")},
    {"train.early_stop_metric", "entrena::ui::KeyLabels", QT_TRANSLATE_NOOP("entrena::ui::KeyLabels", "Early stop watches:")},
    {"train.early_stop_min_delta", "entrena::ui::KeyLabels",
     QT_TRANSLATE_NOOP("entrena::ui::KeyLabels", "Early stop's smallest improvement:")},
    {"train.divergence_spike", "entrena::ui::KeyLabels",
     QT_TRANSLATE_NOOP("entrena::ui::KeyLabels", "Loss spike that rolls back:")},
    {"train.rollback_lr_factor", "entrena::ui::KeyLabels",
     QT_TRANSLATE_NOOP("entrena::ui::KeyLabels", "Learning rate after a rollback:")},
    {"scheduler.metric", "entrena::ui::KeyLabels", QT_TRANSLATE_NOOP("entrena::ui::KeyLabels", "Figure watched:")},
    {"scheduler.mode", "entrena::ui::KeyLabels", QT_TRANSLATE_NOOP("entrena::ui::KeyLabels", "Better is:")},
    {"scheduler.threshold", "entrena::ui::KeyLabels", QT_TRANSLATE_NOOP("entrena::ui::KeyLabels", "Smallest improvement:")},
    {"scheduler.threshold_mode", "entrena::ui::KeyLabels", QT_TRANSLATE_NOOP("entrena::ui::KeyLabels", "Improvement measured:")},
    {"scheduler.cooldown", "entrena::ui::KeyLabels", QT_TRANSLATE_NOOP("entrena::ui::KeyLabels", "Cool-down (epochs):")},
    {"scheduler.min_lr", "entrena::ui::KeyLabels", QT_TRANSLATE_NOOP("entrena::ui::KeyLabels", "Lowest learning rate:")},
    {"scheduler.eps", "entrena::ui::KeyLabels", QT_TRANSLATE_NOOP("entrena::ui::KeyLabels", "Smallest reduction:")},
};

template <class Entries>
const char* entryLabel(const Entries& entries, const std::string& key)
{
    for (const auto& e : entries)
        for (const auto& k : e.keys)
            if (key == k.key && k.form.label)
                return k.form.label;
    return nullptr;
}

/// The English label and its translation context, or nullptrs.
std::pair<const char*, const char*> find(const QString& key)
{
    for (const FormWord& w : kFormWords)
        if (key == QLatin1String(w.key))
            return {w.context, w.label};
    const std::string section = key.section(QLatin1Char('.'), 0, 0).toStdString();
    const std::string name = key.section(QLatin1Char('.'), 1).toStdString();
    const char* label = section == "scheduler"   ? entryLabel(schedulerRegistry(), name)
                        : section == "data"      ? entryLabel(datasetRegistry(), name)
                        : section == "optimizer" ? entryLabel(optimizerRegistry(), name)
                        : section == "model"     ? entryLabel(modelRegistry(), name)
                                                 : nullptr;
    return {label ? "Registry" : nullptr, label};
}

} // namespace

bool hasKeyLabel(const QString& key)
{
    return find(key).second != nullptr;
}

QString keyLabel(const QString& key)
{
    const auto [context, label] = find(key);
    if (!label)
        return key;
    QString text = std::string(context) == "Registry" ? registryText(label) : QCoreApplication::translate(context, label);
    if (text.endsWith(QLatin1Char(':')))
        text.chop(1);
    return text.trimmed();
}

} // namespace entrena::ui
