// The main window end to end under the offscreen platform: Start trains in a worker thread,
// the charts fill, the finished run appears in the list; bad input is refused with a message.
#include "MainWindow.h"
#include "MainWindowFixture.h"
#include "RunTableModel.h"
#include "TrainingController.h"
#include "charts/LiveCharts.h"
#include "entrena/store/RunStore.h"
#include "panels/RunConfigPanel.h"
#include "panels/RunsPanel.h"
#include "runs/RunQueue.h"
#include "settings/LanguageManager.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHeaderView>
#include <QKeySequence>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QWheelEvent>
#include <QtTest>
#include <qcustomplot.h>

using namespace entrena;
using namespace entrena::ui;
using entrena::test::childProcesses;
using entrena::test::smallRun;

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
        // The keyboard stays on the button pressed, which becomes "Add to queue" while the run trains;
        // a second press at once is the first one repeated, and queues nothing (it queued a copy).
        auto* queue = w.findChild<QPushButton*>(QStringLiteral("queueButton"));
        QCOMPARE(w.focusWidget(), queue);
        QTest::mouseClick(queue, Qt::LeftButton);
        QCOMPARE(w.queue()->size(), 0);
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
        // Regression: after the run the name field had the focus with its text selected (the next key
        // typed replaced the name); the focus is back on Start.
        QCOMPARE(w.focusWidget(), start);
        for (auto* field : w.findChildren<QLineEdit*>())
            QVERIFY2(!field->hasSelectedText(), qPrintable(field->objectName()));
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
        // Over the schedule's preview too (a chart that accepted every wheel event and kept it).
        auto* preview = w.configPanel()->findChild<QCustomPlot*>(QStringLiteral("schedulePreview"));
        QVERIFY(preview);
        bar->setValue(middle);
        wheel(preview);
        QVERIFY2(bar->value() < middle, "the wheel over the schedule's preview should have scrolled the form up");
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
        QVERIFY2(
            screen.contains(w.frameGeometry()),
            qPrintable(QStringLiteral("%1x%2 on %3x%4").arg(w.width()).arg(w.height()).arg(screen.width()).arg(screen.height())));
        for (const QSize size : {QSize(1280, 720), QSize(1920, 1080)}) {
            w.resize(size);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            QTRY_COMPARE(w.size(), size); // nothing in it demands more room
            for (const char* name : {"startButton", "stopButton", "findLrButton", "findBatchButton", "runsView"}) {
                auto* widget = w.findChild<QWidget*>(QLatin1String(name));
                QVERIFY(widget && widget->isVisible());
                const QRect inWindow(widget->mapTo(&w, QPoint(0, 0)), widget->size());
                QVERIFY2(w.rect().contains(inWindow), qPrintable(QStringLiteral("%1 at %2,%3 %4x%5")
                                                                     .arg(QLatin1String(name))
                                                                     .arg(inWindow.x())
                                                                     .arg(inWindow.y())
                                                                     .arg(inWindow.width())
                                                                     .arg(inWindow.height())));
            }
            auto* view = w.findChild<QTableView*>(QStringLiteral("runsView"));
            QVERIFY2(view->viewport()->height() >= 5 * view->verticalHeader()->defaultSectionSize(),
                     qPrintable(QStringLiteral("%1 px for the runs").arg(view->viewport()->height())));
            QVERIFY(w.statusBar()->isVisible() &&
                    w.rect().contains(QRect(w.statusBar()->mapTo(&w, QPoint(0, 0)), w.statusBar()->size())));
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
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.startTraining());
        QTRY_VERIFY_WITH_TIMEOUT(w.charts()->trainLossPoints() > 0, 120000);
        QTest::mouseClick(w.findChild<QPushButton*>(QStringLiteral("stopButton")), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!w.controller()->isRunning(), 60000);
        QCOMPARE(w.runs()->model()->runAt(0)->status, RunStatus::Stopped);
        QCOMPARE(w.focusWidget(), w.findChild<QPushButton*>(QStringLiteral("startButton"))); // Stop, disabled, hands it on
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

    void switchingLanguageRetranslatesLive()
    {
        MainWindow w(dir_.filePath(QStringLiteral("lang.sqlite")), smallRun(), languages_);
        auto* start = w.findChild<QPushButton*>(QStringLiteral("startButton"));
        languages_.apply(QStringLiteral("es"));
        QCOMPARE(languages_.current(), QStringLiteral("es"));
        // LanguageChange is a posted event: the widgets retranslate when the loop delivers it.
        QTRY_COMPARE(start->text(), QStringLiteral("Iniciar"));
        // The tooltips too, each with the key that presses its button (the Run menu's).
        const auto keys = [] { return QKeySequence(Qt::CTRL | Qt::Key_Return).toString(QKeySequence::NativeText); };
        QVERIFY2(start->toolTip().startsWith(QStringLiteral("Entrena esta configuración")), qPrintable(start->toolTip()));
        QVERIFY2(start->toolTip().endsWith(QStringLiteral(" (%1)").arg(keys())), qPrintable(start->toolTip()));
        languages_.apply(QStringLiteral("en"));
        QTRY_COMPARE(start->text(), QStringLiteral("Start"));
        QVERIFY2(start->toolTip().startsWith(QStringLiteral("Trains this configuration")), qPrintable(start->toolTip()));
        QVERIFY2(start->toolTip().endsWith(QStringLiteral(" (%1)").arg(keys())), qPrintable(start->toolTip()));
        auto* stop = w.findChild<QPushButton*>(QStringLiteral("stopButton"));
        QVERIFY2(stop->toolTip().endsWith(
                     QStringLiteral(" (%1)").arg(QKeySequence(Qt::CTRL | Qt::Key_Period).toString(QKeySequence::NativeText))),
                 qPrintable(stop->toolTip()));
    }
};

QTEST_MAIN(TestMainWindow)

#include "tst_mainwindow.moc"
