// The screenshot tour: drives the real widgets through the workbench's main states and writes a
// PNG of each (QWidget::grab()) at 1280x720 and 1920x1080, in a light and a dark palette, in English
// and Spanish. Look at them before calling a GUI change done. It also checks what a program can
// see in them, and exits 1 when a check fails:
//   - every visible widget lies inside its window (nothing off the edge);
//   - every chart's axes contain its data, with a visible spread;
//   - no label that holds a value is cut short, and no table or tree cell is elided.
//
//   screenshot_tour [--out DIR] [--quick]     (--quick: English, light, 1280x720 only)
//
// It trains short runs on Fashion-MNIST into a store of its own (ENTRENA_FMNIST_DIR).
#include "AppIcon.h"
#include "FashionFolder.h"
#include "MainWindow.h"
#include "OffscreenScreen.h"
#include "TrainingController.h"
#include "charts/AxisRange.h"
#include "charts/LiveCharts.h"
#include "compare/CompareView.h"
#include "dialogs/CellSamplesDialog.h"
#include "dialogs/DataPreviewDialog.h"
#include "dialogs/DevicesDialog.h"
#include "dialogs/EvaluationTab.h"
#include "dialogs/RunDetailsDialog.h"
#include "dialogs/SettingsDialog.h"
#include "dialogs/UserGuideDialog.h"
#include "dialogs/TryModelTab.h"
#include "entrena/experiment/Sweep.h"
#include "entrena/store/RunStore.h"
#include "entrena/system/Devices.h"
#include "entrena/system/Runtime.h"
#include "entrena/train/Trainer.h"
#include "experiment/CrossValidationDialog.h"
#include "experiment/ExperimentView.h"
#include "experiment/ExperimentsPanel.h"
#include "experiment/ParallelCoordinates.h"
#include "experiment/SweepDialog.h"
#include "experiment/SweepSpaceEditor.h"
#include "finders/LrFinderDialog.h"
#include "panels/QueuePanel.h"
#include "panels/RunConfigPanel.h"
#include "runs/RunQueue.h"
#include "settings/LanguageManager.h"
#include "settings/Theme.h"
#include "widgets/NoticeBanner.h"

#include <QAbstractScrollArea>
#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPainter>
#include <QPushButton>
#include <QProcess>
#include <QScreen>
#include <QScrollArea>
#include <QStyleFactory>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTextStream>
#include <QTimer>
#include <QToolButton>
#include <QTreeView>
#include <cstdio>
#include <functional>
#include <qcustomplot.h>

using namespace entrena;
using namespace entrena::ui;

namespace {

RunConfig tourRun(const char* name, int epochs, int trainLimit)
{
    return RunConfig::fromJson(std::string(R"({"name": ")") + name + R"(", "seed": 2,
        "data": {"path": ")" ENTRENA_FMNIST_DIR R"(", "train_limit": )" +
                               std::to_string(trainLimit) + R"(, "test_limit": 2000,
                 "batch_size": 128, "workers": 1},
        "model": {"arch": "mlp", "hidden": [256, 128]},
        "optimizer": {"name": "sgd", "lr": 0.05, "momentum": 0.9},
        "scheduler": {"name": "reduce_on_plateau", "patience": 1},
        "train": {"epochs": )" +
                               std::to_string(epochs) + R"(, "log_every": 10}})");
}

/// Waits, handling events, until `done` or `ms` have passed. False on time-out.
bool waitFor(const std::function<bool()>& done, int ms)
{
    QElapsedTimer clock;
    clock.start();
    while (!done()) {
        if (clock.elapsed() > ms)
            return false;
        QApplication::processEvents(QEventLoop::AllEvents, 20);
    }
    return true;
}

void settle(int ms = 150)
{
    waitFor([] { return false; }, ms);
}

/// What a program can check in a grabbed window.
class Checks {
public:
    QStringList failures; // nothing off the edge; axes that show their data; nothing cut short
    int cells = 0;        // table and tree cells measured

    void inspect(const QString& shot, QWidget* window)
    {
        const QRect frame = window->rect();
        for (QWidget* w : window->findChildren<QWidget*>()) {
            // A dialog over the window is a window of its own, inspected on its own (an overlay).
            if (w->window() != window || !w->isVisibleTo(window) || insideScrolledContent(w, window))
                continue;
            const QRect r(w->mapTo(window, QPoint(0, 0)), w->size());
            if (!frame.contains(r) && !r.isEmpty())
                failures << QStringLiteral("%1: %2 '%3' at %4,%5 %6x%7 is outside the %8x%9 window")
                                .arg(shot, QString::fromLatin1(w->metaObject()->className()), w->objectName())
                                .arg(r.x())
                                .arg(r.y())
                                .arg(r.width())
                                .arg(r.height())
                                .arg(frame.width())
                                .arg(frame.height());
            if (auto* label = qobject_cast<QLabel*>(w))
                inspectLabel(shot, label);
            if (auto* plot = qobject_cast<QCustomPlot*>(w))
                inspectPlot(shot, plot);
            if (auto* view = qobject_cast<QAbstractItemView*>(w))
                inspectCells(shot, view);
        }
    }

private:
    // A widget inside a scroll area's viewport may be scrolled out of view: that is its place.
    static bool insideScrolledContent(QWidget* w, QWidget* window)
    {
        for (QWidget* p = w->parentWidget(); p && p != window; p = p->parentWidget())
            if (auto* area = qobject_cast<QAbstractScrollArea*>(p->parentWidget()); area && area->viewport() == p)
                return true;
        return false;
    }

    void inspectLabel(const QString& shot, QLabel* label)
    {
        const QString text = label->text();
        if (text.isEmpty() || label->pixmap().isNull() == false)
            return;
        const bool holdsValue = text.contains(QRegularExpression(QStringLiteral("\\d")));
        if (!holdsValue)
            return;
        const bool cut = label->wordWrap() ? label->heightForWidth(label->width()) > label->height() + 1
                                           : label->sizeHint().width() > label->width() + 1;
        if (cut)
            failures << QStringLiteral("%1: label '%2' needs %3 px, has %4x%5")
                            .arg(shot, text.left(60))
                            .arg(label->wordWrap() ? label->heightForWidth(label->width()) : label->sizeHint().width())
                            .arg(label->width())
                            .arg(label->height());
    }

    // A cell is elided when its delegate needs more width than its column gives (the measure that
    // QHeaderView's "resize to contents" uses). Hidden columns and rows are not drawn; a combo box's
    // popup list is hidden, and a header draws its sections itself.
    void inspectCells(const QString& shot, QAbstractItemView* view)
    {
        const QAbstractItemModel* model = view->model();
        if (!model || view->viewport()->width() <= 0 || qobject_cast<QHeaderView*>(view))
            return;
        auto* table = qobject_cast<QTableView*>(view);
        auto* tree = qobject_cast<QTreeView*>(view);
        const int rows = std::min(model->rowCount(), 300);
        for (int row = 0; row < rows; ++row) {
            if ((table && table->isRowHidden(row)) || (tree && tree->isRowHidden(row, QModelIndex())))
                continue;
            for (int column = 0; column < model->columnCount(); ++column) {
                if ((table && table->isColumnHidden(column)) || (tree && tree->isColumnHidden(column)))
                    continue;
                const QModelIndex index = model->index(row, column);
                const QString text = index.data(Qt::DisplayRole).toString();
                if (text.isEmpty())
                    continue;
                QStyleOptionViewItem option;
                option.initFrom(view);
                option.font = view->font();
                option.fontMetrics = view->fontMetrics();
                option.widget = view;
                option.rect = view->visualRect(index);
                QAbstractItemDelegate* delegate = view->itemDelegateForIndex(index);
                if (!delegate)
                    continue;
                const int needed = delegate->sizeHint(option, index).width();
                ++cells;
                if (needed > option.rect.width() + 1)
                    failures << QStringLiteral("%1: %2 '%3' cell (%4, %5) '%6' needs %7 px, has %8")
                                    .arg(shot, QString::fromLatin1(view->metaObject()->className()), view->objectName())
                                    .arg(row)
                                    .arg(column)
                                    .arg(text.left(60))
                                    .arg(needed)
                                    .arg(option.rect.width());
            }
        }
    }

    // Per axis, all the data drawn against it: inside the range, and filling a visible part of it
    // (or, flat, on a range no wider than a quarter of its size). A series marked "clippedAbove"
    // (the LR finder's exploding tail) is checked from below only.
    void inspectPlot(const QString& shot, QCustomPlot* plot)
    {
        for (QCPAxis* axis : plot->axisRect()->axes()) {
            bool any = false, clippedAbove = false;
            const QCPRange data = dataRange(plot, axis, any);
            if (!any)
                continue;
            for (int i = 0; i < plot->plottableCount(); ++i) {
                const QCPAbstractPlottable* p = plot->plottable(i);
                clippedAbove = clippedAbove || (p->visible() && p->valueAxis() == axis && p->property("clippedAbove").toBool());
            }
            const QCPRange shown = axis->range();
            const double tolerance = 1e-9 * std::max(1.0, std::abs(shown.upper));
            const bool contains =
                shown.lower <= data.lower + tolerance && (clippedAbove || shown.upper >= data.upper - tolerance);
            const double magnitude = std::max(std::abs(data.lower), std::abs(data.upper));
            const bool spread = clippedAbove || data.size() >= shown.size() / 20 || shown.size() <= 0.25 * magnitude + 2;
            if (!contains || !spread)
                failures << QStringLiteral("%1: %2's %3 axis shows [%4, %5] for data in [%6, %7]")
                                .arg(shot, plot->objectName(), axis->label().isEmpty() ? QStringLiteral("value") : axis->label())
                                .arg(shown.lower)
                                .arg(shown.upper)
                                .arg(data.lower)
                                .arg(data.upper);
        }
    }
};

class Tour {
public:
    Tour(const QString& out, LanguageManager& languages)
        : out_(out)
        , languages_(languages)
        , devices_(probeDevices(false))
    {
        QDir().mkpath(out_);
    }

    Checks checks;
    int shots = 0;

    void shoot(const QString& name, QWidget* window, QWidget* overlay = nullptr)
    {
        settle();
        // Steps that arrived since the last coalesced redraw: fit them now, so the picture and the
        // checks see the axes as they are a moment later.
        for (LiveCharts* charts : window->findChildren<LiveCharts*>())
            charts->replotNow();
        QImage image = window->grab().toImage();
        if (overlay) { // a message box over its window, as the user sees it
            const QImage box = overlay->grab().toImage();
            QPainter painter(&image);
            painter.drawImage((image.width() - box.width()) / 2, (image.height() - box.height()) / 2, box);
        }
        const QString shot = prefix_ + name;
        image.save(out_ + QLatin1Char('/') + shot + QStringLiteral(".png"));
        // A window wider or taller than the screen it is on hides its edges: a failure, whatever is inside.
        // (The tour gives windows the whole screen, as maximised; the offscreen frame is not counted.)
        const QScreen* screen = window->screen();
        if (screen && !QRect(QPoint(), screen->availableGeometry().size()).contains(QRect(QPoint(), window->size())))
            checks.failures << QStringLiteral("%1: the window is %2×%3 on a %4×%5 screen")
                                   .arg(shot)
                                   .arg(window->width())
                                   .arg(window->height())
                                   .arg(screen->availableGeometry().width())
                                   .arg(screen->availableGeometry().height());
        checks.inspect(shot, window);
        if (overlay)
            checks.inspect(shot + QStringLiteral(" (message)"), overlay);
        ++shots;
    }

    void run(const QString& language, bool dark, const QSize& size, const QString& dir)
    {
        languages_.apply(language);
        applyTheme(dark ? QStringLiteral("dark") : QStringLiteral("light")); // as Settings → Appearance does
        prefix_ = QStringLiteral("%1-%2-%3x%4-")
                      .arg(language, dark ? QStringLiteral("dark") : QStringLiteral("light"))
                      .arg(size.width())
                      .arg(size.height());
        const QString db = dir + QStringLiteral("/tour.sqlite");

        {
            MainWindow first(dir + QStringLiteral("/first-") + prefix_ + QStringLiteral(".sqlite"),
                             tourRun("fmnist-mlp", 3, 20000), languages_);
            show(first, size);
            shoot(QStringLiteral("01-first-start"), &first);
            // The keyboard's focus on Start, as Tab brings it there: a ring a person can see (issue 53).
            if (auto* start = first.findChild<QPushButton*>(QStringLiteral("startButton"))) {
                start->setFocus(Qt::TabFocusReason);
                shoot(QStringLiteral("01-focus-on-start"), &first);
            }
            // Your own images: the image folder's rows, and the summary sized for their 3×32×32.
            RunConfig own = tourRun("shapes-cnn", 3, 0);
            own.data.dataset = DatasetKind::ImageFolder;
            own.data.path = (dir + QStringLiteral("/shapes")).toStdString();
            own.data.imageSize = {32, 32};
            own.model.arch = ModelArch::Cnn;
            first.configPanel()->setConfig(own);
            const QString reading = first.configPanel()->summaryText();
            waitFor([&] { return first.configPanel()->summaryText() != reading; }, 30000);
            shoot(QStringLiteral("01-image-folder-form"), &first);
            // An optimizer's own rows: Adam has no momentum row, and one-cycle cycles its beta1.
            RunConfig adam = tourRun("fmnist-adam", 3, 20000);
            adam.optimizer.kind = OptimizerKind::Adam;
            adam.optimizer.lr = 0.001;
            adam.scheduler.kind = SchedulerKind::OneCycle;
            first.configPanel()->setConfig(adam);
            if (auto* scroll = first.findChild<QScrollArea*>())
                if (auto* lr = first.findChild<QWidget*>(QStringLiteral("learningRateBox")))
                    scroll->ensureWidgetVisible(lr, 50, 250);
            settle(200);
            shoot(QStringLiteral("01-form-adam"), &first);
        }
        MainWindow w(db, tourRun("fmnist-mlp", 3, 20000), languages_);
        show(w, size);
        w.startTraining();
        waitFor([&] { return w.charts()->validationPoints() >= 1 && w.charts()->trainLossPoints() >= 12; }, 120000);
        shoot(QStringLiteral("02-training"), &w);
        waitFor([&] { return !w.controller()->isRunning(); }, 240000);
        settle(400);
        shoot(QStringLiteral("03-finished"), &w);

        // A warning while training, as the banner above the charts shows it (the engine's message).
        Q_EMIT w.controller()->notice(NoticeEvent{
            "not_learning", 140, 1,
            "the model is not learning: after an epoch the training loss is 2.3 (guessing among 10 classes scores ln 10 = "
            "2.3) and validation accuracy 10.0% (chance: 10.0%). Try a lower learning rate (Find LR…, or entrena-cli "
            "lr-find), and check that the labels match the inputs"});
        shoot(QStringLiteral("03-finished-warning"), &w);
        w.noticeBanner()->clear();

        // The batch-size finder's answer, on a small training set so that it ends quickly.
        RunConfig small = tourRun("fmnist-mlp", 1, 4096);
        w.configPanel()->setConfig(small);
        w.findBatchSize();
        QMessageBox* answer = nullptr;
        waitFor([&] { return (answer = w.findChild<QMessageBox*>(QStringLiteral("batchSizeAnswer"))) != nullptr; }, 120000);
        shoot(QStringLiteral("04-batch-size-answer"), &w, answer);
        if (answer)
            answer->close();

        // An error, as shown: a configuration the engine refuses.
        RunConfig bad = small;
        bad.data.valFraction = 0.95;
        w.configPanel()->setConfig(bad);
        w.startTraining();
        settle();
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        if (!box)
            box = w.findChild<QMessageBox*>();
        shoot(QStringLiteral("05-error"), &w, box);
        if (box)
            box->close();
        // Short runs (three epochs of 11 steps, fewer than log_every): every live chart has its points.
        for (const double lr : {0.05, 0.2}) {
            RunConfig brief = tourRun(lr < 0.1 ? "fmnist-short" : "fmnist-short-fast", 3, 1500);
            brief.train.logEvery = 50;
            brief.optimizer.lr = lr;
            w.configPanel()->setConfig(brief);
            w.startTraining();
            waitFor([&] { return !w.controller()->isRunning(); }, 120000);
        }
        settle(400);
        shoot(QStringLiteral("05-short-run"), &w);
        w.configPanel()->setConfig(tourRun("fmnist-mlp", 3, 20000));

        // The store's disk use in the status bar, and what freeing it asks (nothing is deleted here).
        if (auto* freeSpace = w.findChild<QToolButton*>(QStringLiteral("freeSpaceButton"))) {
            RunStore archive(db.toStdString()); // an archived run, so that there is something to offer
            const auto brief = archive.findRun("fmnist-short");
            if (brief)
                archive.setArchived(brief->id, true);
            QTimer::singleShot(300, &w, [&] {
                auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
                shoot(QStringLiteral("05-free-space"), &w, box);
                if (box)
                    box->reject();
            });
            freeSpace->click();
            if (brief)
                archive.setArchived(brief->id, false);
        }

        RunStore store(db.toStdString());
        const auto runs = store.listRuns({});
        if (runs.size() >= 3) {
            CompareView compare(QString::fromStdString(store.path()), {runs[0].id, runs[1].id, runs[2].id});
            compare.resize(size);
            compare.show();
            waitFor([&] { return compare.isLoaded(); }, 60000);
            shoot(QStringLiteral("06-compare"), &compare);
            if (auto* tabs = compare.findChild<QTabWidget*>()) {
                tabs->setCurrentIndex(2);
                shoot(QStringLiteral("06-compare-per-class"), &compare);
            }

            RunDetailsDialog details(store, runs[0].id); // sized to the screen it opens on
            details.show();
            if (auto* tabs = details.findChild<QTabWidget*>()) {
                for (int i = 0; i < tabs->count(); ++i) {
                    tabs->setCurrentIndex(i);
                    shoot(QStringLiteral("07-details-%1").arg(i + 1), &details);
                }
            }
            // Try it: a Fashion-MNIST picture as a user's PNG, its classes and the model's view of it.
            details.showTryIt();
            TryModelTab* tryIt = details.tryIt();
            waitFor([&] { return tryIt->isReady(); }, 60000);
            const QString pictures = out_ + QStringLiteral("/.try-images");
            if (fixtures::writeClothes(pictures, QStringLiteral("t10k"), 2)) {
                bool answered = false;
                const auto connection = QObject::connect(tryIt, &TryModelTab::answered, [&] { answered = true; });
                tryIt->tryFiles({pictures});
                waitFor([&] { return answered; }, 60000);
                QObject::disconnect(connection);
                shoot(QStringLiteral("07-try-it"), &details);
            }
            QDir(pictures).removeRecursively();

            // A confusion-matrix cell clicked: every sample of the pair the model confuses most.
            auto* detailTabs = details.findChild<QTabWidget*>();
            const EvaluationReport report = evaluationFromJson(store.findRun(std::to_string(runs[0].id))->evaluationJson);
            if (detailTabs && !report.empty()) {
                detailTabs->setCurrentWidget(details.evaluation());
                int t = 0, p = 1;
                for (int i = 0; i < int(report.classes.size()); ++i)
                    for (int j = 0; j < int(report.classes.size()); ++j)
                        if (i != j && report.confusion[size_t(i)][size_t(j)] > report.confusion[size_t(t)][size_t(p)])
                            t = i, p = j;
                CellSamplesDialog* cell = details.openCell(t, p);
                bool shown = false;
                QObject::connect(cell, &CellSamplesDialog::loaded, [&] { shown = true; });
                waitFor([&] { return shown; }, 120000);
                shoot(QStringLiteral("07-cell-samples"), &details, cell);
                cell->close();
            }
            // The best weights exported to ONNX from the Checkpoints tab, with what was written.
            if (detailTabs) {
                detailTabs->setCurrentIndex(detailTabs->count() - 1);
                const QString exports = out_ + QStringLiteral("/.export");
                QDir().mkpath(exports);
                bool exported = false;
                const auto connection =
                    QObject::connect(&details, &RunDetailsDialog::exportFinished, [&](bool, const QString&) { exported = true; });
                details.exportCheckpoint(QStringLiteral("best"), exports + QStringLiteral("/fashion-mlp.onnx"));
                waitFor([&] { return exported; }, 120000);
                QObject::disconnect(connection);
                shoot(QStringLiteral("07-export-onnx"), &details);
                QDir(exports).removeRecursively();
            }
        }

        {
            // Twenty classes with long names: the heatmap must stay readable at the most the tab is for.
            EvaluationTab many(twentyClasses());
            many.resize(std::min(size.width(), 1100) - 40, std::min(size.height(), 760) - 120);
            many.show();
            shoot(QStringLiteral("07-evaluation-20-classes"), &many);
        }

        LrFinderDialog finder(tourRun("fmnist-mlp", 1, 8000));
        finder.show();
        finder.start();
        waitFor([&] { return finder.isFinished(); }, 120000);
        shoot(QStringLiteral("08-lr-finder"), &finder);

        SettingsDialog settings(languages_);
        settings.show();
        shoot(QStringLiteral("09-settings"), &settings);

        UserGuideDialog guide; // Help → User guide, offline
        guide.show();
        shoot(QStringLiteral("09-user-guide"), &guide);

        DevicesDialog about(devices_);
        about.show();
        shoot(QStringLiteral("10-about"), &about);

        // The data before training: Fashion-MNIST, and a folder of unbalanced colour classes.
        DataSpec fashion = tourRun("fmnist-mlp", 1, 2000).data;
        DataPreviewDialog preview(fashion);
        preview.show();
        waitFor([&] { return preview.isReady(); }, 60000);
        shoot(QStringLiteral("11-data-preview"), &preview);
        DataSpec folder;
        folder.dataset = DatasetKind::ImageFolder;
        folder.path = (dir + QStringLiteral("/shapes")).toStdString();
        DataPreviewDialog unbalanced(folder);
        unbalanced.show();
        waitFor([&] { return unbalanced.isReady(); }, 60000);
        shoot(QStringLiteral("12-data-preview-unbalanced"), &unbalanced);

        queueAndExperiments(w, size, dir);
    }

    /// The run queue while a run trains, the sweep dialog (a problem, ready, after a real two-trial
    /// sweep), the experiments list and the experiment views of the seeded sweeps.
    void queueAndExperiments(MainWindow& w, const QSize& size, const QString& dir)
    {
        w.configPanel()->setConfig(tourRun("fmnist-mlp", 30, 20000));
        w.startTraining();
        waitFor([&] { return w.charts()->trainLossPoints() >= 3; }, 60000);
        RunConfig wide = tourRun("fmnist-mlp-wide", 3, 20000);
        wide.model.hidden = {512, 256};
        w.configPanel()->setConfig(wide);
        w.startTraining(); // queued
        RunConfig adam = tourRun("fmnist-adam-long", 8, 20000);
        adam.optimizer.kind = OptimizerKind::Adam;
        adam.optimizer.lr = 0.001;
        w.configPanel()->setConfig(adam);
        w.startTraining();
        w.lowerTabs()->setCurrentWidget(w.queuePanel());
        w.queuePanel()->setCurrentIndex(1);
        shoot(QStringLiteral("13-queue-while-training"), &w);
        while (!w.queue()->isEmpty()) // nothing left to start after this run, in this store
            w.queue()->remove(0);
        w.controller()->stop();
        waitFor([&] { return !w.controller()->isRunning(); }, 60000);
        w.lowerTabs()->setCurrentIndex(0);
        w.configPanel()->setConfig(tourRun("fmnist-mlp", 3, 20000));

        {
            SweepDialog sweep(tourRun("fmnist-mlp", 2, 1000),
                              dir + QStringLiteral("/sweep-") + prefix_ + QStringLiteral(".sqlite"), QStringLiteral(ENTRENA_CLI));
            sweep.resize(std::min(size.width() - 40, 1180), std::min(size.height() - 60, 640));
            sweep.show();
            SweepSpaceEditor* space = sweep.space();
            space->setRange(0, Distribution::Kind::LogUniform, 0.005, 0.3);
            space->setChoices(space->addParameter(QStringLiteral("data.batch_size")), QStringLiteral("64, 128, 256"));
            space->setChoices(space->addParameter(QStringLiteral("model.hidden")), QStringLiteral("[128], [256, 128]"));
            space->addParameter(QStringLiteral("optimizer.momentum"));
            sweep.setMethod(QStringLiteral("grid"));
            shoot(QStringLiteral("14-sweep-dialog-problem"), &sweep);
            sweep.setMethod(QStringLiteral("random"));
            sweep.setTrials(2);
            shoot(QStringLiteral("14-sweep-dialog"), &sweep);
            if (sweep.start())
                waitFor([&] { return !sweep.isRunning(); }, 180000);
            shoot(QStringLiteral("14-sweep-finished"), &sweep);
            // Stopped once its first trial runs: Resume sweep, here and in the experiment's window.
            bool trialStarted = false;
            QObject::connect(&sweep, &SweepDialog::trialStarted, &sweep, [&] { trialStarted = true; });
            sweep.setTrials(6);
            if (sweep.start()) {
                waitFor([&] { return trialStarted; }, 120000);
                sweep.stop();
                waitFor([&] { return !sweep.isRunning(); }, 120000);
            }
            shoot(QStringLiteral("14-sweep-stopped"), &sweep);
            ExperimentView stopped(dir + QStringLiteral("/sweep-") + prefix_ + QStringLiteral(".sqlite"), sweep.experimentId());
            stopped.setAttribute(Qt::WA_DeleteOnClose, false);
            stopped.resize(size);
            stopped.show();
            waitFor([&] { return stopped.isLoaded(); }, 60000);
            shoot(QStringLiteral("16-experiment-stopped"), &stopped);
        }

        crossValidation(size, dir);

        const QString db = dir + QStringLiteral("/experiments.sqlite");
        MainWindow ex(db, tourRun("fmnist-mlp", 2, 1000), languages_);
        show(ex, size);
        ex.lowerTabs()->setCurrentWidget(ex.experimentsPanel());
        shoot(QStringLiteral("15-experiments"), &ex);
        RunStore store(db.toStdString());
        for (const ExperimentRecord& e : store.listExperiments()) {
            ExperimentView view(db, e.id);
            view.setAttribute(Qt::WA_DeleteOnClose, false);
            view.resize(size);
            view.show();
            waitFor([&] { return view.isLoaded(); }, 60000);
            if (e.method == "pbt") {
                view.findChild<QTabWidget*>()->setCurrentIndex(1);
                shoot(QStringLiteral("16-experiment-pbt-lineage"), &view);
                continue;
            }
            shoot(QStringLiteral("16-experiment"), &view);
            // A range brushed on the learning rate's axis: the trials outside fade, the table follows.
            ParallelCoordinates* pc = view.parallelCoordinates();
            for (int axis = 0; axis < pc->axisCount(); ++axis)
                if (pc->axisTitle(axis) == QLatin1String("optimizer.lr"))
                    pc->setBrush(axis, 0.35, 1.0);
            view.trialsTable()->selectRow(0);
            shoot(QStringLiteral("16-experiment-brushed"), &view);
        }
    }

    /// Run → Cross-validate…: the dialog, after a real 3-fold cross-validation, and its experiment.
    void crossValidation(const QSize& size, const QString& dir)
    {
        const QString db = dir + QStringLiteral("/cv-") + prefix_ + QStringLiteral(".sqlite");
        CrossValidationDialog cv(tourRun("fmnist-mlp", 2, 1500), db, QStringLiteral(ENTRENA_CLI));
        cv.resize(std::min(size.width() - 40, 760), std::min(size.height() - 60, 600));
        cv.show();
        cv.foldsBox()->setValue(3);
        cv.parallelBox()->setValue(2);
        shoot(QStringLiteral("17-cross-validate"), &cv);
        if (cv.start())
            waitFor([&] { return !cv.isRunning(); }, 180000);
        shoot(QStringLiteral("17-cross-validation-finished"), &cv);
        ExperimentView view(db, cv.experimentId());
        view.setAttribute(Qt::WA_DeleteOnClose, false);
        view.resize(size);
        view.show();
        waitFor([&] { return view.isLoaded(); }, 60000);
        shoot(QStringLiteral("17-cross-validation-experiment"), &view);
    }

    /// A folder of colour shapes, one class folder each, far apart in size (the preview's warning).
    static void shapes(const QString& root)
    {
        const struct {
            const char* name;
            int count;
        } classes[] = {{"circles", 40}, {"squares", 24}, {"triangles", 6}};
        for (const auto& c : classes) {
            QDir(root).mkpath(QString::fromLatin1(c.name));
            for (int i = 0; i < c.count; ++i) {
                QImage image(32, 32, QImage::Format_RGB32);
                image.fill(QColor::fromHsv((i * 47) % 360, 60, 235));
                QPainter p(&image);
                p.setRenderHint(QPainter::Antialiasing);
                p.setBrush(QColor::fromHsv((i * 47 + 180) % 360, 220, 200));
                p.setPen(Qt::NoPen);
                const int r = 8 + i % 6;
                if (c.name[0] == 'c')
                    p.drawEllipse(QPoint(16, 16), r, r);
                else if (c.name[0] == 's')
                    p.drawRect(16 - r, 16 - r, 2 * r, 2 * r);
                else
                    p.drawPolygon(QPolygon({QPoint(16, 16 - r), QPoint(16 + r, 16 + r), QPoint(16 - r, 16 + r)}));
                p.end();
                image.save(QStringLiteral("%1/%2/%3.png").arg(root, QString::fromLatin1(c.name)).arg(i));
            }
        }
    }

    /// A stored-like evaluation of twenty classes, some with long names.
    static EvaluationReport twentyClasses()
    {
        EvaluationReport e;
        e.split = "test";
        e.classes = {"apple", "aquarium fish", "baby",   "bear",        "beaver",
                     "bed",   "bee",           "beetle", "bicycle",     "bottle",
                     "bowl",  "boy",           "bridge", "bus",         "butterfly",
                     "camel", "can",           "castle", "caterpillar", "a class with a rather long name"};
        for (std::size_t t = 0; t < e.classes.size(); ++t) {
            std::vector<int64_t> row;
            int64_t total = 0, right = 0;
            for (std::size_t p = 0; p < e.classes.size(); ++p) {
                const int64_t v = t == p ? 700 + int64_t(t * 37 % 300) : int64_t((t * 7 + p * 13) % 11 == 0 ? 40 : (t + p) % 4);
                row.push_back(v);
                total += v;
                right += t == p ? v : 0;
            }
            e.confusion.push_back(row);
            e.perClass.push_back({e.classes[t], 0.9, double(right) / double(total), total});
        }
        return e;
    }

    /// Two sweeps on Fashion-MNIST (random search; population-based training, for its lineage) in
    /// a store of their own, so the other views keep the runs they always showed.
    static void seedExperiments(const QString& db)
    {
        RunStore store(db.toStdString());
        StopToken stop;
        SweepObserver quiet;
        const SweepLaunch launch{ENTRENA_CLI, QFileInfo(db).absoluteFilePath().toStdString(), physicalCoreCount(), {}};
        SweepSettings random;
        random.method = "random";
        random.trials = 6;
        random.name = "fmnist-mlp-random";
        runSweep(store,
                 planSweep(tourRun("fmnist-mlp", 2, 1000),
                           R"({"optimizer.lr": {"log_uniform": [0.003, 0.3]}, "data.batch_size": {"choice": [64, 128, 256]},
                               "model.hidden": {"choice": [[128], [256, 128]]}, "optimizer.momentum": {"uniform": [0.5, 0.95]}})",
                           random, physicalCoreCount()),
                 quiet, stop, launch);
        SweepSettings pbt;
        pbt.method = "pbt";
        pbt.trials = 4;
        pbt.name = "fmnist-mlp-pbt";
        runSweep(store,
                 planSweep(tourRun("fmnist-mlp", 3, 1000),
                           R"({"optimizer.lr": {"log_uniform": [0.001, 0.3]}, "optimizer.momentum": {"uniform": [0.5, 0.95]}})",
                           pbt, physicalCoreCount()),
                 quiet, stop, launch);
    }

    /// The first run of the store, trained here so the compare view has two runs from the start.
    static void seed(const QString& db)
    {
        RunStore store(db.toStdString());
        StopToken stop;
        TrainingObserver quiet;
        RunConfig adam = tourRun("fmnist-adam", 3, 20000);
        adam.optimizer.kind = OptimizerKind::Adam;
        adam.optimizer.lr = 0.001;
        Trainer(adam).run(quiet, stop, &store, true);
    }

private:
    static void show(QWidget& w, const QSize& size)
    {
        w.resize(size);
        w.show();
        settle(300);
    }

    QString out_;
    QString prefix_;
    LanguageManager& languages_;
    DeviceReport devices_; // probed once (without timing a matrix multiply)
};

} // namespace

namespace {

/// Runs this program again for one screen size, on an offscreen screen of that size: the dialogs
/// size themselves to the screen they open on (the offscreen platform's own is 800×800).
int runForScreen(const QString& out, const QString& work, const QSize& size, bool quick)
{
    const QString platform =
        offscreenPlatformWithScreen(work + QStringLiteral("/screen-%1x%2.json").arg(size.width()).arg(size.height()), size);
    if (platform.isEmpty())
        return 1;
    QProcess child;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), platform);
    child.setProcessEnvironment(env);
    child.setProcessChannelMode(QProcess::ForwardedChannels);
    QStringList args = {QStringLiteral("--out"),  out,
                        QStringLiteral("--work"), work,
                        QStringLiteral("--size"), QStringLiteral("%1x%2").arg(size.width()).arg(size.height())};
    if (quick)
        args << QStringLiteral("--quick");
    child.start(QCoreApplication::applicationFilePath(), args);
    if (!child.waitForFinished(-1) || child.exitStatus() != QProcess::NormalExit)
        return 1;
    return child.exitCode();
}

QString argumentAfter(const QStringList& args, const QString& name, const QString& fallback = {})
{
    const qsizetype at = args.indexOf(name);
    return at > 0 && at + 1 < args.size() ? args.at(at + 1) : fallback;
}

} // namespace

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("EntrenaTour"));
    QApplication::setApplicationName(QStringLiteral("EntrenaTour"));
    QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion"))); // the same look in every palette
    QApplication::setWindowIcon(applicationIcon());
    const QStringList args = QApplication::arguments();
    const QString out = QDir(argumentAfter(args, QStringLiteral("--out"), QStringLiteral("screenshots"))).absolutePath();
    const bool quick = args.contains(QStringLiteral("--quick"));
    const QString sizeText = argumentAfter(args, QStringLiteral("--size"));

    if (sizeText.isEmpty()) {
        // The stores and images every size shares, then one process per screen size.
        QTemporaryDir dir;
        Tour::seed(dir.filePath(QStringLiteral("tour.sqlite")));
        Tour::seedExperiments(dir.filePath(QStringLiteral("experiments.sqlite")));
        Tour::shapes(dir.filePath(QStringLiteral("shapes")));
        const QList<QSize> sizes = quick ? QList<QSize>{QSize(1280, 720)} : QList<QSize>{QSize(1280, 720), QSize(1920, 1080)};
        int status = 0;
        for (const QSize& size : sizes)
            status = std::max(status, runForScreen(out, dir.path(), size, quick));
        return status;
    }

    const QString work = argumentAfter(args, QStringLiteral("--work"));
    const QStringList wh = sizeText.split(QLatin1Char('x'));
    const QSize size(wh.value(0).toInt(), wh.value(1).toInt());
    if (work.isEmpty() || size.isEmpty())
        return 2;
    qputenv("XDG_CACHE_HOME", (work + QStringLiteral("/cache")).toUtf8());
    LanguageManager languages;
    Tour tour(out, languages);
    const QStringList languageList =
        quick ? QStringList{QStringLiteral("en")} : QStringList{QStringLiteral("en"), QStringLiteral("es")};
    const QList<bool> themes = quick ? QList<bool>{false} : QList<bool>{false, true};
    for (const QString& language : languageList)
        for (bool dark : themes)
            tour.run(language, dark, size, work);

    QTextStream err(stderr);
    for (const QString& f : tour.checks.failures)
        err << "FAIL: " << f << "\n";
    err << tour.shots << " screenshots at " << sizeText << " in " << out << "; " << tour.checks.failures.size()
        << " failed checks (" << tour.checks.cells << " table cells measured)\n";
    return tour.checks.failures.isEmpty() && tour.shots > 0 ? 0 : 1;
}
