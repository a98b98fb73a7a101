// How long the GUI thread goes without running its event loop while a run trains in the
// worker thread, the live charts replot, and the runs list refreshes every 250 ms (8× what the
// browser does by itself). A 5 ms timer on the GUI thread records the gap between its ticks;
// a gap far above 5 ms is time the GUI could not answer the user. Prints one JSON object.
//
//   QT_QPA_PLATFORM=offscreen build/test/bench/gui_latency [--db FILE] [--config FILE]
//       [--fmnist /usr/share/datasets/fashion-mnist] [--history 200]
#include "MainWindow.h"
#include "RunTableModel.h"
#include "TrainingController.h"
#include "charts/LiveCharts.h"
#include "entrena/store/RunStore.h"
#include "panels/RunsPanel.h"
#include "settings/LanguageManager.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <vector>

using namespace entrena;
using namespace entrena::ui;

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QString db = QStringLiteral("/tmp/entrena-gui-latency.sqlite");
    QString fmnist = QStringLiteral("/usr/share/datasets/fashion-mnist");
    int history = 200; // finished runs already in the store, as a browser of a long project shows
    const QStringList args = app.arguments();
    for (int i = 1; i + 1 < args.size(); i += 2) {
        if (args[i] == QLatin1String("--db"))
            db = args[i + 1];
        else if (args[i] == QLatin1String("--fmnist"))
            fmnist = args[i + 1];
        else if (args[i] == QLatin1String("--history"))
            history = args[i + 1].toInt();
    }
    for (const char* suffix : {"", "-wal", "-shm"})
        QFile::remove(db + QLatin1String(suffix));
    {
        RunStore store(db.toStdString());
        for (int i = 0; i < history; ++i) {
            const int64_t id = store.createRun("old run " + std::to_string(i), R"({"optimizer": {"lr": 0.1}})", "{}");
            store.setTags(id, {"history"});
            EndEvent end;
            end.bestValAccuracy = 0.8;
            end.seconds = 100;
            store.finishRun(id, RunStatus::Finished, end, 0.4);
        }
    }
    // The default MLP on all 60,000 training images for 3 epochs, logging every 10 steps.
    const RunConfig config = RunConfig::fromJson((R"({"name": "latency", "seed": 1, "data": {"path": ")" + fmnist.toStdString() +
                                                  R"(", "batch_size": 128}, "model": {"arch": "mlp", "hidden": [256, 128]},
            "optimizer": {"name": "sgd", "lr": 0.05, "momentum": 0.9}, "train": {"epochs": 3, "log_every": 10}})"));

    LanguageManager languages;
    MainWindow window(db, config, languages);
    window.resize(1280, 820);
    window.show();

    std::vector<double> gaps;
    QElapsedTimer clock;
    QTimer tick;
    tick.setInterval(5);
    QObject::connect(&tick, &QTimer::timeout, [&] {
        gaps.push_back(double(clock.nsecsElapsed()) / 1e6);
        clock.restart();
    });
    QTimer refresh;
    refresh.setInterval(250);
    std::vector<double> refreshMs;
    QObject::connect(&refresh, &QTimer::timeout, [&] {
        QElapsedTimer t;
        t.start();
        window.runs()->refresh();
        refreshMs.push_back(double(t.nsecsElapsed()) / 1e6);
    });
    QObject::connect(window.controller(), &app::TrainingController::idle, &app, &QApplication::quit);
    QTimer::singleShot(0, [&] {
        if (!window.startTraining()) {
            std::fprintf(stderr, "the run did not start\n");
            app.exit(1);
        }
        clock.start();
        tick.start();
        refresh.start();
    });
    QElapsedTimer total;
    total.start();
    const int rc = app.exec();
    if (rc != 0 || gaps.size() < 10)
        return rc ? rc : 1;
    std::vector<double> sorted = gaps;
    std::sort(sorted.begin(), sorted.end());
    const auto over = std::count_if(gaps.begin(), gaps.end(), [](double g) { return g > 50.0; });
    std::printf("{\"seconds\": %.1f, \"ticks\": %zu, \"gap_ms_median\": %.1f, \"gap_ms_p99\": %.1f, \"gap_ms_max\": %.1f, "
                "\"gaps_over_50ms\": %ld, \"refresh_ms_max\": %.1f, \"chart_points\": %d, \"runs_listed\": %d}\n",
                double(total.nsecsElapsed()) / 1e9, gaps.size(), sorted[sorted.size() / 2], sorted[sorted.size() * 99 / 100],
                sorted.back(), long(over), *std::max_element(refreshMs.begin(), refreshMs.end()),
                window.charts()->trainLossPoints(), window.runs()->model()->rowCount());
    return 0;
}
