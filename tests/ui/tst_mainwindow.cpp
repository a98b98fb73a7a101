// The main window end to end under the offscreen platform: Start trains in a worker thread,
// the charts fill, the finished run appears in the list; bad input is refused with a message.
#include "MainWindow.h"
#include "ChoiceLabels.h"
#include "entrena/config/Registry.h"
#include "RunTableModel.h"
#include "TrainingController.h"
#include "charts/LiveCharts.h"
#include "charts/StepTimeChart.h"
#include "charts/SchedulePreview.h"
#include "dialogs/ClusterScriptDialog.h"
#include "dialogs/LrFinderDialog.h"
#include "dialogs/RunDetailsDialog.h"
#include "entrena/search/BatchSizeFinder.h"
#include "entrena/store/RunStore.h"
#include "panels/DevicePicker.h"
#include "panels/RunConfigPanel.h"
#include "panels/RunsPanel.h"
#include "settings/LanguageManager.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QListWidget>
#include <QRegularExpression>
#include <QScreen>
#include <QStatusBar>
#include <QHeaderView>
#include <QTableView>
#include <QScrollArea>
#include <QScrollBar>
#include <QWheelEvent>
#include <QMessageBox>
#include <QSpinBox>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTemporaryDir>
#include <QtTest>
#include <qcustomplot.h>

using namespace entrena;
using namespace entrena::ui;

namespace {

RunConfig smallRun()
{
    return RunConfig::fromJson(R"({"name": "ui-run", "seed": 5,
        "data": {"path": ")" ENTRENA_FMNIST_DIR R"(", "train_limit": 3000, "test_limit": 1000, "batch_size": 64},
        "model": {"arch": "mlp"}, "scheduler": {"name": "constant"},
        "train": {"epochs": 2, "log_every": 5}})");
}

/// The processes this one started that are still there (any thread's children).
QByteArray childProcesses()
{
    QByteArray all;
    for (const QString& task : QDir(QStringLiteral("/proc/self/task")).entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        QFile children(QStringLiteral("/proc/self/task/%1/children").arg(task));
        all += children.open(QIODevice::ReadOnly) ? children.readAll().trimmed() : QByteArray("unreadable ") + task.toUtf8();
    }
    return all;
}

} // namespace

class TestMainWindow : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;
    LanguageManager languages_;

private Q_SLOTS:
    void startButtonTrainsAndListsTheRun()
    {
        MainWindow w(dir_.filePath(QStringLiteral("ui.sqlite")), smallRun(), languages_);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* start = w.findChild<QPushButton*>(QStringLiteral("startButton"));
        auto* stop = w.findChild<QPushButton*>(QStringLiteral("stopButton"));
        QVERIFY(start && stop);
        QCOMPARE(w.runs()->model()->rowCount(), 0);

        QTest::mouseClick(start, Qt::LeftButton);
        QVERIFY(w.controller()->isRunning());
        QVERIFY(!start->isEnabled());
        QVERIFY(stop->isEnabled());
        // While it trains, the GUI thread stays responsive: the event loop runs here.
        QTRY_VERIFY_WITH_TIMEOUT(w.charts()->trainLossPoints() > 0, 120000);
        QTRY_VERIFY_WITH_TIMEOUT(!w.controller()->isRunning(), 240000);
        QVERIFY2(w.lastError().isEmpty(), qPrintable(w.lastError()));

        // 2,700 samples / 64 = 43 steps an epoch, 86 in all: logged every 5 steps (17) and the last.
        QCOMPARE(w.charts()->trainLossPoints(), 86 / 5 + 1);
        QCOMPARE(w.charts()->learningRatePoints(), w.charts()->trainLossPoints());
        QCOMPARE(w.charts()->validationPoints(), 2);
        // Replots were coalesced: far fewer than one per event would be.
        QVERIFY(w.charts()->replotCount() >= 1);

        auto* model = w.runs()->model();
        QCOMPARE(model->rowCount(), 1);
        const RunRecord* run = model->runAt(0);
        QVERIFY(run);
        QCOMPARE(run->name, std::string("ui-run"));
        QCOMPARE(run->status, RunStatus::Finished);
        QVERIFY(run->testAccuracy.value_or(0) > 0.7);
        QVERIFY(start->isEnabled());
    }

    // Regression: when the run ended while "A run is training…" was open, "Stop and quit" left the
    // window on "Stopping…" for good (there was no run left whose end would close it).
    void quitWhileTheRunEndsCloses()
    {
        MainWindow w(dir_.filePath(QStringLiteral("quit.sqlite")), smallRun(), languages_);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.startTraining());
        bool answered = false;
        QTimer::singleShot(50, this, [&] {
            auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
            QVERIFY(box);
            // The run ends while the question is open...
            QTRY_VERIFY_WITH_TIMEOUT(!w.controller()->isRunning(), 240000);
            // ...and only then does the user answer.
            for (QAbstractButton* b : box->buttons())
                if (box->buttonRole(b) == QMessageBox::AcceptRole)
                    b->click();
            answered = true;
        });
        w.close();
        QVERIFY(answered);
        QTRY_VERIFY_WITH_TIMEOUT(!w.isVisible(), 2000);
    }

    // Regression: scrolling the form with the wheel over a combo box changed it (Schedule went
    // from "Reduce on plateau" to "Constant" unnoticed). Unfocused, the wheel scrolls the form.
    void wheelOverTheFormScrollsItAndChangesNothing()
    {
        MainWindow w(dir_.filePath(QStringLiteral("wheel.sqlite")), smallRun(), languages_);
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QComboBox* schedule = nullptr;
        RunConfig plateau = smallRun();
        plateau.scheduler.kind = SchedulerKind::ReduceOnPlateau;
        w.configPanel()->setConfig(plateau);
        for (QComboBox* c : w.configPanel()->findChildren<QComboBox*>())
            if (c->currentData().toString() == QStringLiteral("reduce_on_plateau"))
                schedule = c;
        QVERIFY(schedule);
        QScrollArea* form = nullptr;
        for (QWidget* p = schedule->parentWidget(); p && !form; p = p->parentWidget())
            form = qobject_cast<QScrollArea*>(p);
        QVERIFY(form);
        QScrollBar* bar = form->verticalScrollBar();
        QVERIFY2(bar->maximum() > 0, "the form should scroll at 1280x720");
        const int middle = bar->maximum() / 2;
        bar->setValue(middle);
        const int index = schedule->currentIndex();
        QVERIFY(index > 0); // so that a wheel up would change it
        const auto wheel = [&](QWidget* target) {
            QWheelEvent e(QPointF(10, 10), target->mapToGlobal(QPointF(10, 10)), QPoint(), QPoint(0, 120), Qt::NoButton,
                          Qt::NoModifier, Qt::NoScrollPhase, false);
            QApplication::sendEvent(target, &e);
        };
        schedule->clearFocus();
        wheel(schedule);
        QCOMPARE(schedule->currentIndex(), index);
        QVERIFY2(bar->value() < middle, "the wheel should have scrolled the form up");
        // Once the user has clicked or tabbed into it, the wheel is the box's.
        w.activateWindow();
        schedule->setFocus(Qt::TabFocusReason);
        QTRY_VERIFY(schedule->hasFocus());
        wheel(schedule);
        QVERIFY(schedule->currentIndex() != index);
    }

    // Regression: at 1280x720 the window was 820 pixels tall, Start, Stop, the runs and the status
    // bar below the screen's edge, and the runs list showed one row even at 1600x1000.
    void fitsA1280x720ScreenWithStartStopAndFiveRuns()
    {
        QCOMPARE(MainWindow::sizeWithin(QSize(1280, 820), QSize(1280, 696)), QSize(1280, 696));
        QCOMPARE(MainWindow::sizeWithin(QSize(1280, 820), QSize(1920, 1050)), QSize(1280, 820));
        MainWindow w(dir_.filePath(QStringLiteral("fit.sqlite")), smallRun(), languages_);
        const QRect screen = w.screen()->availableGeometry();
        QVERIFY2(screen.contains(w.frameGeometry()), qPrintable(QStringLiteral("%1x%2 on %3x%4").arg(w.width()).arg(w.height()).arg(screen.width()).arg(screen.height())));
        for (const QSize size : {QSize(1280, 720), QSize(1920, 1080)}) {
            w.resize(size);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            QTRY_COMPARE(w.size(), size); // nothing in it demands more room
            for (const char* name : {"startButton", "stopButton", "findLrButton", "findBatchButton", "runsView"}) {
                auto* widget = w.findChild<QWidget*>(QLatin1String(name));
                QVERIFY(widget && widget->isVisible());
                const QRect inWindow(widget->mapTo(&w, QPoint(0, 0)), widget->size());
                QVERIFY2(w.rect().contains(inWindow), qPrintable(QStringLiteral("%1 at %2,%3 %4x%5").arg(QLatin1String(name)).arg(inWindow.x()).arg(inWindow.y()).arg(inWindow.width()).arg(inWindow.height())));
            }
            auto* view = w.findChild<QTableView*>(QStringLiteral("runsView"));
            QVERIFY2(view->viewport()->height() >= 5 * view->verticalHeader()->defaultSectionSize(),
                     qPrintable(QStringLiteral("%1 px for the runs").arg(view->viewport()->height())));
            QVERIFY(w.statusBar()->isVisible() && w.rect().contains(QRect(w.statusBar()->mapTo(&w, QPoint(0, 0)), w.statusBar()->size())));
        }
    }

    // Regression: after switching the language from Spanish to English, the number fields kept
    // the decimal comma, and typing "0.05" into the learning rate gave 5.
    void numbersFollowTheLanguageWhenItChanges()
    {
        languages_.apply(QStringLiteral("es"));
        MainWindow w(dir_.filePath(QStringLiteral("locale.sqlite")), smallRun(), languages_);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* lr = w.findChild<QDoubleSpinBox*>(QStringLiteral("learningRateBox"));
        QVERIFY(lr);
        QVERIFY2(lr->text().contains(QLatin1Char(',')), qPrintable(lr->text())); // Spanish: 0,050000
        languages_.apply(QStringLiteral("en"));
        QCOMPARE(lr->locale().decimalPoint(), QStringLiteral("."));
        QTRY_VERIFY2(lr->text().contains(QLatin1Char('.')), qPrintable(lr->text()));
        lr->setFocus();
        lr->selectAll();
        QTest::keyClicks(lr, QStringLiteral("0.01"));
        lr->interpretText();
        QCOMPARE(lr->value(), 0.01);
        QCOMPARE(w.configPanel()->config().optimizer.lr, 0.01);
        // And back: in Spanish the comma is the decimal point.
        languages_.apply(QStringLiteral("es"));
        lr->selectAll();
        QTest::keyClicks(lr, QStringLiteral("0,02"));
        lr->interpretText();
        QCOMPARE(lr->value(), 0.02);
        languages_.apply(QStringLiteral("en"));
    }

    // Regression: bad input was found only after Start, each mistake adding a failed run, in the
    // configuration's words; a minus sign typed into the learning rate was dropped (0.5), and a
    // new data set kept the old one's folder.
    void theFormIsCheckedAsItIsEditedAndStartSaysWhy()
    {
        MainWindow w(dir_.filePath(QStringLiteral("check.sqlite")), smallRun(), languages_);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* start = w.findChild<QPushButton*>(QStringLiteral("startButton"));
        auto* problem = w.findChild<QLabel*>(QStringLiteral("formProblem"));
        auto* lr = w.findChild<QDoubleSpinBox*>(QStringLiteral("learningRateBox"));
        QVERIFY(start && problem && lr);
        QVERIFY(start->isEnabled() && !problem->isVisible());

        lr->setFocus();
        lr->selectAll();
        QTest::keyClicks(lr, QStringLiteral("-0.5"));
        lr->interpretText();
        QCOMPARE(lr->value(), -0.5);
        QTRY_VERIFY(problem->isVisible());
        QVERIFY2(problem->text().startsWith(QStringLiteral("«Learning rate» must be")), qPrintable(problem->text()));
        QVERIFY2(!problem->text().contains(QStringLiteral("optimizer.lr")), qPrintable(problem->text()));
        QVERIFY(!start->isEnabled());
        QVERIFY2(start->toolTip().contains(problem->text()), qPrintable(start->toolTip()));
        lr->setValue(0.05);
        QTRY_VERIFY(!problem->isVisible());
        QVERIFY(start->isEnabled());

        // Another data set: the folder of the one before is no place for it.
        QComboBox* dataset = nullptr;
        for (QComboBox* c : w.configPanel()->findChildren<QComboBox*>())
            if (c->currentData().toString() == QStringLiteral("fashion-mnist"))
                dataset = c;
        QVERIFY(dataset);
        dataset->setCurrentIndex(dataset->findData(QStringLiteral("mnist")));
        QCOMPARE(w.configPanel()->config().data.path, std::string());
        QTRY_VERIFY2(problem->text().contains(QStringLiteral("«Folder»")), qPrintable(problem->text()));
        QVERIFY(!start->isEnabled());
        dataset->setCurrentIndex(dataset->findData(QStringLiteral("fashion-mnist")));
        QCOMPARE(w.configPanel()->config().data.path, std::string("/usr/share/datasets/fashion-mnist"));
        QTRY_VERIFY(start->isEnabled());

        // A loaded configuration with a key the form does not show: named by its key, at once.
        RunConfig bad = smallRun();
        bad.data.valFraction = 0.95;
        w.configPanel()->setConfig(bad);
        QVERIFY2(problem->text().contains(QStringLiteral("data.val_fraction")), qPrintable(problem->text()));
        QVERIFY(!start->isEnabled());
        QCOMPARE(w.runs()->model()->rowCount(), 0); // no failed run was added along the way
    }

    // Start, Stop, Find LR, Find batch size and Compare from the keyboard (there were no shortcuts).
    void runMenuShortcutsStartAndStop()
    {
        RunConfig longer = smallRun();
        longer.train.epochs = 200; // still running when Stop is pressed
        MainWindow w(dir_.filePath(QStringLiteral("keys.sqlite")), longer, languages_);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* start = w.findChild<QAction*>(QStringLiteral("startAction"));
        auto* stop = w.findChild<QAction*>(QStringLiteral("stopAction"));
        QVERIFY(start && stop && w.findChild<QAction*>(QStringLiteral("findLrAction")) &&
                w.findChild<QAction*>(QStringLiteral("compareAction")));
        QCOMPARE(start->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_Return));
        start->trigger();
        QVERIFY(w.controller()->isRunning());
        QTRY_VERIFY_WITH_TIMEOUT(w.charts()->trainLossPoints() > 0, 60000);
        stop->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(!w.controller()->isRunning(), 60000);
        QTRY_COMPARE(w.runs()->model()->rowCount(), 1);
        QCOMPARE(w.runs()->model()->runAt(0)->status, RunStatus::Stopped);
    }

    void stopButtonStopsTheRun()
    {
        MainWindow w(dir_.filePath(QStringLiteral("stop.sqlite")), smallRun(), languages_);
        RunConfig longer = smallRun();
        longer.train.epochs = 500;
        w.configPanel()->setConfig(longer);
        QVERIFY(w.startTraining());
        QTRY_VERIFY_WITH_TIMEOUT(w.charts()->trainLossPoints() > 0, 120000);
        QTest::mouseClick(w.findChild<QPushButton*>(QStringLiteral("stopButton")), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!w.controller()->isRunning(), 60000);
        QCOMPARE(w.runs()->model()->runAt(0)->status, RunStatus::Stopped);
    }

    void stoppedRunResumesFromTheBrowser()
    {
        MainWindow w(dir_.filePath(QStringLiteral("resume.sqlite")), smallRun(), languages_);
        RunConfig c = smallRun();
        c.train.epochs = 30;
        c.data.trainLimit = 20000; // long enough to stop in the middle
        w.configPanel()->setConfig(c);
        QVERIFY(w.startTraining());
        QTRY_VERIFY_WITH_TIMEOUT(w.charts()->validationPoints() >= 1, 120000);
        w.controller()->stop();
        QTRY_VERIFY_WITH_TIMEOUT(!w.controller()->isRunning(), 60000);
        const RunRecord stopped = *w.runs()->model()->runAt(0);
        QCOMPARE(stopped.status, RunStatus::Stopped);
        const int before = w.charts()->trainLossPoints();
        const int validated = w.charts()->validationPoints();

        int64_t resumedId = 0;
        connect(w.controller(), &app::TrainingController::started, this,
                [&resumedId](const StartEvent& e) { resumedId = e.runId; });
        QVERIFY(w.resumeRun(stopped.id));
        // Regression: the charts of a resumed run showed only the resumed part. Up to its latest
        // checkpoint (an epoch's end here) the run's earlier steps are drawn at once.
        QVERIFY2(w.charts()->trainLossPoints() > 0 && w.charts()->trainLossPoints() <= before,
                 qPrintable(QStringLiteral("%1 of %2").arg(w.charts()->trainLossPoints()).arg(before)));
        QVERIFY(w.charts()->validationPoints() >= 1 && w.charts()->validationPoints() <= validated);
        QTRY_VERIFY_WITH_TIMEOUT(resumedId != 0, 60000);
        QCOMPARE(resumedId, stopped.id); // the same run record
        w.controller()->stop();
        QTRY_VERIFY_WITH_TIMEOUT(!w.controller()->isRunning(), 60000);
        QCOMPARE(w.runs()->model()->rowCount(), 1);
        QVERIFY2(w.lastError().isEmpty(), qPrintable(w.lastError()));
    }

    void browserFiltersByTextAndStatus()
    {
        const QString db = dir_.filePath(QStringLiteral("browse.sqlite"));
        {
            RunStore store(db.toStdString());
            EndEvent end;
            store.finishRun(store.createRun("alpha mlp", R"({"model": {"arch": "mlp"}})", "{}"), RunStatus::Finished, end, {});
            store.finishRun(store.createRun("beta cnn", R"({"model": {"arch": "cnn"}})", "{}"), RunStatus::Failed, end, {});
            store.finishRun(store.createRun("gamma cnn", R"({"model": {"arch": "cnn"}})", "{}"), RunStatus::Finished, end, {});
        }
        RunsPanel panel;
        QVERIFY(panel.open(db).isEmpty());
        QCOMPARE(panel.visibleRows(), 3);
        panel.setTextFilter(QStringLiteral("cnn"));
        QCOMPARE(panel.visibleRows(), 2);
        panel.setStatusFilter(QStringLiteral("finished"));
        QCOMPARE(panel.visibleRows(), 1);
        panel.setTextFilter(QString());
        QCOMPARE(panel.visibleRows(), 2);
    }

    // Regression: the summary showed little (name, status, ISO times, test accuracy).
    void runDetailsSummarySaysWhatWasTrainedAndHowItWent()
    {
        const QString db = dir_.filePath(QStringLiteral("summary.sqlite"));
        RunStore store(db.toStdString());
        const int64_t id = store.createRun("summarised", R"({"data": {"dataset": "fashion-mnist"}, "model": {"arch": "mlp"},
            "optimizer": {"name": "adam"}, "scheduler": {"name": "one_cycle"}})", "{}");
        EndEvent end;
        end.testAccuracy = 0.8812;
        end.bestValAccuracy = 0.8934;
        end.seconds = 42.5;
        end.samplesPerSec = 15937;
        store.finishRun(id, RunStatus::Finished, end, 0.3121);
        RunDetailsDialog dialog(store, id);
        QStringList texts;
        for (QLabel* l : dialog.findChildren<QLabel*>())
            texts << l->text();
        const QString all = texts.join(QLatin1Char('|'));
        QVERIFY2(all.contains(QStringLiteral("MLP on Fashion-MNIST, Adam, One-cycle")), qPrintable(all));
        const QLocale locale;
        for (const QString& figure : {locale.toString(88.12, 'f', 2) + QLatin1Char('%'), locale.toString(89.34, 'f', 2) + QLatin1Char('%'),
                                      locale.toString(0.3121, 'f', 4), locale.toString(42.5, 'f', 1) + QStringLiteral(" s")})
            QVERIFY2(all.contains(figure), qPrintable(figure + QStringLiteral(" missing in ") + all));
        QVERIFY2(!all.contains(QRegularExpression(QStringLiteral("\\d{4}-\\d\\d-\\d\\dT"))), qPrintable(all)); // no raw ISO time
    }

    void runDetailsSaveNotesAndTagsAndFlagMissingCheckpoints()
    {
        const QString db = dir_.filePath(QStringLiteral("details.sqlite"));
        RunStore store(db.toStdString());
        const int64_t id = store.createRun("detailed", R"({"seed": 1})", "{}");
        store.addCheckpoint(id, {10, 1, "/nonexistent/epoch-1.pt", 0.5, true, 100, ""});
        EndEvent end;
        store.finishRun(id, RunStatus::Stopped, end, {});
        RunDetailsDialog dialog(store, id);
        QCOMPARE(dialog.missingCheckpoints(), 1);
        dialog.findChild<QPlainTextEdit*>(QStringLiteral("notesEdit"))->setPlainText(QStringLiteral("try a lower rate"));
        dialog.findChild<QLineEdit*>(QStringLiteral("tagsEdit"))->setText(QStringLiteral("baseline, cnn"));
        dialog.accept();
        QCOMPARE(store.findRun(std::to_string(id))->notes, std::string("try a lower rate"));
        QCOMPARE(store.tags(id), (std::vector<std::string>{"baseline", "cnn"}));
    }

    // The window carries Entrena's icon (a window manager, a task bar and Alt-Tab show it), drawn
    // from the SVG: there was none, so every window showed the desktop's generic one.
    void windowHasEntrenasIcon()
    {
        MainWindow w(dir_.filePath(QStringLiteral("icon.sqlite")), smallRun(), languages_);
        const QIcon icon = w.windowIcon();
        QVERIFY(!icon.isNull());
        const QImage image = icon.pixmap(64, 64).toImage();
        QVERIFY(!image.isNull());
        QCOMPARE(image.size(), QSize(64, 64));
        // The icon's dark blue tile fills its middle (not a transparent or placeholder image).
        const QColor middle = image.pixelColor(20, 50);
        QVERIFY2(middle.alpha() == 255 && middle.blue() > middle.red(), qPrintable(middle.name()));
    }

    void invalidConfigurationIsRefusedWithAMessage()
    {
        MainWindow w(dir_.filePath(QStringLiteral("bad.sqlite")), smallRun(), languages_);
        RunConfig bad = smallRun();
        bad.data.valFraction = 0.95; // out of range: the panel keeps it, validation refuses it
        w.configPanel()->setConfig(bad);
        QVERIFY(!w.startTraining());
        QVERIFY(!w.controller()->isRunning());
        QVERIFY2(w.lastError().contains(QStringLiteral("data.val_fraction")), qPrintable(w.lastError()));
        QCOMPARE(w.runs()->model()->rowCount(), 0);
    }

    void missingDataEndsAsAFailedRun()
    {
        MainWindow w(dir_.filePath(QStringLiteral("nodata.sqlite")), smallRun(), languages_);
        RunConfig c = smallRun();
        c.data.path = "/nonexistent/folder";
        w.configPanel()->setConfig(c);
        QVERIFY(w.startTraining());
        QTRY_VERIFY_WITH_TIMEOUT(!w.controller()->isRunning(), 60000);
        QVERIFY(w.lastError().contains(QStringLiteral("/nonexistent/folder")));
        QCOMPARE(w.runs()->model()->rowCount(), 1);
        QCOMPARE(w.runs()->model()->runAt(0)->status, RunStatus::Failed);
    }

    void panelRoundTripsTheConfiguration_data()
    {
        QTest::addColumn<QString>("json");
        QTest::newRow("shipped default") << QString::fromStdString(smallRun().toJson());
        QTest::newRow("resnet, adamw, one-cycle, augmentation")
            << QStringLiteral(R"({"name": "r", "data": {"batch_size": 32, "augment_crop": 2, "augment_flip": true},
                "model": {"arch": "resnet", "channels": [8, 16], "blocks": 2, "dropout": 0.1},
                "optimizer": {"name": "adamw", "lr": 0.002},
                "scheduler": {"name": "one_cycle", "max_lr": 0.01, "pct_start": 0.25, "anneal_strategy": "linear",
                              "warmup_steps": 0},
                "train": {"epochs": 7, "grad_clip": 1.5, "accumulate": 2, "label_smoothing": 0.1,
                          "early_stop_patience": 3, "precision": "bf16"}})");
        QTest::newRow("multistep with warm-up")
            << QStringLiteral(R"({"scheduler": {"name": "multistep", "milestones": [3, 6], "gamma": 0.2, "warmup_steps": 50}})");
        QTest::newRow("csv, rmsprop, cosine")
            << QStringLiteral(R"({"data": {"dataset": "csv", "path": "/tmp/a.csv", "test_path": "/tmp/b.csv",
                                            "label_column": "y"},
                "model": {"arch": "mlp", "hidden": [32, 16]}, "optimizer": {"name": "rmsprop", "lr": 0.001},
                "scheduler": {"name": "cosine", "T_max": 4, "eta_min": 0.0001}})");
    }

    void panelRoundTripsTheConfiguration()
    {
        QFETCH(QString, json);
        const RunConfig c = RunConfig::fromJson(json.toStdString());
        RunConfigPanel panel;
        panel.setConfig(c);
        QCOMPARE(QString::fromStdString(RunConfig::fromJson(panel.config().toJson()).toJson(2)),
                 QString::fromStdString(c.toJson(2)));
    }

    void everyScheduleInTheRegistryHasItsPage()
    {
        // The form builds a schedule's page from its registry entry: each schedule is listed with
        // its label, shows a field for each key the entry labels, and what is set there reaches
        // the configuration. A new entry needs no form code.
        RunConfigPanel panel;
        panel.setConfig(RunConfig{});
        QComboBox* schedule = nullptr;
        for (QComboBox* c : panel.findChildren<QComboBox*>())
            if (c->currentData().toString() == QStringLiteral("reduce_on_plateau"))
                schedule = c;
        QVERIFY(schedule);
        QCOMPARE(schedule->count(), int(schedulerRegistry().size()));
        for (const SchedulerEntry& e : schedulerRegistry()) {
            const int at = schedule->findData(QString::fromLatin1(e.name));
            QVERIFY2(at >= 0, e.name);
            QCOMPARE(schedule->itemText(at), app::ChoiceLabels::scheduler(QString::fromLatin1(e.name)));
            schedule->setCurrentIndex(at);
            QCOMPARE(panel.config().scheduler.kind, e.kind);
            QStringList shown;
            for (QLabel* l : panel.findChildren<QLabel*>())
                if (l->isVisibleTo(&panel) && l->buddy() == nullptr && l->text().endsWith(QLatin1Char(':')))
                    shown << l->text();
            for (const auto& k : e.keys) {
                if (!k.form.label)
                    continue;
                QVERIFY2(shown.contains(QString::fromLatin1(k.form.label)), k.key);
            }
        }
        // A value typed into a generated field is what the configuration gets.
        schedule->setCurrentIndex(schedule->findData(QStringLiteral("step")));
        QSpinBox* every = nullptr;
        for (QSpinBox* b : panel.findChildren<QSpinBox*>())
            if (b->isVisibleTo(&panel) && b->value() == 10 && b->minimum() == 1)
                every = b;
        QVERIFY(every);
        every->setValue(4);
        QCOMPARE(panel.config().scheduler.stepSize, int64_t(4));
    }

    void schedulePreviewFollowsTheSchedule()
    {
        RunConfigPanel panel;
        RunConfig c = smallRun(); // 2 epochs of 2,700 samples, batch 64: 43 steps each
        c.scheduler = RunConfig::fromJson(R"({"scheduler": {"name": "multistep", "milestones": [1], "gamma": 0.5}})").scheduler;
        panel.setConfig(c);
        QCOMPARE(panel.schedulePreview()->points(), 2 * 43);
        QCOMPARE(panel.config().scheduler.milestones, (std::vector<int64_t>{1}));
        auto* plot = panel.schedulePreview()->findChild<QCustomPlot*>();
        QCOMPARE(plot->graph(0)->data()->at(0)->value, c.optimizer.lr);
        QCOMPARE(plot->graph(0)->data()->at(43)->value, c.optimizer.lr * 0.5); // the milestone halves it
    }

    void panelSummarisesTheModel()
    {
        RunConfigPanel panel;
        RunConfig c = smallRun(); // mlp 256-128: 235,146 parameters
        panel.setConfig(c);
        QVERIFY2(panel.summaryText().contains(QLocale().toString(235146)), qPrintable(panel.summaryText()));
        c.model.arch = ModelArch::Cnn;
        panel.setConfig(c);
        QVERIFY2(!panel.summaryText().contains(QLocale().toString(235146)), qPrintable(panel.summaryText()));
    }

    void memoryChartShowsDeviceMemoryWhenReported()
    {
        LiveCharts charts;
        auto* plot = charts.findChild<QCustomPlot*>(QStringLiteral("memoryPlot"));
        QVERIFY(plot);
        QVector<StepEvent> cpu(3);
        for (int i = 0; i < 3; ++i) {
            cpu[i].step = i + 1;
            cpu[i].memoryBytes = 100 << 20;
        }
        charts.addSteps(cpu);
        QCOMPARE(plot->graph(0)->dataCount(), 3);
        QCOMPARE(plot->graph(1)->dataCount(), 0); // no device lines on a CPU run
        QVERIFY(!plot->legend->visible());
        QVector<StepEvent> gpu(2);
        for (int i = 0; i < 2; ++i) {
            gpu[i].step = 4 + i;
            gpu[i].deviceAllocated = 1 << 30;
            gpu[i].deviceReserved = 2 << 30;
            gpu[i].devicePeak = 3 << 20;
            gpu[i].deviceTotal = int64_t(80) << 30;
        }
        gpu[1].deviceUsed = int64_t(5) << 30; // NVML's reading, where the driver's library is present
        charts.addSteps(gpu);
        for (int g = 1; g <= 4; ++g)
            QCOMPARE(plot->graph(g)->dataCount(), 2);
        QCOMPARE(plot->graph(1)->data()->at(0)->value, 1024.0); // MiB
        QVERIFY(plot->legend->visible());
        QCOMPARE(plot->graph(5)->dataCount(), 1);
        QCOMPARE(plot->graph(5)->data()->at(0)->value, 5120.0);
        QVERIFY(plot->legend->hasItemWithPlottable(plot->graph(5)));
    }

    void devicePanelListsDevicesAndChoosesSeveral()
    {
        RunConfigPanel panel;
        panel.setConfig(smallRun());
        panel.setDevices({ComputeDevice{"cpu", 0, {}, 0, {}}, ComputeDevice{"cuda", 0, "NVIDIA H200", int64_t(141) << 30, "9.0"},
                          ComputeDevice{"cuda", 1, "NVIDIA H200", int64_t(141) << 30, "9.0"}});
        auto* picker = panel.findChild<DevicePicker*>();
        QVERIFY(picker);
        QListWidget* list = picker->list();
        QCOMPARE(list->count(), 3);
        QCOMPARE(list->item(1)->text(), QStringLiteral("cuda:0 — NVIDIA H200 (141.0 GiB)"));
        QCOMPARE(list->item(0)->checkState(), Qt::Checked); // the configuration's CPU
        QCOMPARE(panel.ranks(), 1);

        // Both GPUs: a data-parallel run on them, the CPU unchecked.
        list->item(1)->setCheckState(Qt::Checked);
        list->item(2)->setCheckState(Qt::Checked);
        QCOMPARE(list->item(0)->checkState(), Qt::Unchecked);
        QCOMPARE(panel.config().devices.type, DeviceType::Cuda);
        QCOMPARE(panel.config().devices.ids, (std::vector<int64_t>{0, 1}));
        QCOMPARE(panel.ranks(), 2);
        QVERIFY(!picker->cpuRanksBox()->isEnabled());

        // Back to the CPU, with three processes.
        list->item(0)->setCheckState(Qt::Checked);
        QCOMPARE(list->item(1)->checkState(), Qt::Unchecked);
        QCOMPARE(list->item(2)->checkState(), Qt::Unchecked);
        QVERIFY(picker->cpuRanksBox()->isEnabled());
        picker->cpuRanksBox()->setValue(3);
        QCOMPARE(panel.ranks(), 3);
        QCOMPARE(panel.config().devices.type, DeviceType::Cpu);
        QVERIFY(panel.config().devices.ids.empty());

        // Unchecking everything leaves the CPU; a stored configuration checks its GPUs.
        list->item(0)->setCheckState(Qt::Unchecked);
        QCOMPARE(list->item(0)->checkState(), Qt::Checked);
        RunConfig gpu = smallRun();
        gpu.devices.type = DeviceType::Cuda;
        gpu.devices.ids = {1};
        panel.setConfig(gpu);
        QCOMPARE(list->item(1)->checkState(), Qt::Unchecked);
        QCOMPARE(list->item(2)->checkState(), Qt::Checked);
        QCOMPARE(panel.ranks(), 1);
    }

    void memoryChartShowsEveryRank()
    {
        LiveCharts charts;
        QVector<StepEvent> steps(2);
        for (int i = 0; i < 2; ++i) {
            steps[i].step = 5 * (i + 1);
            steps[i].memoryBytes = 300 << 20;
            steps[i].rankMemoryBytes = {300 << 20, int64_t(250 + i) << 20};
        }
        charts.addSteps(steps);
        QCOMPARE(charts.rankMemoryGraphs().size(), 2);
        QCOMPARE(charts.rankMemoryGraphs()[1]->dataCount(), 2);
        QCOMPARE(charts.rankMemoryGraphs()[1]->data()->at(1)->value, 251.0);
        QCOMPARE(charts.rankMemoryGraphs()[1]->name(), QStringLiteral("rank 1"));
        charts.clear();
        QCOMPARE(charts.rankMemoryGraphs().size(), 0);
    }

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

    void stepTimeChartStacksThePartsAndSaysWhatDominates()
    {
        LiveCharts charts;
        StepTimeChart* chart = charts.stepTimes();
        QVERIFY(chart);
        QVector<StepEvent> steps(2);
        for (int i = 0; i < 2; ++i) {
            steps[i].step = 10 * (i + 1);
            steps[i].stepSeconds = 0.010;
            steps[i].phases = {0.001, 0.003, 0.005, 0.001, 0.0, 0.0}; // compute-bound
            steps[i].mfu = 0.42;
        }
        charts.addSteps(steps);
        QCOMPARE(chart->points(), 2);
        QCOMPARE(chart->lastStackMs(), 10.0); // the stack's top is the parts' sum
        QVERIFY2(chart->hint().contains(QStringLiteral("Compute-bound")), qPrintable(chart->hint()));
        QVERIFY(chart->hint().contains(QStringLiteral("42")));

        QVector<StepEvent> starved(1);
        starved[0].step = 30;
        starved[0].stepSeconds = 0.010;
        starved[0].phases = {0.004, 0.002, 0.003, 0.001, 0.0, 0.0}; // 40% waiting for data
        charts.addSteps(starved);
        QVERIFY2(chart->hint().contains(QStringLiteral("data.workers")), qPrintable(chart->hint()));
        QVERIFY(chart->hint().contains(QStringLiteral("40")));
        QVERIFY(StepTimeChart::hintFor({0.0, 0.004, 0.004, 0.0, 0.0, 0.001}, 0.009, -1).contains(QStringLiteral("log_every")));
        QVERIFY(StepTimeChart::hintFor({0.0, 0.002, 0.002, 0.0, 0.005, 0.0}, 0.009, -1).contains(QStringLiteral("batch per device")));
        charts.clear();
        QCOMPARE(chart->points(), 0);
        QVERIFY(chart->hint().isEmpty());
    }

    void batchSizeFinderSetsTheLargestBatchThatFits()
    {
        MainWindow w(dir_.filePath(QStringLiteral("batch.sqlite")), smallRun(), languages_);
        // As tst_memory and docs/configuration.md: the default MLP, 5,400 images, a 16 MiB budget.
        RunConfig c = RunConfig::fromJson(R"({"name": "batch", "seed": 3,
            "data": {"path": ")" ENTRENA_FMNIST_DIR R"(", "train_limit": 6000, "test_limit": 1000, "batch_size": 128, "workers": 0},
            "model": {"arch": "mlp"}, "optimizer": {"name": "sgd", "lr": 0.05, "momentum": 0.9},
            "scheduler": {"name": "constant"}, "train": {"epochs": 1, "memory_budget_mb": 16}, "devices": {"threads": 2}})");
        w.configPanel()->setConfig(c);
        auto* button = w.findChild<QPushButton*>(QStringLiteral("findBatchButton"));
        QVERIFY(button);
        button->click();
        QTRY_VERIFY(button->text().contains(QStringLiteral("Stop")));
        QTRY_VERIFY_WITH_TIMEOUT(!button->text().contains(QStringLiteral("Stop")), 120000);
        // The answer is shown, not applied: 2,216 fits, but 5,400 images make 3 steps an epoch of it.
        QMessageBox* answer = nullptr;
        QTRY_VERIFY((answer = w.findChild<QMessageBox*>(QStringLiteral("batchSizeAnswer"))) != nullptr);
        QCOMPARE(w.configPanel()->config().data.batchSize, int64_t(128));
        QVERIFY2(answer->text().contains(QLocale().toString(2216)) && answer->text().contains(QStringLiteral("3 steps an epoch")),
                 qPrintable(answer->text()));
        // The suggestion for training: a power of two, at least 50 steps an epoch (5,400 / 50 = 108 -> 64).
        QVERIFY2(answer->text().contains(QStringLiteral("64 is the better choice")) &&
                     answer->text().contains(QStringLiteral("85 steps an epoch")),
                 qPrintable(answer->text()));
        auto* largest = answer->findChild<QAbstractButton*>(QStringLiteral("useLargestBatch"));
        QVERIFY(largest && answer->findChild<QAbstractButton*>(QStringLiteral("useSuggestedBatch")));
        largest->click();
        QCOMPARE(w.configPanel()->config().data.batchSize, int64_t(2216));
        QCOMPARE(w.configPanel()->config().train.memoryBudgetMb, 16.0); // the rest of the configuration kept
    }

    // Regression: Find batch size silently set the batch to 54,000, the whole training set.
    void batchSizeSuggestionIsSensibleForTraining()
    {
        QCOMPARE(suggestedBatchSize(54000, 54000), int64_t(1024)); // 1,080 -> 1,024: 53 steps an epoch
        QCOMPARE(suggestedBatchSize(2216, 5400), int64_t(64));
        QCOMPARE(suggestedBatchSize(200, 1000000), int64_t(128)); // never above what fits
        QCOMPARE(suggestedBatchSize(1 << 20, 1 << 30), int64_t(4096));
        QCOMPARE(suggestedBatchSize(3, 10), int64_t(1));
    }

    void recipesLoadIntoThePanel()
    {
        MainWindow w(dir_.filePath(QStringLiteral("ui.sqlite")), smallRun(), languages_);
        auto* panel = w.findChild<RunConfigPanel*>();
        QVERIFY(panel);
        w.findChild<QAction*>(QStringLiteral("fastCnnRecipeAction"))->trigger();
        QCOMPARE(QString::fromLatin1(toString(panel->config().model.arch)), QStringLiteral("cnn"));
        QCOMPARE(QString::fromLatin1(toString(panel->config().scheduler.kind)), QStringLiteral("one_cycle"));
        QCOMPARE(panel->config().train.epochs, 2);
        w.findChild<QAction*>(QStringLiteral("defaultRecipeAction"))->trigger();
        QCOMPARE(QString::fromLatin1(toString(panel->config().model.arch)), QStringLiteral("mlp"));
        QCOMPARE(QString::fromLatin1(toString(panel->config().scheduler.kind)), QStringLiteral("reduce_on_plateau"));
    }

    void divergenceRollbackIsMarkedOnTheCharts()
    {
        MainWindow w(dir_.filePath(QStringLiteral("rollback.sqlite")), smallRun(), languages_);
        qputenv("ENTRENA_TEST_NAN_AT_STEPS", "20");
        QVERIFY(w.startTraining());
        QTRY_VERIFY_WITH_TIMEOUT(!w.controller()->isRunning(), 120000);
        qunsetenv("ENTRENA_TEST_NAN_AT_STEPS");
        QCOMPARE(w.charts()->eventMarks(), 1);
        QVERIFY2(w.lastError().isEmpty(), qPrintable(w.lastError())); // recovered: finished
        // A real run fills the step-time chart too, with its parts summing to about the step.
        QVERIFY(w.charts()->stepTimes()->points() > 0);
        QVERIFY(w.charts()->stepTimes()->lastStackMs() > 0);
    }

    void lrFinderSuggestsAndAppliesTheChosenRate()
    {
        MainWindow w(dir_.filePath(QStringLiteral("lr.sqlite")), smallRun(), languages_);
        w.show();
        auto* find = w.findChild<QPushButton*>(QStringLiteral("findLrButton"));
        QVERIFY(find);
        QTest::mouseClick(find, Qt::LeftButton);
        auto* dialog = w.findChild<LrFinderDialog*>();
        QVERIFY(dialog);
        QSignalSpy finished(dialog, &LrFinderDialog::finished);
        QVERIFY(finished.wait(120000));
        QVERIFY2(finished[0][0].toBool(), qPrintable(finished[0][1].toString()));
        const double suggested = dialog->result().suggestion.suggestedLr;
        QCOMPARE(dialog->chosenLr(), suggested);
        QVERIFY(dialog->plot()->graph(0)->dataCount() >= 5);
        // Dragging the marker: a press on the chart at the pixel of 0.02.
        QCustomPlot* plot = dialog->plot();
        const int x = int(plot->xAxis->coordToPixel(0.02));
        const int y = int(plot->yAxis->coordToPixel(plot->yAxis->range().center()));
        QTest::mousePress(plot, Qt::LeftButton, {}, QPoint(x, y));
        QTest::mouseRelease(plot, Qt::LeftButton, {}, QPoint(x, y));
        QVERIFY2(std::abs(std::log10(dialog->chosenLr() / 0.02)) < 0.05, qPrintable(QString::number(dialog->chosenLr())));
        const double chosen = dialog->chosenLr();
        QTest::mouseClick(dialog->findChild<QPushButton*>(QStringLiteral("useLrButton")), Qt::LeftButton);
        QVERIFY(std::abs(w.configPanel()->config().optimizer.lr / chosen - 1) < 1e-3); // the spin box keeps 6 digits

        // Again, applied as one-cycle's max_lr.
        QTest::mouseClick(find, Qt::LeftButton);
        dialog = nullptr;
        for (auto* d : w.findChildren<LrFinderDialog*>())
            if (!d->isFinished())
                dialog = d;
        QVERIFY(dialog);
        QSignalSpy again(dialog, &LrFinderDialog::finished);
        QVERIFY(again.wait(120000));
        QTest::mouseClick(dialog->findChild<QPushButton*>(QStringLiteral("useMaxLrButton")), Qt::LeftButton);
        QCOMPARE(QString::fromLatin1(toString(w.configPanel()->config().scheduler.kind)), QStringLiteral("one_cycle"));
        QVERIFY(std::abs(w.configPanel()->config().scheduler.maxLr / dialog->result().suggestion.suggestedLr - 1) < 1e-3);
    }

    void switchingLanguageRetranslatesLive()
    {
        MainWindow w(dir_.filePath(QStringLiteral("lang.sqlite")), smallRun(), languages_);
        auto* start = w.findChild<QPushButton*>(QStringLiteral("startButton"));
        languages_.apply(QStringLiteral("es"));
        QCOMPARE(languages_.current(), QStringLiteral("es"));
        // LanguageChange is a posted event: the widgets retranslate when the loop delivers it.
        QTRY_COMPARE(start->text(), QStringLiteral("Iniciar"));
        languages_.apply(QStringLiteral("en"));
        QTRY_COMPARE(start->text(), QStringLiteral("Start"));
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
