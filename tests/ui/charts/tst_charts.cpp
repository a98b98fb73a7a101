// The live charts' axes: every axis contains its data with a visible spread, and a flat series
// (a constant learning rate, a steady memory reading, one validation point) gets a readable range
// that does not change from one redraw to the next.
#include "charts/AxisRange.h"
#include "charts/LiveCharts.h"

#include <QApplication>
#include <QtTest>
#include <qcustomplot.h>

using namespace entrena;
using namespace entrena::ui;

namespace {

QVector<StepEvent> steps(int from, int count, double lr, double memoryMiB)
{
    QVector<StepEvent> v;
    for (int i = 0; i < count; ++i) {
        StepEvent e;
        e.step = from + i * 10;
        e.epoch = 1;
        e.loss = 2.3 - 0.01 * (from + i);
        e.lr = lr;
        e.samplesPerSec = 1000;
        e.memoryBytes = int64_t(memoryMiB * 1024 * 1024) + (i % 3) * 1024; // a few KiB of jitter
        v.push_back(e);
    }
    return v;
}

/// The axis shows all of [lower, upper], and the data fill at least a twentieth of it or the
/// range is no wider than 20% of the values' size (a flat series: drawn mid-axis, readable ticks;
/// the validation chart's two series take half the height each).
void verifyReadable(const QCPRange& axis, double lower, double upper, const char* what)
{
    QVERIFY2(axis.lower <= lower && axis.upper >= upper,
             qPrintable(QStringLiteral("%1: [%2, %3] does not contain [%4, %5]").arg(what).arg(axis.lower).arg(axis.upper).arg(lower).arg(upper)));
    const double magnitude = std::max(std::abs(lower), std::abs(upper));
    QVERIFY2(axis.size() <= std::max(20 * (upper - lower), 0.2 * magnitude),
             qPrintable(QStringLiteral("%1: [%2, %3] is far too wide for [%4, %5]").arg(what).arg(axis.lower).arg(axis.upper).arg(lower).arg(upper)));
    QVERIFY2(axis.size() > 0, what);
}

} // namespace

class TestCharts : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void displayRangeContainsTheDataWithAir()
    {
        const QCPRange r = displayRange(0.2, 0.8);
        QVERIFY(r.lower < 0.2 && r.upper > 0.8);
        QVERIFY(qAbs(r.size() - 0.6 * 1.08) < 1e-12);
        // Flat: around the value, 5% of it; around zero, one unit.
        const QCPRange flat = displayRange(0.05, 0.05);
        QVERIFY(flat.contains(0.05) && flat.lower > 0);
        QVERIFY(qAbs(flat.size() - 0.0025) < 1e-12);
        const QCPRange zero = displayRange(0, 0);
        QCOMPARE(zero.lower, -0.5);
        QCOMPARE(zero.upper, 0.5);
    }

    // Regression: a constant learning rate was drawn as a line at "0" on an axis that grew every
    // redraw (rescaleAxes kept the old span for data with none, and 8% of air was added to it).
    void constantLearningRateKeepsAReadableAxisAcrossRedraws()
    {
        LiveCharts charts;
        charts.resize(1000, 700);
        auto* lr = charts.findChild<QCustomPlot*>(QStringLiteral("learningRatePlot"));
        auto* memory = charts.findChild<QCustomPlot*>(QStringLiteral("memoryPlot"));
        QVERIFY(lr && memory);
        QCPRange first;
        for (int round = 0; round < 12; ++round) {
            const int before = charts.replotCount();
            charts.addSteps(steps(1 + round * 100, 10, 0.05, 463.274));
            QTRY_VERIFY(charts.replotCount() > before);
            if (round == 0)
                first = lr->yAxis->range();
        }
        verifyReadable(lr->yAxis->range(), 0.05, 0.05, "learning rate");
        QCOMPARE(lr->yAxis->range().lower, first.lower); // the same after 12 redraws
        QCOMPARE(lr->yAxis->range().upper, first.upper);
        verifyReadable(lr->xAxis->range(), 1, 1191, "steps");
        // Memory that barely moves (a few KiB of 463 MiB) is a flat line, not ticks 463.274–463.277.
        const QCPRange m = memory->yAxis->range();
        QVERIFY2(m.size() >= 0.04 * 463.274, qPrintable(QStringLiteral("[%1, %2]").arg(m.lower, 0, 'f', 4).arg(m.upper, 0, 'f', 4)));
        QVERIFY(m.contains(463.274) && m.contains(463.28));
    }

    // Regression: the charts painted fixed white and black, a white block on a dark desktop.
    void chartsFollowThePalette()
    {
        LiveCharts charts;
        auto* loss = charts.findChild<QCustomPlot*>(QStringLiteral("lossPlot"));
        QVERIFY(loss);
        const QPalette light = QApplication::palette();
        QPalette dark = light;
        dark.setColor(QPalette::Base, QColor(30, 30, 32));
        dark.setColor(QPalette::Window, QColor(45, 45, 48));
        dark.setColor(QPalette::WindowText, QColor(225, 225, 225));
        QApplication::setPalette(dark);
        QTRY_COMPARE(loss->toPixmap(200, 150).toImage().pixelColor(1, 1), QColor(30, 30, 32)); // a corner: background
        QCOMPARE(loss->xAxis->tickLabelColor(), QColor(225, 225, 225));
        QCOMPARE(loss->yAxis->basePen().color(), QColor(225, 225, 225));
        QCOMPARE(loss->legend->textColor(), QColor(225, 225, 225));
        QApplication::setPalette(light);
        QTRY_COMPARE(loss->xAxis->tickLabelColor(), light.color(QPalette::WindowText));
    }

    void oneValidationPointGetsAnAxisAroundIt()
    {
        LiveCharts charts;
        auto* validation = charts.findChild<QCustomPlot*>(QStringLiteral("validationPlot"));
        QVERIFY(validation);
        EpochEvent e;
        e.epoch = 1;
        e.trainLoss = 0.6;
        e.valLoss = 0.45;
        e.valAccuracy = 0.84;
        const int before = charts.replotCount();
        charts.addEpoch(e, 422);
        QTRY_VERIFY(charts.replotCount() > before);
        verifyReadable(validation->yAxis->range(), 0.45, 0.45, "validation loss");
        verifyReadable(validation->yAxis2->range(), 0.84, 0.84, "validation accuracy");
        QVERIFY(validation->xAxis->range().contains(1) && validation->xAxis->range().size() <= 4);
    }
};

QTEST_MAIN(TestCharts)
#include "tst_charts.moc"
