// The compare view against a large store: 4 runs whose training loss has 1,000,000 points each
// (other per-step metrics every 100 steps, validation every 10,000), as a long run logging every
// step would leave. Measures, on the offscreen platform with the window shown:
//   open:  from constructing the view to every chart drawn once (load, decimate, paint);
//   pan:   one pan of the training-loss chart with the five linked charts following:
//          re-decimation plus the replot of all six charts (median and worst of --pans);
// and the store ingest rate while the fixture is written. Prints one JSON object.
//
//   QT_QPA_PLATFORM=offscreen build/test/bench/compare_bench [--points 1000000] [--runs 4]
//       [--pans 40] [--db FILE] [--screenshot FILE.png]
#include "compare/CompareChart.h"
#include "compare/CompareView.h"
#include "entrena/store/RunStore.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QSignalSpy>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

using namespace entrena;
using namespace entrena::ui;

namespace {

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

double makeFixture(const QString& db, qint64 points, int runs)
{
    RunStore store(db.toStdString());
    QElapsedTimer clock;
    clock.start();
    qint64 written = 0;
    for (int r = 0; r < runs; ++r) {
        const std::string config = R"({"data": {"batch_size": )" + std::to_string(64 << (r % 2)) +
                                   R"(}, "optimizer": {"name": "sgd", "lr": )" + std::to_string(0.1 / (r + 1)) + "}}";
        const int64_t id = store.createRun("long run " + std::to_string(r), config, "{}");
        for (qint64 step = 1; step <= points; ++step) {
            const int epoch = int((step - 1) / 10000) + 1;
            const double loss = 2.0 * std::exp(-double(step) / (2e5 * (r + 1))) + 0.2 + 0.05 * std::sin(double(step) * 0.37);
            store.addMetric(id, "train_loss", step, epoch, step == points / 3 ? 25.0 : loss);
            ++written;
            if (step % 100 == 0) {
                store.addMetric(id, "lr", step, epoch, 0.1 / (r + 1) * (1 + std::cos(M_PI * double(step) / double(points))) / 2);
                store.addMetric(id, "samples_per_s", step, epoch, 40000 + 500 * std::sin(double(step)));
                store.addMetric(id, "memory_bytes", step, epoch, 3e8 + 1e6 * std::sin(double(step) * 1e-4));
                written += 3;
            }
            if (step % 10000 == 0) {
                store.addMetric(id, "val_loss", step, epoch, 1.0 / epoch + 0.2);
                store.addMetric(id, "val_accuracy", step, epoch, 0.9 - 0.4 / epoch);
                written += 2;
            }
        }
        store.addEvent(id, points / 2, "lr_reduced", "learning rate halved");
        EndEvent end;
        end.testAccuracy = 0.89;
        end.bestValAccuracy = 0.896;
        end.seconds = 3600;
        end.samplesPerSec = 40000;
        store.finishRun(id, RunStatus::Finished, end, 0.25);
    }
    store.flush();
    return double(written) / (double(clock.nsecsElapsed()) / 1e9);
}

} // namespace

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    qint64 points = 1000000;
    int runs = 4, pans = 40;
    QString db = QStringLiteral("/tmp/entrena-compare-bench.sqlite"), screenshot;
    const QStringList args = app.arguments();
    for (int i = 1; i + 1 < args.size(); i += 2) {
        if (args[i] == QLatin1String("--points"))
            points = args[i + 1].toLongLong();
        else if (args[i] == QLatin1String("--runs"))
            runs = args[i + 1].toInt();
        else if (args[i] == QLatin1String("--pans"))
            pans = args[i + 1].toInt();
        else if (args[i] == QLatin1String("--db"))
            db = args[i + 1];
        else if (args[i] == QLatin1String("--screenshot"))
            screenshot = args[i + 1];
    }
    double ingest = 0;
    if (!QFile::exists(db))
        ingest = makeFixture(db, points, runs);
    QList<qint64> ids;
    for (int r = 1; r <= runs; ++r)
        ids << r;

    // Reading alone (the store's part of opening), then opening as a user does.
    QElapsedTimer clock;
    clock.start();
    const CompareData whole = CompareData::load(db, ids);
    const double loadSeconds = double(clock.nsecsElapsed()) / 1e9;
    clock.restart();
    const CompareData overview = CompareData::load(db, ids, true);
    const double overviewSeconds = double(clock.nsecsElapsed()) / 1e9;
    // Open: construct → loaded → all six charts painted.
    clock.start();
    CompareView view(db, ids);
    view.setAttribute(Qt::WA_DeleteOnClose, false);
    view.resize(1600, 1000);
    view.show();
    QSignalSpy loaded(&view, &CompareView::loaded);
    QSignalSpy complete(&view, &CompareView::complete);
    if (!view.isLoaded() && !loaded.wait(120000)) {
        std::fprintf(stderr, "the compare view did not load\n");
        return 1;
    }
    for (CompareChart* c : view.charts())
        c->replot(QCustomPlot::rpImmediateRefresh);
    const double openSeconds = double(clock.nsecsElapsed()) / 1e9;
    if (complete.isEmpty() && !complete.wait(120000)) {
        std::fprintf(stderr, "the compare view did not read every point\n");
        return 1;
    }
    const double completeSeconds = double(clock.nsecsElapsed()) / 1e9;

    // Pan: move the training-loss chart's x-range by 2% (the others follow), redraw all.
    CompareChart* loss = view.chart(QStringLiteral("train_loss"));
    std::vector<double> panMs, decimateMs;
    for (int k = 0; k < pans; ++k) {
        const double shift = loss->xAxis->range().size() * (k % 2 ? -0.02 : 0.02);
        clock.restart();
        loss->xAxis->moveRange(shift);
        double decimation = 0;
        for (CompareChart* c : view.charts()) {
            decimation += c->lastDecimationMs();
            c->replot(QCustomPlot::rpImmediateRefresh);
        }
        panMs.push_back(double(clock.nsecsElapsed()) / 1e6);
        decimateMs.push_back(decimation);
    }
    if (!screenshot.isEmpty()) {
        QApplication::processEvents();
        view.grab().save(screenshot);
    }
    int drawn = 0;
    for (CompareChart* c : view.charts())
        drawn += c->drawnPoints();
    std::printf("{\"runs\": %d, \"train_loss_points_per_run\": %lld, \"ingest_points_per_s\": %.0f, "
                "\"read_whole_s\": %.3f, \"read_overview_s\": %.3f, \"open_s\": %.3f, \"every_point_in_memory_s\": %.3f, "
                "\"pan_redraw_ms_median\": %.2f, \"pan_redraw_ms_max\": %.2f, \"pan_decimation_ms_median\": %.2f, "
                "\"points_drawn\": %d}\n",
                runs, static_cast<long long>(points), ingest, loadSeconds, overviewSeconds, openSeconds, completeSeconds,
                median(panMs), *std::max_element(panMs.begin(), panMs.end()), median(decimateMs), drawn);
    return 0;
}
