// The run queue: Start while a run trains queues the form's configuration; the queue's order is
// changed in its panel and kept across windows (a file beside the store); the next queued run
// starts when one ends, and a run the user stopped pauses the queue.
#include "MainWindow.h"
#include "RunTableModel.h"
#include "TrainingController.h"
#include "panels/QueuePanel.h"
#include "panels/RunConfigPanel.h"
#include "runs/RunQueue.h"
#include "panels/RunsPanel.h"
#include "settings/LanguageManager.h"

#include <QAction>
#include <QListWidget>
#include <QPushButton>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QToolButton>
#include <QtTest>

using namespace entrena;
using namespace entrena::ui;

namespace {

RunConfig run(const char* name, int epochs, int trainLimit = 1000)
{
    return RunConfig::fromJson(std::string(R"({"name": ")") + name + R"(", "seed": 3,
        "data": {"path": ")" ENTRENA_FMNIST_DIR R"(", "train_limit": )" +
                               std::to_string(trainLimit) + R"(,
                 "test_limit": 500, "batch_size": 100},
        "model": {"arch": "mlp", "hidden": [32]}, "scheduler": {"name": "constant"},
        "train": {"epochs": )" +
                               std::to_string(epochs) + R"(, "log_every": 5}})");
}

QStringList names(const RunQueue& q)
{
    QStringList out;
    for (const QueuedRun& r : q.items())
        out << QString::fromStdString(r.config.name);
    return out;
}

} // namespace

class TestQueue : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;
    LanguageManager languages_;

private Q_SLOTS:
    void startWhileTrainingQueues()
    {
        MainWindow w(dir_.filePath(QStringLiteral("busy.sqlite")), run("long", 500, 20000), languages_);
        w.show();
        auto* start = w.findChild<QPushButton*>(QStringLiteral("startButton"));
        auto* queue = w.findChild<QPushButton*>(QStringLiteral("queueButton"));
        QVERIFY(start && queue);
        QVERIFY(!queue->isVisible());
        QVERIFY(w.startTraining());
        QVERIFY(w.controller()->isRunning());
        // Where Start stood, "Add to queue"; the form stays editable for the next run.
        QVERIFY(!start->isEnabled() && !start->isVisible());
        QVERIFY(queue->isVisible() && queue->isEnabled());
        w.configPanel()->setConfig(run("queued-a", 1));
        QTest::mouseClick(queue, Qt::LeftButton);
        QVERIFY(w.controller()->isRunning());
        QCOMPARE(names(*w.queue()), QStringList{QStringLiteral("queued-a")});
        // Start's shortcut queues too, and startTraining() says nothing started.
        w.configPanel()->setConfig(run("queued-b", 1));
        w.findChild<QAction*>(QStringLiteral("startAction"))->trigger();
        QVERIFY(!w.startTraining());
        QCOMPARE(names(*w.queue()),
                 (QStringList{QStringLiteral("queued-a"), QStringLiteral("queued-b"), QStringLiteral("queued-b")}));
        QCOMPARE(w.queuePanel()->list()->count(), 3);
        QVERIFY(w.lowerTabs()->tabText(w.lowerTabs()->indexOf(w.queuePanel())).contains(QLatin1String("3")));
        // Stop pauses the queue: the stopped run's end starts nothing.
        w.controller()->stop();
        QTRY_VERIFY_WITH_TIMEOUT(!w.controller()->isRunning(), 60000);
        QTest::qWait(300);
        QVERIFY(!w.controller()->isRunning());
        QCOMPARE(w.queue()->size(), 3);
        QVERIFY(start->isVisible() && start->isEnabled() && !queue->isVisible());
    }

    void queueOrderChangesAndSurvivesANewWindow()
    {
        const QString db = dir_.filePath(QStringLiteral("order.sqlite"));
        {
            MainWindow w(db, run("form", 1), languages_);
            w.show();
            for (const char* name : {"first", "second", "third", "fourth"})
                w.queue()->add(run(name, 1), 1);
            QListWidget* list = w.queuePanel()->list();
            QCOMPARE(list->count(), 4);
            // The arrows: "third" up to the top.
            w.queuePanel()->setCurrentIndex(2);
            QTest::mouseClick(w.queuePanel()->findChild<QToolButton*>(QStringLiteral("queueUp")), Qt::LeftButton);
            QTest::mouseClick(w.queuePanel()->findChild<QToolButton*>(QStringLiteral("queueUp")), Qt::LeftButton);
            QCOMPARE(names(*w.queue()), (QStringList{QStringLiteral("third"), QStringLiteral("first"), QStringLiteral("second"),
                                                     QStringLiteral("fourth")}));
            QCOMPARE(w.queuePanel()->currentIndex(), 0);
            QTest::mouseClick(w.queuePanel()->findChild<QToolButton*>(QStringLiteral("queueDown")), Qt::LeftButton);
            QCOMPARE(names(*w.queue()), (QStringList{QStringLiteral("first"), QStringLiteral("third"), QStringLiteral("second"),
                                                     QStringLiteral("fourth")}));
            // A row dragged inside the list: the queue takes the list's order.
            QVERIFY(list->model()->moveRow(QModelIndex(), 3, QModelIndex(), 0));
            QTRY_COMPARE(names(*w.queue()), (QStringList{QStringLiteral("fourth"), QStringLiteral("first"),
                                                         QStringLiteral("third"), QStringLiteral("second")}));
            w.queuePanel()->setCurrentIndex(1);
            QTest::mouseClick(w.queuePanel()->findChild<QPushButton*>(QStringLiteral("queueRemove")), Qt::LeftButton);
            QCOMPARE(names(*w.queue()),
                     (QStringList{QStringLiteral("fourth"), QStringLiteral("third"), QStringLiteral("second")}));
            QVERIFY(w.close());
        }
        QVERIFY(QFile::exists(RunQueue::fileFor(db)));
        MainWindow again(db, run("form", 1), languages_);
        again.show();
        QCOMPARE(names(*again.queue()),
                 (QStringList{QStringLiteral("fourth"), QStringLiteral("third"), QStringLiteral("second")}));
        QCOMPARE(again.queuePanel()->list()->count(), 3);
        QVERIFY(again.queuePanel()->list()->item(0)->text().contains(QLatin1String("fourth")));
        // Restored, not started.
        QTest::qWait(200);
        QVERIFY(!again.controller()->isRunning());
        QCOMPARE(again.runs()->model()->rowCount(), 0);
    }

    void nextQueuedRunStartsWhenOneEnds()
    {
        MainWindow w(dir_.filePath(QStringLiteral("next.sqlite")), run("one", 1), languages_);
        w.show();
        QVERIFY(w.startTraining());
        w.configPanel()->setConfig(run("two", 1));
        QVERIFY(!w.startTraining()); // queued
        QCOMPARE(w.queue()->size(), 1);
        // "one" ends, "two" starts by itself and ends too.
        QTRY_COMPARE_WITH_TIMEOUT(w.runs()->model()->rowCount(), 2, 240000);
        QTRY_VERIFY_WITH_TIMEOUT(!w.controller()->isRunning() && w.queue()->isEmpty(), 240000);
        QVERIFY2(w.lastError().isEmpty(), qPrintable(w.lastError()));
        QStringList ran;
        for (int row = 0; row < w.runs()->model()->rowCount(); ++row) {
            const RunRecord* r = w.runs()->model()->runAt(row);
            QCOMPARE(r->status, RunStatus::Finished);
            ran << QString::fromStdString(r->name);
        }
        ran.sort();
        QCOMPARE(ran, (QStringList{QStringLiteral("one"), QStringLiteral("two")}));

        // Run next with nothing training starts the chosen entry at once.
        w.queue()->add(run("three", 1), 1);
        w.queue()->add(run("four", 1), 1);
        w.queuePanel()->setCurrentIndex(1);
        QTest::mouseClick(w.queuePanel()->findChild<QPushButton*>(QStringLiteral("queueRunNext")), Qt::LeftButton);
        QVERIFY(w.controller()->isRunning());
        QCOMPARE(names(*w.queue()), QStringList{QStringLiteral("three")});
        QTRY_VERIFY_WITH_TIMEOUT(!w.controller()->isRunning() && w.queue()->isEmpty(), 240000);
        QCOMPARE(w.runs()->model()->rowCount(), 4);
    }
};

QTEST_MAIN(TestQueue)
#include "tst_queue.moc"
