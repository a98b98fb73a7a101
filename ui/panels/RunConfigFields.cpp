// RunConfigPanel's fields as the configuration names them, and the check of the form as it is
// edited: which key each labelled field edits, and the engine's verdict in the form's words.
#include "form/DevicePicker.h"
#include "form/FormCheck.h"
#include "form/ModelSummaryLine.h"
#include "panels/RunConfigPanel.h"
#include "runs/RunNaming.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHash>
#include <QLabel>
#include <QLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <algorithm>
#include <cstring>

namespace entrena::ui {

std::string RunConfigPanel::selected(const QComboBox* box)
{
    return box->currentData().toString().toStdString();
}

void RunConfigPanel::buildDataKeyRows()
{
    for (const DatasetEntry& e : datasetRegistry())
        for (const auto& k : e.keys) {
            // The CSV's test file and label column have fields of their own (a Browse button).
            if (!k.form.label || std::strcmp(k.key, "test_path") == 0 || std::strcmp(k.key, "label_column") == 0)
                continue;
            dataKeyRows_.push_back({&e, KeyField<DataSpec>::make(k)});
            dataKeyRows_.back().field.widget->setObjectName(QStringLiteral("data.") + QString::fromLatin1(k.key));
            addRow(dataForm_, dataKeyRows_.back().field.widget);
        }
    // The keys every data set has that the form shows (data.balance): no entry of their own.
    for (const auto& k : dataKeys()) {
        if (!k.form.label)
            continue;
        dataKeyRows_.push_back({nullptr, KeyField<DataSpec>::make(k)});
        dataKeyRows_.back().field.widget->setObjectName(QStringLiteral("data.") + QString::fromLatin1(k.key));
        addRow(dataForm_, dataKeyRows_.back().field.widget);
    }
}

void RunConfigPanel::buildOptimizerKeyRows()
{
    for (const OptimizerEntry& e : optimizerRegistry())
        for (const auto& k : e.keys) {
            // One row for a key several algorithms read from the same field (SGD's and RMSprop's momentum);
            // a key of the same name kept elsewhere (a parameter block) is a row of its own.
            const bool known = std::any_of(optimizerKeyRows_.begin(), optimizerKeyRows_.end(), [&k](const OptimizerKeyRow& r) {
                return std::strcmp(r.field.key->key, k.key) == 0 && r.field.key->get == k.get;
            });
            if (!k.form.label || known)
                continue;
            optimizerKeyRows_.push_back({KeyField<OptimizerSpec>::make(k)});
            optimizerKeyRows_.back().field.widget->setObjectName(QStringLiteral("optimizer.") + QString::fromLatin1(k.key));
            addRow(optimForm_, optimizerKeyRows_.back().field.widget);
        }
}

void RunConfigPanel::buildModelKeyRows()
{
    for (const ModelEntry& e : modelRegistry())
        for (const auto& k : e.keys) {
            // The built-in architectures' keys have fields of their own (a list, a file with Browse).
            static const char* const own[] = {"path", "hidden", "channels", "blocks"};
            const bool builtIn = int(e.arch) <= int(ModelArch::TorchScript); // the enum's own values
            if (!k.form.label ||
                (builtIn && std::any_of(std::begin(own), std::end(own), [&k](const char* o) { return !std::strcmp(o, k.key); })))
                continue;
            modelKeyRows_.push_back({&e, KeyField<ModelSpec>::make(k)});
            modelKeyRows_.back().field.widget->setObjectName(QStringLiteral("model.") + QString::fromLatin1(k.key));
            addRow(modelForm_, modelKeyRows_.back().field.widget);
        }
}

bool RunConfigPanel::OptimizerKeyRow::shownFor(OptimizerKind kind) const
{
    const auto& keys = registryEntry(kind).keys;
    return std::any_of(keys.begin(), keys.end(), [this](const auto& k) {
        return k.form.label && std::strcmp(k.key, field.key->key) == 0 && k.get == field.key->get;
    });
}

std::vector<RunConfigPanel::FieldText> RunConfigPanel::fieldTexts() const
{
    std::vector<FieldText> fields = {
        {name_, QStringLiteral("name"), tr("Run name:")},
        {dataset_, QStringLiteral("data.dataset"), tr("Data set:")},
        {pathRow_, QStringLiteral("data.path"),
         registryEntry(selectedKind<DatasetKind>(dataset_)).pathIsFile ? tr("Training file:") : tr("Folder:")},
        {testRow_, QStringLiteral("data.test_path"), tr("Test file:")},
        {labelColumn_, QStringLiteral("data.label_column"), tr("Label column:")},
        {batchSize_, QStringLiteral("data.batch_size"), tr("Batch size:")},
        {crop_, QStringLiteral("data.augment_crop"), tr("Random crop (pixels):")},
        {flip_, QStringLiteral("data.augment_flip"), tr("Random flip:")},
        {arch_, QStringLiteral("model.arch"), tr("Architecture:")},
        {modelPathRow_, QStringLiteral("model.path"), tr("TorchScript file:")},
        {hidden_, QStringLiteral("model.hidden"), tr("Hidden widths:")},
        {channels_, QStringLiteral("model.channels"), tr("Channels:")},
        {blocks_, QStringLiteral("model.blocks"), tr("Blocks per stage:")},
        {dropout_, QStringLiteral("model.dropout"), tr("Dropout:")},
        {optimizer_, QStringLiteral("optimizer.name"), tr("Algorithm:")},
        {lr_, QStringLiteral("optimizer.lr"), tr("Learning rate:")},
        {weightDecay_, QStringLiteral("optimizer.weight_decay"), tr("Weight decay:")},
        {scheduler_, QStringLiteral("scheduler.name"), tr("Schedule:")},
        {warmup_, QStringLiteral("scheduler.warmup_steps"), tr("Warm-up (steps):")},
        {epochs_, QStringLiteral("train.epochs"), tr("Epochs:")},
        {gradClip_, QStringLiteral("train.grad_clip"), tr("Clip gradient norm:")},
        {accumulate_, QStringLiteral("train.accumulate"), tr("Accumulate batches:")},
        {labelSmoothing_, QStringLiteral("train.label_smoothing"), tr("Label smoothing:")},
        {earlyStop_, QStringLiteral("train.early_stop_patience"), tr("Early stop after (epochs):")},
        {precision_, QStringLiteral("train.precision"), tr("Precision:")},
        {device_, QStringLiteral("devices.ids"), tr("Devices:")},
        {threads_, QStringLiteral("devices.threads"), tr("CPU threads:")},
    };
    for (const SchedulerPage& page : schedPages_)
        for (const auto& f : page.fields)
            fields.push_back(
                {f.widget, QStringLiteral("scheduler.") + QString::fromLatin1(f.key->key), registryText(f.key->form.label)});
    for (const DataKeyRow& row : dataKeyRows_)
        fields.push_back({row.field.widget, QStringLiteral("data.") + QString::fromLatin1(row.field.key->key),
                          registryText(row.field.key->form.label)});
    for (const OptimizerKeyRow& row : optimizerKeyRows_)
        fields.push_back({row.field.widget, QStringLiteral("optimizer.") + QString::fromLatin1(row.field.key->key),
                          registryText(row.field.key->form.label)});
    for (const ModelKeyRow& row : modelKeyRows_)
        fields.push_back({row.field.widget, QStringLiteral("model.") + QString::fromLatin1(row.field.key->key),
                          registryText(row.field.key->form.label)});
    return fields;
}

QString RunConfigPanel::inFormWords(const QString& message) const
{
    // Each key once, in one pass over the message: a label put in must not be searched again (the
    // word "name" in «Folder»'s message became «Run name»). A dotted key is a key wherever it stands
    // as a word; a top-level one ("name", "seed") only where the message starts with it, as the
    // configuration's checks write it, since elsewhere it is an English word.
    QHash<QString, QString> labels;
    for (const FieldText& f : fieldTexts()) {
        if (!labels_.value(f.field) || !labels_.value(f.field)->isVisibleTo(this) || labels.contains(f.key))
            continue; // several fields share scheduler.gamma: the one shown names it
        QString label = f.label;
        if (label.endsWith(QLatin1Char(':')))
            label.chop(1);
        labels.insert(f.key, QStringLiteral("«%1»").arg(label));
    }
    QString out;
    qsizetype done = 0;
    static const QRegularExpression word(QStringLiteral("[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)*"));
    for (auto it = word.globalMatch(message); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        const QString key = m.captured(0);
        const bool dotted = key.contains(QLatin1Char('.'));
        if (!labels.contains(key) || (!dotted && m.capturedStart() != 0))
            continue;
        out += message.mid(done, m.capturedStart() - done) + labels.value(key);
        done = m.capturedEnd();
    }
    return out + message.mid(done);
}

QString RunConfigPanel::problem() const
{
    try {
        // The same checks as entrena-cli, through the JSON contract; then the data itself, as the form
        // has read it for the model's size (a run of data that cannot be read fails at once).
        RunConfig::fromJson(config().toJson());
        if (const QString data = summary_->dataProblem(); !data.isEmpty())
            return tr("The data cannot be read: %1").arg(inFormWords(data)); // «Label column», not data.label_column
        return {};
    } catch (const ConfigError& e) {
        // In the form's words: its labels for the keys it shows ("Learning rate must be …"). A
        // key the form does not show (from a loaded file) keeps its name.
        return inFormWords(QString::fromStdString(e.what()));
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
    queue_->setEnabled(running_ && fine);
    findLr_->setEnabled(!running_ && fine);
    findBatch_->setEnabled(!running_ && (fine || searching_));
    stop_->setEnabled(running_);
    const QString why = fine ? QString() : tr("Fix the form first: %1").arg(check_->problem());
    for (QPushButton* b : {start_, queue_, findLr_, stop_}) {
        // Set by the window's Run menu; written in the reader's language ("Control+Intro").
        const QString keys = b->property("shortcutHint").value<QKeySequence>().toString(QKeySequence::NativeText);
        const QString help = b->property("help").toString();
        const QString text = why.isEmpty() || b == stop_ ? help : why;
        b->setToolTip(keys.isEmpty() ? text : QStringLiteral("%1 (%2)").arg(text, keys));
    }
}

QString RunConfigPanel::defaultPath(DatasetKind dataset)
{
    // Debian's dataset-fashion-mnist; the other sources have no place of their own.
    return QString::fromLatin1(registryEntry(dataset).defaultPath);
}

void RunConfigPanel::followSuggestedName()
{
    // The suggested name follows the data and the model while the person has not named the run
    // ("fmnist-mlp" stayed after choosing an image folder).
    const RunConfig c = config();
    const QString suggested = suggestedRunName(c.data.dataset, QString::fromStdString(c.data.path), c.model.arch);
    if (name_->text().trimmed().isEmpty() || name_->text().trimmed() == suggestedName_)
        name_->setText(suggested);
    suggestedName_ = suggested;
}

} // namespace entrena::ui
