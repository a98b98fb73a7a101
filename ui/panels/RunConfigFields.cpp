// RunConfigPanel's fields as the configuration names them, and the check of the form as it is
// edited: which key each labelled field edits, and the engine's verdict in the form's words.
#include "panels/RunConfigPanel.h"

#include "panels/DevicePicker.h"
#include "panels/FormCheck.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

#include <algorithm>

namespace entrena::ui {

std::string RunConfigPanel::selected(const QComboBox* box)
{
    return box->currentData().toString().toStdString();
}

std::vector<RunConfigPanel::FieldText> RunConfigPanel::fieldTexts() const
{
    return {
        {name_, "name", tr("Run name:")},
        {dataset_, "data.dataset", tr("Data set:")},
        {pathRow_, "data.path", selected(dataset_) == "csv" ? tr("Training file:") : tr("Folder:")},
        {testRow_, "data.test_path", tr("Test file:")},
        {labelColumn_, "data.label_column", tr("Label column:")},
        {batchSize_, "data.batch_size", tr("Batch size:")},
        {crop_, "data.augment_crop", tr("Random crop (pixels):")},
        {flip_, "data.augment_flip", tr("Random flip:")},
        {arch_, "model.arch", tr("Architecture:")},
        {modelPathRow_, "model.path", tr("TorchScript file:")},
        {hidden_, "model.hidden", tr("Hidden widths:")},
        {channels_, "model.channels", tr("Channels:")},
        {blocks_, "model.blocks", tr("Blocks per stage:")},
        {dropout_, "model.dropout", tr("Dropout:")},
        {optimizer_, "optimizer.name", tr("Algorithm:")},
        {lr_, "optimizer.lr", tr("Learning rate:")},
        {momentum_, "optimizer.momentum", tr("Momentum:")},
        {weightDecay_, "optimizer.weight_decay", tr("Weight decay:")},
        {scheduler_, "scheduler.name", tr("Schedule:")},
        {stepSize_, "scheduler.step_size", tr("Every (epochs):")},
        {stepGamma_, "scheduler.gamma", tr("Multiply by:")},
        {milestones_, "scheduler.milestones", tr("At epochs:")},
        {multiGamma_, "scheduler.gamma", tr("Multiply by:")},
        {expGamma_, "scheduler.gamma", tr("Per epoch multiply by:")},
        {tMax_, "scheduler.T_max", tr("Period (epochs):")},
        {etaMin_, "scheduler.eta_min", tr("Minimum rate:")},
        {maxLr_, "scheduler.max_lr", tr("Peak rate:")},
        {pctStart_, "scheduler.pct_start", tr("Rising share:")},
        {anneal_, "scheduler.anneal_strategy", tr("Annealing:")},
        {factor_, "scheduler.factor", tr("Multiply by:")},
        {patience_, "scheduler.patience", tr("Patience (epochs):")},
        {warmup_, "scheduler.warmup_steps", tr("Warm-up (steps):")},
        {epochs_, "train.epochs", tr("Epochs:")},
        {gradClip_, "train.grad_clip", tr("Clip gradient norm:")},
        {accumulate_, "train.accumulate", tr("Accumulate batches:")},
        {labelSmoothing_, "train.label_smoothing", tr("Label smoothing:")},
        {earlyStop_, "train.early_stop_patience", tr("Early stop after (epochs):")},
        {precision_, "train.precision", tr("Precision:")},
        {device_, "devices.ids", tr("Devices:")},
        {threads_, "devices.threads", tr("CPU threads:")},
    };
}

QString RunConfigPanel::problem() const
{
    try {
        // The same checks as entrena-cli, through the JSON contract.
        RunConfig::fromJson(config().toJson());
        return {};
    } catch (const ConfigError& e) {
        // In the form's words: its labels for the keys it shows ("Learning rate must be …"). A
        // key the form does not show (from a loaded file) keeps its name.
        QString message = QString::fromStdString(e.what());
        std::vector<FieldText> fields = fieldTexts();
        std::sort(fields.begin(), fields.end(), [](const FieldText& a, const FieldText& b) { return qstrlen(a.key) > qstrlen(b.key); });
        for (const FieldText& f : fields) {
            if (!labels_.value(f.field) || !labels_.value(f.field)->isVisibleTo(this))
                continue; // several fields share scheduler.gamma: the one shown names it
            QString label = f.label;
            if (label.endsWith(QLatin1Char(':')))
                label.chop(1);
            message.replace(QString::fromLatin1(f.key), QStringLiteral("«%1»").arg(label));
        }
        return message;
    }
}

void RunConfigPanel::showProblem(const QString& problem)
{
    problem_->setText(problem);
    problem_->setVisible(!problem.isEmpty());
    updateButtons();
}

void RunConfigPanel::updateButtons()
{
    const bool fine = !check_ || check_->problem().isEmpty();
    start_->setEnabled(!running_ && !searching_ && fine);
    findLr_->setEnabled(!running_ && fine);
    findBatch_->setEnabled(!running_ && (fine || searching_));
    stop_->setEnabled(running_);
    const QString why = fine ? QString() : tr("Fix the form first: %1").arg(check_->problem());
    for (QPushButton* b : {start_, findLr_})
        b->setToolTip(why.isEmpty() ? b->property("help").toString() : why);
}

QString RunConfigPanel::defaultPath(const std::string& dataset)
{
    // Debian's dataset-fashion-mnist; the other sources have no place of their own.
    return dataset == "fashion-mnist" ? QStringLiteral("/usr/share/datasets/fashion-mnist") : QString();
}

} // namespace entrena::ui
