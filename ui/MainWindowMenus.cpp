// MainWindow's menus and their texts, and the configuration files it opens and saves: kept apart
// from MainWindow.cpp, which wires the window's parts together.
#include "MainWindow.h"
#include "RunTableModel.h"
#include "TrainingController.h"
#include "WindowLayout.h"
#include "dialogs/ClusterScriptDialog.h"
#include "dialogs/DevicesDialog.h"
#include "dialogs/SettingsDialog.h"
#include "dialogs/UserGuideDialog.h"
#include "entrena/system/Devices.h"
#include "panels/RunConfigPanel.h"
#include "panels/RunsPanel.h"
#include "settings/Settings.h"

#include <QAction>
#include <QApplication>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSaveFile>
#include <QTimer>

namespace entrena::ui {

void MainWindow::createFileMenu()
{
    fileMenu_ = menuBar()->addMenu(QString());
    openAction_ = fileMenu_->addAction(QString(), this, &MainWindow::openConfig);
    openAction_->setShortcut(QKeySequence::Open);
    saveAction_ = fileMenu_->addAction(QString(), this, &MainWindow::saveConfig);
    saveAction_->setShortcut(QKeySequence::Save);
    reportAction_ = fileMenu_->addAction(QString(), runs_, &RunsPanel::exportReportOfSelection);
    reportAction_->setObjectName(QStringLiteral("exportReportAction"));
    clusterAction_ = fileMenu_->addAction(QString(), this, [this] {
        const auto config = validatedConfig(tr("Cannot write a cluster script"));
        if (!config)
            return;
        ClusterScriptDialog dialog(*config, this);
        dialog.exec();
    });
    clusterAction_->setObjectName(QStringLiteral("clusterAction"));
    fileMenu_->addSeparator();
    // Recipes shipped with Entrena (resources/configs), loaded into the panel to start from.
    recipesMenu_ = fileMenu_->addMenu(QString());
    defaultRecipeAction_ = recipesMenu_->addAction(QString(), this, [this] { loadRecipe(QStringLiteral("default.json")); });
    fastCnnRecipeAction_ = recipesMenu_->addAction(QString(), this, [this] { loadRecipe(QStringLiteral("cnn-fast.json")); });
    defaultRecipeAction_->setObjectName(QStringLiteral("defaultRecipeAction"));
    fastCnnRecipeAction_->setObjectName(QStringLiteral("fastCnnRecipeAction"));
    fileMenu_->addSeparator();
    quitAction_ = fileMenu_->addAction(QString(), this, &QWidget::close);
    quitAction_->setShortcut(QKeySequence::Quit);
}

void MainWindow::createEditMenu()
{
    editMenu_ = menuBar()->addMenu(QString());
    settingsAction_ = editMenu_->addAction(QString(), this, [this] {
        SettingsDialog dialog(languages_, this);
        if (dialog.exec() == QDialog::Accepted)
            runs_->model()->setBaselineTolerance(Settings::baselineTolerance.value() / 100.0);
    });
    // The desktop's Preferences keys where it has them; Ctrl+, everywhere (Linux desktops have none).
    QList<QKeySequence> settingsKeys = QKeySequence::keyBindings(QKeySequence::Preferences);
    if (!settingsKeys.contains(QKeySequence(Qt::CTRL | Qt::Key_Comma)))
        settingsKeys << QKeySequence(Qt::CTRL | Qt::Key_Comma);
    settingsAction_->setShortcuts(settingsKeys);
    settingsAction_->setObjectName(QStringLiteral("settingsAction"));
}

void MainWindow::createRunMenu()
{
    // The buttons' work from the keyboard: each action clicks its button, so a disabled button
    // (a run training, a form with a problem) is a disabled shortcut too.
    runMenu_ = menuBar()->addMenu(QString());
    const auto clicks = [this](const char* button, const QKeySequence& keys, const char* name) {
        QAction* action = runMenu_->addAction(QString(), this, [this, button] {
            if (auto* b = findChild<QPushButton*>(QLatin1String(button)))
                b->click();
        });
        action->setShortcut(keys);
        action->setObjectName(QLatin1String(name));
        return action;
    };
    // While a run trains, "Add to queue" stands where Start stood: the shortcut queues.
    startAction_ = runMenu_->addAction(QString(), this, [this] {
        const char* button = controller_->isRunning() ? "queueButton" : "startButton";
        if (auto* b = findChild<QPushButton*>(QLatin1String(button)))
            b->click();
    });
    startAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return));
    startAction_->setObjectName(QStringLiteral("startAction"));
    stopAction_ = clicks("stopButton", QKeySequence(Qt::CTRL | Qt::Key_Period), "stopAction");
    findLrAction_ = clicks("findLrButton", QKeySequence(Qt::CTRL | Qt::Key_L), "findLrAction");
    findBatchAction_ = clicks("findBatchButton", QKeySequence(Qt::CTRL | Qt::Key_B), "findBatchAction");
    previewDataAction_ = clicks("previewDataButton", QKeySequence(Qt::CTRL | Qt::Key_D), "previewDataAction");
    runMenu_->addSeparator();
    compareAction_ = clicks("compareButton", QKeySequence(Qt::CTRL | Qt::Key_K), "compareAction");
    sweepAction_ = runMenu_->addAction(QString(), this, &MainWindow::openSweep);
    sweepAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_W));
    sweepAction_->setObjectName(QStringLiteral("sweepAction"));
    crossValidateAction_ = runMenu_->addAction(QString(), this, &MainWindow::openCrossValidation);
    crossValidateAction_->setObjectName(QStringLiteral("crossValidateAction"));
    // The buttons' tooltips name these keys: Start was ~36 Tabs away from the form's first field.
    config_->showShortcuts({{QStringLiteral("startButton"), startAction_->shortcut()},
                            {QStringLiteral("queueButton"), startAction_->shortcut()},
                            {QStringLiteral("stopButton"), stopAction_->shortcut()},
                            {QStringLiteral("findLrButton"), findLrAction_->shortcut()}});
}

void MainWindow::createHelpMenu()
{
    helpMenu_ = menuBar()->addMenu(QString());
    guideAction_ = helpMenu_->addAction(QString(), this, [this] {
        auto* guide = new UserGuideDialog(this);
        guide->setAttribute(Qt::WA_DeleteOnClose);
        guide->show(); // beside the window, not in front of it: read while using it
    });
    guideAction_->setObjectName(QStringLiteral("userGuideAction"));
    guideAction_->setShortcut(QKeySequence::HelpContents);
    aboutAction_ = helpMenu_->addAction(QString(), this, [this] {
        QApplication::setOverrideCursor(Qt::WaitCursor);
        const DeviceReport report = probeDevices(!controller_->isRunning()); // no GEMM timing while training
        QApplication::restoreOverrideCursor();
        DevicesDialog dialog(report, this);
        dialog.exec();
    });
    aboutAction_->setObjectName(QStringLiteral("aboutAction"));
}

void MainWindow::createMenus()
{
    createFileMenu();
    createEditMenu();
    createRunMenu();
    layout_->addViewMenu();
    createHelpMenu();
}

void MainWindow::retranslate()
{
    formScroll_->setAccessibleName(tr("Run configuration")); // it takes the focus: the wheel and keys scroll it
    setWindowTitle(tr("Entrena — %1").arg(QFileInfo(dbPath_).fileName()));
    fileMenu_->setTitle(tr("&File"));
    openAction_->setText(tr("&Open configuration…"));
    saveAction_->setText(tr("&Save configuration…"));
    reportAction_->setText(tr("Export &report of the selected runs…"));
    clusterAction_->setText(tr("&Launch on a cluster…"));
    recipesMenu_->setTitle(tr("&Recipes"));
    defaultRecipeAction_->setText(tr("Default: MLP, reduce on plateau, 12 epochs"));
    fastCnnRecipeAction_->setText(tr("Fast CNN: one-cycle, 2 epochs to 91% test accuracy"));
    quitAction_->setText(tr("&Quit"));
    editMenu_->setTitle(tr("&Edit"));
    settingsAction_->setText(tr("&Settings…"));
    runMenu_->setTitle(tr("&Run"));
    startAction_->setText(tr("&Start"));
    stopAction_->setText(tr("S&top"));
    findLrAction_->setText(tr("Find &learning rate…"));
    findBatchAction_->setText(tr("Find &batch size…"));
    previewDataAction_->setText(tr("Preview &data…"));
    compareAction_->setText(tr("&Compare selected runs"));
    sweepAction_->setText(tr("S&weep…"));
    crossValidateAction_->setText(tr("Cross-&validate…"));
    helpMenu_->setTitle(tr("&Help"));
    guideAction_->setText(tr("&User guide"));
    aboutAction_->setText(tr("&About and devices…"));
    layout_->retranslate();
    retranslateTabs(); // Runs, Queue, Experiments: they stayed English after a switch to Spanish
    // The form's own labels change in its own LanguageChange, which may come after this one.
    QTimer::singleShot(0, this, &MainWindow::fitFormWidth);
    if (!controller_->isRunning())
        status_->setText(tr("Ready. Runs are stored in %1").arg(dbPath_));
}

void MainWindow::openConfig()
{
    const QString file = QFileDialog::getOpenFileName(this, tr("Open configuration"), Settings::lastConfigFolder.value(),
                                                      tr("Configurations (*.json)"));
    if (file.isEmpty())
        return;
    Settings::lastConfigFolder.set(QFileInfo(file).absolutePath());
    try {
        config_->setConfig(RunConfig::fromFile(file.toStdString()));
    } catch (const ConfigError& e) {
        showError(tr("Cannot open configuration"), QString::fromStdString(e.what()));
    }
}

void MainWindow::loadRecipe(const QString& name)
{
    QFile file(QStringLiteral(":/configs/") + name);
    try {
        if (!file.open(QIODevice::ReadOnly))
            throw ConfigError(file.errorString().toStdString());
        config_->setConfig(RunConfig::fromJson(file.readAll().toStdString()));
    } catch (const ConfigError& e) {
        showError(tr("Cannot open configuration"), QString::fromStdString(e.what()));
    }
}

void MainWindow::saveConfig()
{
    const QString file = QFileDialog::getSaveFileName(this, tr("Save configuration"), Settings::lastConfigFolder.value(),
                                                      tr("Configurations (*.json)"));
    if (file.isEmpty())
        return;
    Settings::lastConfigFolder.set(QFileInfo(file).absolutePath());
    QSaveFile out(file);
    if (!out.open(QIODevice::WriteOnly) || out.write(QByteArray::fromStdString(config_->config().toJson(2) + "\n")) < 0 ||
        !out.commit())
        showError(tr("Cannot save configuration"), tr("Could not write %1: %2").arg(file, out.errorString()));
}

} // namespace entrena::ui
