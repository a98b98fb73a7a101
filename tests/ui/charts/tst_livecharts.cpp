// The live charts of a run from the window: device memory (every rank's), the step time's parts,
// divergence rollbacks marked.
#include "../MainWindowFixture.h"
#include "MainWindow.h"
#include "TrainingController.h"
#include "charts/ChartTheme.h"
#include "charts/CompactTicker.h"
#include "settings/Theme.h"
#include "widgets/FocusRing.h"
#include "charts/LiveCharts.h"
#include "charts/StepTimeChart.h"
#include "settings/LanguageManager.h"

#include <QApplication>
#include <QStyle>
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

    // Issue 53, item 1: the empty charts' grey text was ~1.8:1 against the chart; WCAG asks 4.5:1.
    void anEmptyChartsTextIsReadable()
    {
        for (const QPalette& palette : {QApplication::style()->standardPalette(), darkPalette()}) {
            const QColor c = placeholderColor(palette);
            const double ratio = FocusRing::contrast(c, palette.color(QPalette::Base));
            QVERIFY2(ratio >= 4.5, qPrintable(QString::number(ratio)));
            QVERIFY(c != palette.color(QPalette::WindowText)); // still softer than the axes' text
        }
        LiveCharts charts;
        auto* loss = charts.findChild<QCustomPlot*>(QStringLiteral("lossPlot"));
        bool found = false;
        for (int i = 0; i < loss->itemCount(); ++i)
            if (auto* t = qobject_cast<QCPItemText*>(loss->item(i)); t && t->property("placeholder").toBool()) {
                found = true;
                QVERIFY(FocusRing::contrast(t->color(), loss->palette().color(QPalette::Base)) >= 4.5);
            }
        QVERIFY(found);
    }

    // Regression: the validation chart's Spanish placeholder ("Pérdida y exactitud de validación") was
    // wider than its axis rect at 1280x720 and ran over the value axis.
    void anEmptyChartsTextStaysInsideItsAxes()
    {
        const auto placeholderOf = [](QCustomPlot* plot) {
            for (int i = 0; i < plot->itemCount(); ++i)
                if (auto* t = qobject_cast<QCPItemText*>(plot->item(i)); t && t->property("placeholder").toBool())
                    return t;
            return static_cast<QCPItemText*>(nullptr);
        };
        const auto widthOf = [](QCPItemText* t) {
            return QFontMetrics(t->font()).boundingRect(QRect(), Qt::AlignCenter, t->text()).width();
        };
        // Any chart: a line wider than the axis rect shrinks the font until it fits, and with room the
        // font is its own again.
        QCustomPlot plot;
        followPalette(&plot);
        auto* text = new QCPItemText(&plot);
        text->setProperty("placeholder", true);
        text->setText(QStringLiteral("A placeholder line far wider than a narrow chart\nand a second"));
        const qreal full = text->font().pointSizeF();
        plot.resize(1200, 200);
        plot.show();
        plot.replot();
        const int margins = plot.width() - plot.axisRect()->width(), fullWidth = widthOf(text);
        plot.resize(fullWidth * 3 / 4 + margins, 200); // room for three quarters of it
        plot.replot();
        QVERIFY(text->font().pointSizeF() < full);
        QVERIFY2(widthOf(text) <= plot.axisRect()->width(),
                 qPrintable(QStringLiteral("%1 px of text in %2 px").arg(widthOf(text)).arg(plot.axisRect()->width())));
        plot.resize(1200, 200);
        plot.replot();
        QCOMPARE(text->font().pointSizeF(), full);

        // The live charts in Spanish, as narrow as a laptop screen makes them.
        languages_.apply(QStringLiteral("es"));
        struct English {
            LanguageManager& languages;
            ~English() { languages.apply(QStringLiteral("en")); }
        } back{languages_};
        LiveCharts charts;
        charts.show();
        for (const int wide : {480, 640, 1800}) {
            charts.resize(wide, 400);
            QApplication::processEvents();
            for (auto* p : charts.findChildren<QCustomPlot*>()) {
                p->replot();
                if (QCPItemText* t = placeholderOf(p); t && t->visible())
                    QVERIFY2(widthOf(t) <= p->axisRect()->width(),
                             qPrintable(p->objectName() + QStringLiteral(": %1 px of text in %2 px, window %3")
                                                              .arg(widthOf(t))
                                                              .arg(p->axisRect()->width())
                                                              .arg(wide)));
            }
        }
    }

    // Issue 53, item 3: a short run's step axis ticked at 7.5 and 12.5.
    void stepAxesTickOnWholeSteps()
    {
        QCOMPARE(wholeTickStep(2.5), 5.0);
        QCOMPARE(wholeTickStep(0.2), 1.0);
        QCOMPARE(wholeTickStep(25.0), 25.0);
        LiveCharts charts;
        auto* plot = charts.findChild<QCustomPlot*>(QStringLiteral("memoryPlot"));
        QVERIFY(plot);
        QVector<StepEvent> steps(17);
        for (int i = 0; i < steps.size(); ++i) {
            steps[i].step = i + 1;
            steps[i].memoryBytes = (100 + i) << 20;
        }
        charts.addSteps(steps);
        plot->xAxis->setRange(1, 17);
        plot->replot();
        const QVector<double> ticks = plot->xAxis->tickVector();
        QVERIFY(ticks.size() >= 2);
        for (double t : ticks)
            QVERIFY2(std::floor(t) == t, qPrintable(QString::number(t)));
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
        // Empty, it says what will appear, on unnumbered axes without a grid through the text.
        const auto shownEmpty = [chart] {
            QCustomPlot* p = chart->plot();
            for (int i = 0; i < p->itemCount(); ++i)
                if (auto* t = qobject_cast<QCPItemText*>(p->item(i)); t && t->property("placeholder").toBool())
                    return t->visible() && !t->text().isEmpty() && !p->yAxis->tickLabels() && !p->xAxis->tickLabels() &&
                           !p->yAxis->grid()->visible();
            return false;
        };
        QVERIFY(shownEmpty());
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
        QVERIFY(!shownEmpty());
        QVERIFY(chart->plot()->yAxis->tickLabels() && chart->plot()->yAxis->grid()->visible());
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
        QVERIFY(shownEmpty());
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
