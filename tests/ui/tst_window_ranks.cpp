// Data-parallel runs from the window: ranks launched and stopped together, ranks that never come,
// and the cluster script written for the same configuration.
#include "MainWindow.h"
#include "MainWindowFixture.h"
#include "RunTableModel.h"
#include "TrainingController.h"
#include "charts/LiveCharts.h"
#include "dialogs/ClusterScriptDialog.h"
#include "entrena/store/RunStore.h"
#include "form/DevicePicker.h"
#include "panels/RunConfigPanel.h"
#include "panels/RunsPanel.h"
#include "settings/LanguageManager.h"

#include <QPushButton>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest>
#include <qcustomplot.h>

using namespace entrena;
using namespace entrena::ui;
using entrena::test::childProcesses;
using entrena::test::smallRun;

class TestWindowRanks : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;
    LanguageManager languages_;

private Q_SLOTS:
    // Two CPU processes from the window: this process is rank 0, entrena-cli is rank 1.
    void dataParallelRunFromTheWindowAndStopStopsAll()
    {
        qputenv("ENTRENA_RANK_PROGRAM", ENTRENA_CLI);
        MainWindow w(dir_.filePath(QStringLiteral("dp.sqlite")), smallRun(), languages_);
        w.configPanel()->findChild<DevicePicker*>()->cpuRanksBox()->setValue(2);
        int worldSize = 0;
        connect(w.controller(), &app::TrainingController::started, this, [&](const StartEvent& e) { worldSize = e.worldSize; });
        QVERIFY(w.startTraining());
        QTRY_VERIFY_WITH_TIMEOUT(!w.controller()->isRunning(), 240000);
        QVERIFY2(w.lastError().isEmpty(), qPrintable(w.lastError()));
        QCOMPARE(worldSize, 2);
        QCOMPARE(w.runs()->model()->rowCount(), 1); // rank 0 alone recorded it
        QCOMPARE(w.runs()->model()->runAt(0)->status, RunStatus::Finished);
        const double accuracy = w.runs()->model()->runAt(0)->testAccuracy.value_or(0);
        // A global batch of 128, so half the steps of one process with 64: 0.64 here, as one process with 128.
        QVERIFY2(accuracy > 0.6, qPrintable(QString::number(accuracy)));
        QCOMPARE(w.charts()->rankMemoryGraphs().size(), 2);
        QVERIFY(w.charts()->rankMemoryGraphs()[1]->dataCount() > 0);

        // Stop stops every rank: the run ends `stopped` and no rank is left.
        RunConfig longer = smallRun();
        longer.train.epochs = 500;
        w.configPanel()->setConfig(longer);
        QVERIFY(w.startTraining());
        QTRY_VERIFY_WITH_TIMEOUT(w.charts()->trainLossPoints() > 0, 120000);
        QTest::mouseClick(w.findChild<QPushButton*>(QStringLiteral("stopButton")), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!w.controller()->isRunning(), 60000);
        QTRY_COMPARE(w.runs()->model()->rowCount(), 2);
        RunStore store(dir_.filePath(QStringLiteral("dp.sqlite")).toStdString());
        QCOMPARE(store.findRun("2")->status, RunStatus::Stopped);
        QVERIFY2(childProcesses().isEmpty(), "a rank was left running");
    }

    // The other ranks start but never come (a hung program that ignores SIGTERM): rank 0's
    // rendezvous times out, the window says so, and the hung ranks are killed at once.
    void ranksThatNeverComeFailTheRunAndAreKilled()
    {
        const QString hung = dir_.filePath(QStringLiteral("hung-rank.sh"));
        QFile script(hung);
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write("#!/bin/sh\ntrap '' TERM\nexec sleep 300\n");
        script.close();
        script.setPermissions(script.permissions() | QFileDevice::ExeOwner);
        qputenv("ENTRENA_RANK_PROGRAM", hung.toUtf8());
        MainWindow w(dir_.filePath(QStringLiteral("hung.sqlite")), smallRun(), languages_);
        RunConfig c = smallRun();
        c.devices.timeoutS = 2;
        w.configPanel()->setConfig(c);
        w.configPanel()->findChild<DevicePicker*>()->cpuRanksBox()->setValue(2);
        QElapsedTimer clock;
        clock.start();
        QVERIFY(w.startTraining());
        QTRY_VERIFY_WITH_TIMEOUT(!w.controller()->isRunning(), 60000);
        qputenv("ENTRENA_RANK_PROGRAM", ENTRENA_CLI);
        QVERIFY2(w.lastError().contains(QStringLiteral("rank 0 waited 2 s")), qPrintable(w.lastError()));
        QVERIFY2(w.lastError().contains(QStringLiteral("for rank 1, which did not come")), qPrintable(w.lastError()));
        QVERIFY2(!w.lastError().contains(QStringLiteral("frame #")), "LibTorch's backtrace in the message");
        // Killed with the failed rendezvous, not after the 7 s a stop request would allow them.
        QVERIFY2(clock.elapsed() < 6000, qPrintable(QString::number(clock.elapsed())));
        QCOMPARE(w.runs()->model()->rowCount(), 0); // nothing was stored
        QVERIFY2(childProcesses().isEmpty(), "a rank was left running");
    }

    void clusterScriptDialogWritesTheScriptAndConfiguration()
    {
        RunConfig c = smallRun();
        c.devices.type = DeviceType::Cuda;
        c.devices.ids = {0, 1};
        ClusterScriptDialog dialog(c);
        QCOMPARE(dialog.ranksBox()->value(), 2); // one rank per listed GPU
        dialog.nodesBox()->setValue(3);
        QVERIFY(dialog.command().startsWith(QStringLiteral("torchrun --nnodes=3 --nproc_per_node=2 ")));
        QVERIFY(dialog.script().contains(QStringLiteral("#SBATCH --nodes=3\n")));
        QVERIFY(dialog.script().contains(QStringLiteral("#SBATCH --gpus-per-node=2\n")));

        const QString path = dir_.filePath(QStringLiteral("job.sbatch"));
        QCOMPARE(dialog.save(path), QString());
        const QString json = dir_.filePath(QStringLiteral("job.json"));
        QVERIFY(QFileInfo(path).isExecutable());
        QFile script(path);
        QVERIFY(script.open(QIODevice::ReadOnly));
        QVERIFY(QString::fromUtf8(script.readAll()).contains(QStringLiteral("--config '%1'").arg(json)));
        QCOMPARE(RunConfig::fromFile(json.toStdString()).toJson(), c.toJson()); // the configuration as it was
        QVERIFY(!dialog.save(QStringLiteral("/proc/no/such/job.sbatch")).isEmpty());
    }
};

QTEST_MAIN(TestWindowRanks)

#include "tst_window_ranks.moc"
