// The live charts of a run from the window: device memory (every rank's), the step time's parts,
// divergence rollbacks marked.
#include "../MainWindowFixture.h"
#include "MainWindow.h"
#include "TrainingController.h"
#include "charts/LiveCharts.h"
#include "charts/StepTimeChart.h"
#include "settings/LanguageManager.h"

#include <QTemporaryDir>
#include <QtTest>
#include <qcustomplot.h>

using namespace entrena;
using namespace entrena::ui;
using entrena::test::childProcesses;
using entrena::test::smallRun;

class TestLiveCharts : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;
    LanguageManager languages_;

private Q_SLOTS:
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
        QVERIFY(
            StepTimeChart::hintFor({0.0, 0.002, 0.002, 0.0, 0.005, 0.0}, 0.009, -1).contains(QStringLiteral("batch per device")));
        charts.clear();
        QCOMPARE(chart->points(), 0);
        QVERIFY(chart->hint().isEmpty());
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
};

QTEST_MAIN(TestLiveCharts)

#include "tst_livecharts.moc"
