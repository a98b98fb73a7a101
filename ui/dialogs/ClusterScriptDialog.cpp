#include "dialogs/ClusterScriptDialog.h"

#include "entrena/dist/Launcher.h"
#include "entrena/store/AtomicFile.h"
#include "widgets/ScreenFit.h"

#include <QApplication>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFormLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace entrena::ui {

QPlainTextEdit* ClusterScriptDialog::codeText(const QString& objectName, const QString& accessibleName)
{
    // Read-only text in the fixed font; Tab goes on, as in any form, and a screen reader names it.
    auto* text = new QPlainTextEdit;
    text->setObjectName(objectName);
    text->setReadOnly(true);
    text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    text->setAccessibleName(accessibleName);
    text->setTabChangesFocus(true);
    return text;
}

ClusterScriptDialog::ClusterScriptDialog(RunConfig config, QWidget* parent) : QDialog(parent), config_(std::move(config))
{
    setWindowTitle(tr("Launch on a cluster"));
    const QString name = QString::fromStdString(config_.name.empty() ? "entrena" : config_.name);
    configPath_ = name + QStringLiteral(".json");

    nodes_ = new QSpinBox;
    nodes_->setRange(1, 4096);
    ranks_ = new QSpinBox;
    ranks_->setRange(1, 1024);
    ranks_->setValue(config_.devices.type == DeviceType::Cuda ? std::max(1, int(config_.devices.ids.size())) : 1);
    auto* form = new QFormLayout;
    form->addRow(tr("Machines (nodes):"), nodes_);
    form->addRow(config_.devices.type == DeviceType::Cuda ? tr("GPUs per machine:") : tr("Processes per machine:"), ranks_);

    command_ = codeText(QStringLiteral("torchrunCommand"), tr("Command for torchrun"));
    command_->setMaximumHeight(80);
    script_ = codeText(QStringLiteral("sbatchScript"), tr("Slurm batch script"));
    script_->setLineWrapMode(QPlainTextEdit::NoWrap);
    note_ = new QLabel(tr("Every machine needs entrena-cli on its PATH and the data set at the configured path. "
                          "Rank 0 records the run in its run store."));
    note_->setWordWrap(true);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    auto* copyCommand = buttons->addButton(tr("Copy command"), QDialogButtonBox::ActionRole);
    auto* copyScript = buttons->addButton(tr("Copy script"), QDialogButtonBox::ActionRole);
    auto* saveButton = buttons->addButton(tr("Save script and configuration…"), QDialogButtonBox::ActionRole);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(copyCommand, &QPushButton::clicked, this, [this] { QApplication::clipboard()->setText(command()); });
    connect(copyScript, &QPushButton::clicked, this, [this] { QApplication::clipboard()->setText(script()); });
    connect(saveButton, &QPushButton::clicked, this, [this, name] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Save the sbatch script"), name + QStringLiteral(".sbatch"),
                                                          tr("Slurm batch scripts (*.sbatch *.sh)"));
        if (path.isEmpty())
            return;
        const QString error = save(path);
        if (!error.isEmpty())
            QMessageBox::warning(this, tr("Launch on a cluster"), error);
    });
    connect(nodes_, &QSpinBox::valueChanged, this, &ClusterScriptDialog::update);
    connect(ranks_, &QSpinBox::valueChanged, this, &ClusterScriptDialog::update);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(new QLabel(tr("On every machine (torchrun):")));
    layout->addWidget(command_);
    layout->addWidget(new QLabel(tr("Or submit to Slurm with sbatch:")));
    layout->addWidget(script_, 1);
    layout->addWidget(note_);
    layout->addWidget(buttons);
    sizeToScreen(this, QSize(760, 560));
    update();
}

void ClusterScriptDialog::update()
{
    const ClusterLaunch l = clusterLaunch(configPath_.toStdString(), nodes_->value(), ranks_->value(),
                                          config_.devices.type == DeviceType::Cuda, config_.name.empty() ? "entrena" : config_.name);
    command_->setPlainText(QString::fromStdString(l.torchrun));
    script_->setPlainText(QString::fromStdString(l.sbatch));
}

QString ClusterScriptDialog::command() const
{
    return command_->toPlainText();
}

QString ClusterScriptDialog::script() const
{
    return script_->toPlainText();
}

QString ClusterScriptDialog::save(const QString& scriptPath)
{
    const QFileInfo info(scriptPath);
    const QString configPath = info.absoluteDir().filePath(info.completeBaseName() + QStringLiteral(".json"));
    try {
        AtomicFile json(configPath.toStdString());
        json.write(config_.toJson(2) + "\n");
        json.commit();
        configPath_ = configPath;
        update();
        AtomicFile sbatch(scriptPath.toStdString());
        sbatch.write(script().toStdString());
        sbatch.commit();
        QFile::setPermissions(scriptPath, QFile::permissions(scriptPath) | QFileDevice::ExeOwner | QFileDevice::ExeGroup);
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

} // namespace entrena::ui
