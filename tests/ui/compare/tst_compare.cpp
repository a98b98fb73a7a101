// The compare view, built from a fixture store under the offscreen platform: every run drawn,
// x-axis modes, smoothing with TensorBoard's debiasing, decimation that keeps spikes, hover
// read-out, events as markers, the "only differences" table and the summary's best values.
#include "charts/ChartMenu.h"
#include "compare/CompareChart.h"
#include "compare/CompareView.h"
#include "dialogs/RunDetailsDialog.h"
#include "entrena/store/RunStore.h"

#include <QSignalSpy>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QSlider>
#include <QLabel>
#include <QHeaderView>
#include <QScrollBar>
#include <QtTest>
#include <cmath>

using namespace entrena;
using namespace entrena::ui;

namespace {

constexpr int kSteps = 6000; // per run, logged every step
constexpr int kStepsPerEpoch = 1000;
constexpr int kSpikeStep = 4321; // run 0's training loss jumps here

struct Fixture {
    int64_t id;
    double lr;
    int batch;
    double finalAccuracy;
};

// Three runs that differ in learning rate (and one in batch size).
const Fixture kRuns[] = {{0, 0.1, 64, 0.86}, {0, 0.05, 64, 0.88}, {0, 0.05, 128, 0.84}};

std::string configJson(double lr, int batch)
{
    return QStringLiteral(
               R"({"name": "fixture", "seed": 1, "data": {"dataset": "fashion-mnist", "batch_size": %2},
        "model": {"arch": "mlp", "hidden": [64]}, "optimizer": {"name": "sgd", "lr": %1, "momentum": 0.9},
        "train": {"epochs": 6, "accumulate": 1}})")
        .arg(lr)
        .arg(batch)
        .toStdString();
}

} // namespace

class TestCompare : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;
    QString db_;
    QList<qint64> ids_;

    std::unique_ptr<CompareView> open(const QList<qint64>& ids)
    {
        auto view = std::make_unique<CompareView>(db_, ids);
        view->setAttribute(Qt::WA_DeleteOnClose, false);
        view->resize(1400, 900);
        view->show();
        QSignalSpy loaded(view.get(), &CompareView::loaded);
        if (!view->isLoaded() && !loaded.wait(30000))
            return nullptr;
        return view;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        db_ = dir_.filePath(QStringLiteral("compare.sqlite"));
        RunStore store(db_.toStdString());
        for (std::size_t r = 0; r < std::size(kRuns); ++r) {
            const Fixture& f = kRuns[r];
            const int64_t id = store.createRun("run " + std::to_string(r), configJson(f.lr, f.batch), "{}");
            for (int step = 1; step <= kSteps; ++step) {
                const int epoch = (step - 1) / kStepsPerEpoch + 1;
                double loss = 2.0 * std::exp(-step / (1500.0 * (r + 1))) + 0.3 + 0.05 * std::sin(step * 0.7);
                if (r == 0 && step == kSpikeStep)
                    loss = 40.0;
                store.addMetric(id, "train_loss", step, epoch, loss);
                store.addMetric(id, "lr", step, epoch, f.lr);
                store.addMetric(id, "samples_per_s", step, epoch, 1000.0 * (r + 1));
                store.addMetric(id, "memory_bytes", step, epoch, 100.0 * 1024 * 1024);
                if (step % kStepsPerEpoch == 0) {
                    const double acc = f.finalAccuracy * (1 - 0.5 / epoch);
                    store.addMetric(id, "val_loss", step, epoch, 1.0 / epoch);
                    store.addMetric(id, "val_accuracy", step, epoch, acc);
                    store.addMetric(id, "epoch_seconds", step, epoch, 10.0 * (r + 1));
                }
            }
            store.addEvent(id, 3000, "lr_reduced", "lr 0.1 -> 0.05");
            EndEvent end;
            end.testAccuracy = f.finalAccuracy - 0.01;
            end.bestValAccuracy = f.finalAccuracy * (1 - 0.5 / 6);
            end.seconds = 60.0 * (r + 1);
            end.samplesPerSec = 1000.0 * (r + 1);
            store.finishRun(id, RunStatus::Finished, end, 0.3);
            ids_ << id;
        }
    }

    // Regression: on runs under 64 points the smoothing slider did nothing, without saying why.
    void smoothingSaysWhenThereIsTooLittleToSmooth()
    {
        {
            RunStore store(db_.toStdString());
            const int64_t shortRun = store.createRun("short", configJson(0.1, 64), "{}");
            for (int step = 1; step <= 20; ++step)
                store.addMetric(shortRun, "train_loss", step, 1, 2.0 / step);
            store.finishRun(shortRun, RunStatus::Finished, EndEvent{}, 0.1);
            auto view = open({shortRun});
            QVERIFY(view);
            auto* slider = view->findChild<QSlider*>();
            auto* note = view->findChild<QLabel*>(QStringLiteral("smoothingNote"));
            QVERIFY(slider && note);
            QVERIFY(!slider->isEnabled());
            QVERIFY(note->isVisible() && !note->text().isEmpty());
            QVERIFY(slider->toolTip().contains(QStringLiteral("64")));
        }
        auto view = open({ids_[0]}); // 6,000 points
        QVERIFY(view);
        QVERIFY(view->findChild<QSlider*>()->isEnabled());
        QVERIFY(!view->findChild<QLabel*>(QStringLiteral("smoothingNote"))->isVisible());
    }

    void emaIsDebiasedLikeTensorBoard()
    {
        const auto s = emaDebiased({1, 2, 3}, 0.5);
        QCOMPARE(s[0], 1.0); // without debiasing: 0.5
        QVERIFY(std::abs(s[1] - 1.25 / 0.75) < 1e-12);
        QVERIFY(std::abs(s[2] - 2.125 / 0.875) < 1e-12);
        const auto flat = emaDebiased(std::vector<double>(50, 7.0), 0.99);
        for (double v : flat)
            QVERIFY(std::abs(v - 7.0) < 1e-9);
        const auto nan = emaDebiased({1, NAN, 1}, 0.9);
        QVERIFY(std::isnan(nan[1]));
        QVERIFY(std::abs(nan[2] - 1.0) < 1e-12); // a NaN does not poison what follows
    }

    void everyRunIsDrawnInEveryChart()
    {
        auto view = open(ids_);
        QVERIFY(view);
        QCOMPARE(view->charts().size(), 6);
        for (CompareChart* c : view->charts()) {
            QCOMPARE(c->lineCount(), 3);
            QCOMPARE(c->graphCount(), 6); // raw and smoothed per run
            QVERIFY(c->drawnPoints() > 0);
        }
        // Drawn points are decimated to the chart's width, not the 6000 stored per run.
        CompareChart* loss = view->chart(QStringLiteral("train_loss"));
        QVERIFY(loss->drawnPoints() <= 3 * 4 * loss->axisRect()->width() + 6);
        QVERIFY(loss->drawnPoints() < 3 * kSteps);
    }

    void decimationKeepsTheSpikeAndZoomShowsEveryPoint()
    {
        auto view = open(ids_);
        QVERIFY(view);
        CompareChart* loss = view->chart(QStringLiteral("train_loss"));
        auto spike = [&] {
            for (auto it = loss->graph(0)->data()->constBegin(); it != loss->graph(0)->data()->constEnd(); ++it)
                if (it->key == kSpikeStep)
                    return it->value;
            return 0.0;
        };
        QCOMPARE(spike(), 40.0);
        QVERIFY(loss->yAxis->range().upper >= 40.0); // fitted to include it
        loss->xAxis->setRange(4300, 4400);           // zoomed in: every raw point of the range
        QCOMPARE(spike(), 40.0);
        QCOMPARE(loss->graph(0)->dataCount(), 101 + 2);
        // The other charts follow the zoom.
        QCOMPARE(view->chart(QStringLiteral("lr"))->xAxis->range().lower, 4300.0);
    }

    void xAxisModesRescaleEveryChart()
    {
        auto view = open(ids_);
        QVERIFY(view);
        CompareChart* loss = view->chart(QStringLiteral("train_loss"));
        QCOMPARE(loss->xAxis->range().upper, double(kSteps));
        view->setXMode(XAxisMode::Epoch);
        QCOMPARE(loss->xAxis->range().upper, double(kSteps) / kStepsPerEpoch);
        QCOMPARE(view->chart(QStringLiteral("val_accuracy"))->xAxis->range().upper, 6.0);
        view->setXMode(XAxisMode::Samples);
        QCOMPARE(loss->xAxis->range().upper, double(kSteps) * 128); // the largest batch
        view->setXMode(XAxisMode::RelativeTime);
        QVERIFY(loss->xAxis->range().lower > -5 && loss->xAxis->range().upper < 600);
        view->setXMode(XAxisMode::WallTime);
        QVERIFY(loss->xAxis->range().lower > 1.7e9); // Unix seconds, shown as dates
        QVERIFY(loss->xAxis->ticker().dynamicCast<QCPAxisTickerDateTime>());
        view->setXMode(XAxisMode::Step);
        QCOMPARE(loss->xAxis->range().upper, double(kSteps));
    }

    void smoothingDrawsTheDebiasedEmaOverTheFaintRaw()
    {
        auto view = open(ids_);
        QVERIFY(view);
        CompareChart* loss = view->chart(QStringLiteral("train_loss"));
        QVERIFY(!loss->graph(1)->visible());
        view->setSmoothing(0.9);
        QVERIFY(loss->graph(1)->visible());
        QVERIFY(loss->graph(1)->dataCount() > 0);
        QVERIFY(loss->graph(0)->pen().color().alpha() < 100);
        // Hover reads the smoothed value, which is the debiased EMA of the stored series.
        RunStore store(db_.toStdString());
        std::vector<double> raw;
        for (const MetricPoint& p : store.metrics(ids_[1], "train_loss"))
            raw.push_back(p.value);
        const auto smooth = emaDebiased(raw, 0.9);
        const QStringList text = loss->hoverText(2500);
        QCOMPARE(text.size(), 3);
        QVERIFY2(text[1].endsWith(QLocale().toString(smooth[2499], 'g', 5)), qPrintable(text[1]));
        // "Copy data as CSV" holds both, raw and smoothed.
        const QString csv = ChartMenu::csv(loss);
        QVERIFY(csv.contains(QStringLiteral("#%1 run 0 (smoothed),").arg(ids_[0])));
        QVERIFY(csv.contains(QStringLiteral("#%1 run 0,").arg(ids_[0])));
        view->setSmoothing(0);
        QVERIFY(!loss->graph(1)->visible());
        QCOMPARE(loss->hoverText(2500)[1],
                 QStringLiteral("#%1 run 1: %2").arg(ids_[1]).arg(QLocale().toString(raw[2499], 'g', 5)));
    }

    void hoverListsEventsAndLegendHidesRuns()
    {
        auto view = open(ids_);
        QVERIFY(view);
        CompareChart* lr = view->chart(QStringLiteral("lr"));
        QVERIFY(lr->itemCount() >= 3); // the lr_reduced marker of each run
        QVERIFY(lr->hoverText(3000, 1).contains(QStringLiteral("lr_reduced: lr 0.1 -> 0.05")));
        QVERIFY(!lr->hoverText(3500, 1).contains(QStringLiteral("lr_reduced: lr 0.1 -> 0.05")));
        view->setRunVisible(1, false);
        QVERIFY(!lr->graph(2)->visible());
        QCOMPARE(lr->hoverText(100).size(), 2);
        view->setLogScale(true);
        QCOMPARE(view->chart(QStringLiteral("train_loss"))->yAxis->scaleType(), QCPAxis::stLogarithmic);
    }

    void onlyDifferencesTableShowsWhatDiffers()
    {
        auto view = open(ids_);
        QVERIFY(view);
        QTableWidget* t = view->parametersTable();
        QStringList keys, labels;
        for (int r = 0; r < t->rowCount(); ++r) {
            keys << t->item(r, 0)->toolTip();
            labels << t->item(r, 0)->text();
        }
        QCOMPARE(keys, QStringList({QStringLiteral("data.batch_size"), QStringLiteral("optimizer.lr")}));
        // In the form's words (issue 53: compare showed data.fold and name).
        QCOMPARE(labels, QStringList({QStringLiteral("Batch size"), QStringLiteral("Learning rate")}));
        QCOMPARE(t->item(1, 1)->text(), QStringLiteral("0.1"));
        QCOMPARE(t->columnCount(), 4);
        view->setOnlyDifferences(false);
        QVERIFY(t->rowCount() > 8);
    }

    void summaryMarksTheBestOfEachRow()
    {
        auto view = open(ids_);
        QVERIFY(view);
        QTableWidget* t = view->summaryTable();
        auto row = [&](const QString& prefix) {
            for (int r = 0; r < t->rowCount(); ++r)
                if (t->item(r, 0)->text().startsWith(prefix))
                    return r;
            return -1;
        };
        auto best = [&](int r) {
            QList<int> columns;
            for (int c = 1; c < t->columnCount(); ++c)
                if (t->item(r, c)->data(Qt::UserRole).toBool())
                    columns << c - 1;
            return columns;
        };
        QCOMPARE(best(row(QStringLiteral("Test accuracy"))), QList<int>{1});               // run 1: 0.87
        QCOMPARE(best(row(QStringLiteral("Duration"))), QList<int>{0});                    // run 0: 60 s
        QCOMPARE(best(row(QStringLiteral("Throughput"))), QList<int>{2});                  // run 2: 3000/s
        QCOMPARE(best(row(QStringLiteral("Final training loss"))), QList<int>({0, 1, 2})); // a tie: all
        // Time to a chosen accuracy: only runs that reach it get a time.
        view->setTargetAccuracy(78);
        const int time = row(QStringLiteral("Time to"));
        QVERIFY(time >= 0);
        QCOMPARE(t->item(time, 3)->text(), QStringLiteral("–")); // run 2 peaks at 77%
        QVERIFY(t->item(time, 1)->text() != QStringLiteral("–"));
    }

    // Regression: at 1280x720 the side panel showed the first run's column only; the others were
    // behind a horizontal scroll bar.
    static QString summaryLacks(QTableWidget* t)
    {
        t->horizontalHeader()->setStretchLastSection(false); // the columns as their contents need them
        t->resizeColumnsToContents();
        int columns = 0;
        for (int c = 0; c < t->columnCount(); ++c)
            columns += t->columnWidth(c);
        t->horizontalHeader()->setStretchLastSection(true);
        if (columns > t->viewport()->width() || t->horizontalScrollBar()->maximum() > 0)
            return QStringLiteral("%1 px of columns in a %2 px table").arg(columns).arg(t->viewport()->width());
        return {};
    }

    void summaryShowsEveryRunWithoutScrolling()
    {
        auto view = std::make_unique<CompareView>(db_, ids_);
        view->resize(1280, 720);
        view->show();
        QSignalSpy loaded(view.get(), &CompareView::loaded);
        QVERIFY(view->isLoaded() || loaded.wait(30000));
        QApplication::processEvents();
        QTableWidget* t = view->summaryTable();
        QCOMPARE(t->columnCount(), int(ids_.size()) + 1);
        const QString lacks = summaryLacks(t);
        QVERIFY2(lacks.isEmpty(), qPrintable(lacks));
    }

    // In the run details the charts are a second tab, hidden while the data arrive.
    void summaryFitsWhenShownAfterLoading()
    {
        QTabWidget tabs;
        tabs.addTab(new QWidget, QStringLiteral("first"));
        auto* view = new CompareView(db_, ids_);
        tabs.addTab(view, QStringLiteral("charts"));
        tabs.resize(1100, 720);
        tabs.show();
        QSignalSpy loaded(view, &CompareView::loaded);
        QVERIFY(view->isLoaded() || loaded.wait(30000));
        QApplication::processEvents();
        QVERIFY(!view->isVisible());
        tabs.setCurrentIndex(1);
        QApplication::processEvents();
        const QString lacks = summaryLacks(view->summaryTable());
        QVERIFY2(lacks.isEmpty(), qPrintable(lacks));
    }

    void summaryMeasuresRunsAgainstTheBaseline()
    {
        RunStore(db_.toStdString()).setBaseline(ids_[0]);
        auto view = open(ids_);
        RunStore(db_.toStdString()).clearBaseline(ids_[0]);
        QVERIFY(view);
        QTableWidget* t = view->summaryTable();
        int speedup = -1, delta = -1;
        for (int r = 0; r < t->rowCount(); ++r) {
            if (t->item(r, 0)->text().startsWith(QStringLiteral("Speed-up vs baseline")))
                speedup = r;
            if (t->item(r, 0)->text().startsWith(QStringLiteral("Δ final accuracy vs baseline")))
                delta = r;
        }
        QVERIFY(speedup >= 0 && delta >= 0);
        // Run 0 (the baseline) ends at 78.8% validation accuracy after 6 epochs of 10 s; run 1
        // reaches it at epoch 5 of 20 s: 60 / 100. Run 2 never does.
        QCOMPARE(t->item(speedup, 1)->text(), QLocale().toString(1.0, 'f', 2));
        QCOMPARE(t->item(speedup, 2)->text(), QLocale().toString(0.6, 'f', 2));
        QCOMPARE(t->item(speedup, 3)->text(), QStringLiteral("–"));
        QCOMPARE(t->item(delta, 2)->text(), QLocale().toString(2.0, 'f', 2)); // test 87% vs 85%
        // Run 2 has 3x the baseline's throughput but ends 2 points worse: flagged. Run 1 is not.
        QVERIFY(t->item(delta, 3)->data(Qt::UserRole + 1).toBool());
        QVERIFY(!t->item(delta, 2)->data(Qt::UserRole + 1).toBool());
        QVERIFY(t->item(delta, 3)->toolTip().contains(QStringLiteral("worse model")));
    }

    void longSeriesOpenFromTheOverviewThenEveryPointArrives()
    {
        // 100,000 points: above what is read whole at first.
        const QString db = dir_.filePath(QStringLiteral("long.sqlite"));
        QList<qint64> ids;
        {
            RunStore store(db.toStdString());
            for (int r = 0; r < 2; ++r) {
                const int64_t id = store.createRun("long " + std::to_string(r), configJson(0.1, 64), "{}");
                for (int step = 1; step <= 100000; ++step)
                    store.addMetric(id, "train_loss", step, 1, step == 77777 ? 9.0 : 1.0 / step);
                store.finishRun(id, RunStatus::Finished, EndEvent{}, 0.1);
                ids << id;
            }
        }
        CompareView view(db, ids);
        view.setAttribute(Qt::WA_DeleteOnClose, false);
        view.resize(1400, 900);
        view.show();
        QSignalSpy loaded(&view, &CompareView::loaded), complete(&view, &CompareView::complete);
        QVERIFY(loaded.wait(30000));
        CompareChart* loss = view.chart(QStringLiteral("train_loss"));
        QVERIFY(loss->yAxis->range().upper >= 9.0); // the overview keeps the spike
        loss->xAxis->setRange(50000, 50100);
        if (complete.isEmpty())
            QVERIFY(complete.wait(30000));
        // The zoom survived the swap, and now every point of the range is drawn.
        QCOMPARE(loss->xAxis->range().lower, 50000.0);
        QCOMPARE(loss->graph(0)->dataCount(), 101 + 2);
        QCOMPARE(loss->graph(0)->data()->findBegin(50050, false)->value, 1.0 / 50050);
    }

    void runDetailsShowTheRunsCharts()
    {
        RunStore store(db_.toStdString());
        RunDetailsDialog dialog(store, ids_[1]);
        auto* view = dialog.findChild<CompareView*>();
        QVERIFY(view);
        QSignalSpy loaded(view, &CompareView::loaded);
        QVERIFY(view->isLoaded() || loaded.wait(30000));
        QCOMPARE(view->chart(QStringLiteral("train_loss"))->lineCount(), 1);
        QVERIFY(view->parametersTable()->rowCount() > 8); // one run: its whole configuration
    }

    // An event's kind reads as words in the reader's language, not as a stored identifier.
    void runDetailsNameEventKindsInWords()
    {
        RunStore store(db_.toStdString());
        const int64_t id = store.createRun("events", "{}", "{}");
        store.addEvent(id, 12, "lr_reduced", "lr 0.1 -> 0.05");
        store.addEvent(id, 13, "something_new", "kept as stored");
        RunDetailsDialog dialog(store, id);
        QTableWidget* events = nullptr;
        for (auto* t : dialog.findChildren<QTableWidget*>())
            if (t->columnCount() == 4 && t->rowCount() == 2)
                events = t;
        QVERIFY(events);
        QCOMPARE(events->item(0, 2)->text(), QStringLiteral("learning rate reduced"));
        QCOMPARE(events->item(1, 2)->text(), QStringLiteral("something_new"));
        store.finishRun(id, RunStatus::Finished, EndEvent{}, std::nullopt);
    }

    void unknownRunFailsWithAMessage()
    {
        CompareView view(db_, {ids_[0], 999});
        view.setAttribute(Qt::WA_DeleteOnClose, false);
        QSignalSpy failed(&view, &CompareView::failed);
        QVERIFY(failed.wait(30000));
        QVERIFY(failed[0][0].toString().contains(QStringLiteral("no run 999")));
    }
};

QTEST_MAIN(TestCompare)
#include "tst_compare.moc"
