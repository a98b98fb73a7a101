// Experiments in the GUI: the sweep dialog checks its space with planSweep and writes the space
// from its rows; a tiny real sweep started from it records an experiment whose trials appear in the
// runs list; the experiment view lists the trials with status and metric, narrows them by brushing
// an axis of the parallel coordinates, and shows population-based training's lineage.
#include "MainWindow.h"
#include "RunTableModel.h"
#include "entrena/experiment/Sweep.h"
#include "entrena/store/RunStore.h"
#include "experiment/BestSoFarChart.h"
#include "experiment/ExperimentView.h"
#include "experiment/ExperimentsPanel.h"
#include "experiment/ParallelCoordinates.h"
#include "experiment/SweepDialog.h"
#include "experiment/SweepKeys.h"
#include "form/KeyLabels.h"
#include "experiment/SweepSpaceEditor.h"
#include "panels/RunsPanel.h"
#include "settings/LanguageManager.h"

#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QtTest>
#include <algorithm>

using namespace entrena;
using namespace entrena::ui;

namespace {

RunConfig base()
{
    return RunConfig::fromJson(R"({"name": "tiny", "seed": 4,
        "data": {"path": ")" ENTRENA_FMNIST_DIR R"(", "train_limit": 1000, "test_limit": 300, "batch_size": 100, "workers": 0},
        "model": {"arch": "mlp", "hidden": [32]}, "scheduler": {"name": "constant"},
        "train": {"epochs": 2, "log_every": 5}})");
}

/// lr, batch, status, its validation accuracy per epoch.
struct Trial {
    double lr;
    int batch;
    RunStatus status;
    std::vector<double> accuracy;
};
const Trial kTrials[] = {
    {0.002, 64, RunStatus::Finished, {0.61, 0.70}},
    {0.01, 128, RunStatus::Finished, {0.72, 0.81}},
    {0.02, 64, RunStatus::Pruned, {0.55}},
    {0.08, 128, RunStatus::Finished, {0.66, 0.76}},
};

/// An experiment written straight into a store, as a sweep would leave it.
int64_t writeExperiment(RunStore& store, const std::string& method, std::vector<int64_t>* runs)
{
    ExperimentRecord e;
    e.name = "fixture-" + method;
    e.method = method;
    e.spaceJson = method == "pbt"
                      ? R"({"optimizer.lr": {"log_uniform": [0.001, 0.1]}})"
                      : R"({"optimizer.lr": {"log_uniform": [0.001, 0.1]}, "data.batch_size": {"choice": [64, 128]}})";
    e.metric = "val_accuracy";
    e.status = "finished";
    e.baseConfigJson = base().toJson();
    e.settingsJson = "{}";
    const int64_t id = store.createExperiment(e);
    int trial = 0;
    for (const Trial& t : kTrials) {
        RunConfig c = base();
        c.optimizer.lr = t.lr;
        c.data.batchSize = t.batch;
        const int64_t run = store.createRun("trial " + std::to_string(trial), c.toJson(), "{}");
        store.setTrial(run, id, trial++);
        int epoch = 0;
        for (double a : t.accuracy) {
            ++epoch;
            store.addMetric(run, "val_accuracy", epoch * 10, epoch, a);
        }
        EndEvent end;
        end.status = t.status == RunStatus::Pruned ? RunStatus::Stopped : t.status;
        end.bestValAccuracy = *std::max_element(t.accuracy.begin(), t.accuracy.end());
        store.finishRun(run, end.status, end, 0.5);
        if (t.status == RunStatus::Pruned)
            store.setRunStatus(run, RunStatus::Pruned);
        runs->push_back(run);
    }
    store.flush();
    return id;
}

std::unique_ptr<ExperimentView> openView(const QString& db, int64_t id)
{
    auto view = std::make_unique<ExperimentView>(db, id);
    view->setAttribute(Qt::WA_DeleteOnClose, false);
    view->resize(1200, 760);
    view->show();
    if (!QTest::qWaitFor([&] { return view->isLoaded(); }, 20000))
        return nullptr;
    return view;
}

QString cell(QTableView* table, int row, int column)
{
    return table->model()->index(row, column).data().toString();
}

} // namespace

class TestExperiments : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;
    LanguageManager languages_;

private Q_SLOTS:
    void sweepKeysComeFromTheRegistries()
    {
        QStringList keys;
        for (const SweepKey& k : sweepableKeys(base()))
            keys << k.key;
        for (const char* k : {"optimizer.lr", "optimizer.momentum", "optimizer.weight_decay", "data.batch_size", "model.hidden",
                              "train.epochs", "model.dropout", "train.label_smoothing", "seed"})
            QVERIFY2(keys.contains(QLatin1String(k)), k);
        QCOMPARE(keys.first(), QStringLiteral("optimizer.lr"));
        // Shown in the form's words, in the reader's language; a key the form has no words for as it is.
        QCOMPARE(keyLabel(QStringLiteral("optimizer.lr")), QStringLiteral("Learning rate"));
        QCOMPARE(keyLabel(QStringLiteral("data.fold")), QStringLiteral("Fold"));
        QCOMPARE(keyLabel(QStringLiteral("scheduler.gamma")), QStringLiteral("Multiply by"));
        QCOMPARE(keyLabel(QStringLiteral("train.snapshot_every")), QStringLiteral("train.snapshot_every"));
        // Every key the sweep dialog offers has words (a walk found 17 shown as keys).
        for (const SweepKey& k : sweepableKeys(base()))
            QVERIFY2(hasKeyLabel(k.key), qPrintable(k.key));
        languages_.apply(QStringLiteral("es"));
        QVERIFY2(keyLabel(QStringLiteral("optimizer.lr")) != QStringLiteral("Learning rate"), "no Spanish words");
        languages_.apply(QStringLiteral("en"));
        QVERIFY(!keys.contains(QStringLiteral("data.path")) && !keys.contains(QStringLiteral("data.workers")));
        RunConfig cnn = base();
        cnn.model.arch = ModelArch::Cnn;
        keys.clear();
        for (const SweepKey& k : sweepableKeys(cnn))
            keys << k.key;
        QVERIFY(keys.contains(QStringLiteral("model.channels")) && !keys.contains(QStringLiteral("model.hidden")));
    }

    void sweepDialogWritesTheSpaceFromItsRows()
    {
        SweepDialog d(base(), dir_.filePath(QStringLiteral("rows.sqlite")), QString());
        SweepSpaceEditor* space = d.space();
        QCOMPARE(space->count(), 1); // the learning rate, to start with
        space->setRange(0, Distribution::Kind::LogUniform, 1e-4, 0.3);
        space->setChoices(space->addParameter(QStringLiteral("data.batch_size")), QStringLiteral("64, 128"));
        space->setChoices(space->addParameter(QStringLiteral("model.hidden")), QStringLiteral("[256, 128], [512, 256]"));
        space->setRange(space->addParameter(QStringLiteral("train.epochs")), Distribution::Kind::IntUniform, 1, 4);
        space->setRange(space->addParameter(QStringLiteral("optimizer.momentum")), Distribution::Kind::Uniform, 0.8, 0.99);
        QCOMPARE(space->spaceJson(),
                 QStringLiteral(R"({"optimizer.lr": {"log_uniform": [0.0001, 0.3]}, "data.batch_size": {"choice": [64,128]}, )"
                                R"("model.hidden": {"choice": [[256,128],[512,256]]}, "train.epochs": {"int_uniform": [1, 4]}, )"
                                R"("optimizer.momentum": {"uniform": [0.8, 0.99]}})"));
        QVERIFY2(d.problem().isEmpty(), qPrintable(d.problem()));
        QVERIFY(d.startButton()->isEnabled());
        const SearchSpace parsed = SearchSpace::fromJson(space->spaceJson().toStdString(), base());
        QCOMPARE(int(parsed.params().size()), 5);
        // Removing a row removes its key.
        space->removeParameter(3);
        QVERIFY(!space->spaceJson().contains(QLatin1String("train.epochs")));
        // A row's defaults start around the base's value: a log range about the learning rate.
        const int lr = space->addParameter(QStringLiteral("optimizer.weight_decay"));
        QVERIFY(space->spaceJson().contains(QLatin1String(R"("optimizer.weight_decay": {"log_uniform": [)")));
        QVERIFY(lr > 0);
        // Bare names are quoted for a choice of names.
        space->setChoices(space->addParameter(QStringLiteral("train.early_stop_metric")),
                          QStringLiteral("val_loss, val_accuracy"));
        QVERIFY2(
            space->spaceJson().contains(QLatin1String(R"("train.early_stop_metric": {"choice": ["val_loss","val_accuracy"]})")),
            qPrintable(space->spaceJson()));
        QVERIFY2(d.problem().isEmpty(), qPrintable(d.problem()));
    }

    void sweepDialogRefusesABadSpaceWithPlanSweepsMessage()
    {
        SweepDialog d(base(), dir_.filePath(QStringLiteral("bad.sqlite")), QString());
        d.show();
        auto* problem = d.findChild<QLabel*>(QStringLiteral("sweepProblem"));
        QVERIFY(problem);
        QVERIFY(d.problem().isEmpty() && d.startButton()->isEnabled());
        const auto planMessage = [&]() -> QString {
            try {
                planSweep(base(), d.space()->spaceJson().toStdString(), d.settings(), 2);
            } catch (const SpaceError& e) {
                return QString::fromStdString(e.what());
            }
            return {};
        };
        // Grid search with a continuous range: planSweep's own words, under the settings.
        d.setMethod(QStringLiteral("grid"));
        QVERIFY(!d.problem().isEmpty());
        QCOMPARE(d.problem(), planMessage());
        QVERIFY(d.problem().contains(QLatin1String("grid search tries every combination")));
        QCOMPARE(problem->text(), d.problem());
        QVERIFY(problem->isVisible());
        QVERIFY(!d.startButton()->isEnabled());
        QVERIFY(!d.start());
        // Fixed by a choice: it can start.
        d.space()->setChoices(0, QStringLiteral("0.01, 0.1"));
        QVERIFY2(d.problem().isEmpty(), qPrintable(d.problem()));
        QVERIFY(d.startButton()->isEnabled() && !problem->isVisible());
        // A range the wrong way round, and a value the configuration refuses.
        d.setMethod(QStringLiteral("random"));
        const int epochs = d.space()->addParameter(QStringLiteral("train.epochs"));
        d.space()->setRange(epochs, Distribution::Kind::IntUniform, 3, 2);
        QCOMPARE(d.problem(), planMessage());
        QVERIFY(d.problem().contains(QLatin1String("low < high")));
        QVERIFY(!d.startButton()->isEnabled());
        d.space()->setRange(epochs, Distribution::Kind::IntUniform, 1, 3);
        d.space()->setChoices(0, QStringLiteral("0.01, -1"));
        QCOMPARE(d.problem(), planMessage());
        QVERIFY(d.problem().contains(QLatin1String("optimizer.lr")));
        // Rows the dialog itself cannot write: not a number, a key twice.
        d.space()->setChoices(0, QStringLiteral("0.01, 0.1"));
        d.space()->setRange(epochs, Distribution::Kind::IntUniform, 1, 3);
        QVERIFY(d.problem().isEmpty());
        d.space()->addParameter(QStringLiteral("train.epochs"));
        QVERIFY(d.problem().contains(QLatin1String("twice")));
        QVERIFY(!d.startButton()->isEnabled());
        // asha cannot search train.epochs: planSweep says so.
        d.space()->removeParameter(d.space()->count() - 1);
        d.setMethod(QStringLiteral("asha"));
        QCOMPARE(d.problem(), planMessage());
        QVERIFY(d.problem().contains(QLatin1String("remove train.epochs")));
    }

    void tinySweepFromTheDialogRecordsAnExperiment()
    {
        qputenv("ENTRENA_RANK_PROGRAM", ENTRENA_CLI);
        const QString db = dir_.filePath(QStringLiteral("sweep.sqlite"));
        MainWindow w(db, base(), languages_);
        w.show();
        SweepDialog* d = w.openSweep();
        QVERIFY(d && d->isVisible());
        d->space()->setChoices(0, QStringLiteral("0.05, 0.2"));
        d->setMethod(QStringLiteral("grid"));
        QVERIFY2(d->problem().isEmpty(), qPrintable(d->problem()));
        QSignalSpy started(d, &SweepDialog::trialStarted);
        QSignalSpy ended(d, &SweepDialog::sweepEnded);
        QVERIFY(d->start());
        QVERIFY(d->isRunning());
        // The first trial shows in the runs list as it starts, marked as a trial of the experiment.
        QTRY_VERIFY_WITH_TIMEOUT(started.count() >= 1, 120000);
        QTRY_VERIFY_WITH_TIMEOUT(w.runs()->model()->rowCount() >= 1, 10000);
        QVERIFY(w.runs()->model()->runAt(0)->experiment > 0);
        QTRY_VERIFY_WITH_TIMEOUT(ended.count() == 1, 300000);
        QVERIFY(!d->isRunning());
        QVERIFY2(d->log().contains(QLatin1String("Trial 1")), qPrintable(d->log()));

        RunStore store(db.toStdString());
        const auto experiments = store.listExperiments();
        QCOMPARE(int(experiments.size()), 1);
        QCOMPARE(qint64(experiments[0].id), d->experimentId());
        QCOMPARE(experiments[0].method, std::string("grid"));
        QCOMPARE(experiments[0].status, std::string("finished"));
        const auto trials = store.trialsOf(experiments[0].id);
        QCOMPARE(int(trials.size()), 2);
        for (const RunRecord& r : trials)
            QCOMPARE(r.status, RunStatus::Finished);
        QTRY_COMPARE(w.runs()->model()->rowCount(), 2);
        QCOMPARE(w.experimentsPanel()->count(), 1);

        // Its view, from the experiments list: both trials with a metric.
        ExperimentView* view = w.openExperiment(d->experimentId());
        QTRY_VERIFY_WITH_TIMEOUT(view->isLoaded(), 20000);
        QCOMPARE(view->trialsTable()->model()->rowCount(), 2);
        QVERIFY(!cell(view->trialsTable(), 0, 4).isEmpty());
        view->close();
    }

    // A sweep stopped in the workbench goes on from its window (Resume sweep) or from its
    // experiment's (the same), to the trials it would have had, as `sweep --resume` does.
    void aStoppedSweepResumesFromTheWorkbenchToAllItsTrials()
    {
        qputenv("ENTRENA_RANK_PROGRAM", ENTRENA_CLI);
        const QString db = dir_.filePath(QStringLiteral("resume.sqlite"));
        RunConfig slow = base(); // trials of a few seconds, so the stop lands in the middle
        slow.data.trainLimit = 6000;
        slow.data.batchSize = 32;
        slow.model.arch = ModelArch::Cnn;
        slow.model.channels = {4, 8};
        MainWindow w(db, slow, languages_);
        w.show();
        SweepDialog* d = w.openSweep();
        QVERIFY(d);
        d->space()->setChoices(0, QStringLiteral("0.02, 0.05, 0.1"));
        d->setMethod(QStringLiteral("grid"));
        QVERIFY2(d->problem().isEmpty(), qPrintable(d->problem()));
        QSignalSpy started(d, &SweepDialog::trialStarted);
        QSignalSpy ended(d, &SweepDialog::sweepEnded);
        QVERIFY(!d->resumeButton()->isVisible());
        QVERIFY(d->start());
        QTRY_VERIFY_WITH_TIMEOUT(started.count() >= 1, 120000);
        d->stop();
        QTRY_VERIFY_WITH_TIMEOUT(ended.count() == 1, 120000);
        const qint64 id = d->experimentId();
        QVERIFY(d->resumeButton()->isVisible());
        QCOMPARE(RunStore(db.toStdString()).findExperiment(std::to_string(id))->status, std::string("stopped"));

        ExperimentView* view = w.openExperiment(id);
        QTRY_VERIFY_WITH_TIMEOUT(view->isLoaded(), 20000);
        auto* resume = view->findChild<QPushButton*>(QStringLiteral("resumeExperimentButton"));
        QVERIFY(resume->isVisible());
        resume->click();
        QVERIFY(d->isRunning());
        QVERIFY(!d->resumeButton()->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(ended.count() == 2, 300000);
        RunStore store(db.toStdString());
        QCOMPARE(store.findExperiment(std::to_string(id))->status, std::string("finished"));
        const auto trials = store.trialsOf(id);
        QCOMPARE(int(trials.size()), 3);
        for (const RunRecord& r : trials)
            QCOMPARE(r.status, RunStatus::Finished);
        view->reload();
        QTRY_VERIFY(!resume->isVisible()); // finished: nothing to resume
        view->close();
    }

    void experimentViewListsTheTrials()
    {
        const QString db = dir_.filePath(QStringLiteral("view.sqlite"));
        std::vector<int64_t> runs;
        int64_t id = 0;
        {
            RunStore store(db.toStdString());
            id = writeExperiment(store, "random", &runs);
        }
        auto view = openView(db, id);
        QVERIFY(view);
        QTableView* table = view->trialsTable();
        QCOMPARE(table->model()->rowCount(), 4);
        // trial, run, status, the space's keys (as the store keeps them: by name), best metric, epochs
        QCOMPARE(table->model()->columnCount(), 7);
        // In the form's words (issue 53: raw keys, in Spanish too), the key in the tooltip.
        QCOMPARE(table->model()->headerData(3, Qt::Horizontal).toString(), QStringLiteral("Batch size"));
        QCOMPARE(table->model()->headerData(4, Qt::Horizontal).toString(), QStringLiteral("Learning rate"));
        QCOMPARE(table->model()->headerData(4, Qt::Horizontal, Qt::ToolTipRole).toString(), QStringLiteral("optimizer.lr"));
        QCOMPARE(cell(table, 2, 2), app::RunTableModel::statusText(RunStatus::Pruned));
        QCOMPARE(cell(table, 0, 2), app::RunTableModel::statusText(RunStatus::Finished));
        QCOMPARE(cell(table, 1, 3), QStringLiteral("128"));
        QCOMPARE(cell(table, 1, 4), QStringLiteral("0.01"));
        QCOMPARE(cell(table, 1, 5), QLocale().toString(81.0, 'f', 2) + QStringLiteral(" %"));
        QCOMPARE(cell(table, 2, 6), QStringLiteral("1"));
        // Sorted by the metric, best first.
        table->sortByColumn(5, Qt::DescendingOrder);
        QCOMPARE(cell(table, 0, 1), QString::number(runs[1]));
        QCOMPARE(cell(table, 3, 1), QString::number(runs[2]));
        QVERIFY(view->findChild<QLabel*>(QStringLiteral("experimentSummary"))->text().contains(QLatin1String("pruned")));
        // The best-so-far chart ends at the best trial's value.
        QCPGraph* best = view->bestChart()->bestGraph();
        QVERIFY(best->dataCount() >= 2);
        QCOMPARE((best->data()->end() - 1)->value, 81.0); // in percent
        // Compare selected: the selected trials go to the compare view.
        QSignalSpy compare(view.get(), &ExperimentView::compareRequested);
        table->selectRow(0);
        table->selectionModel()->select(table->model()->index(1, 0), QItemSelectionModel::Select | QItemSelectionModel::Rows);
        auto* button = view->findChild<QPushButton*>(QStringLiteral("compareTrialsButton"));
        QVERIFY(button->isEnabled());
        button->click();
        QCOMPARE(compare.count(), 1);
        QCOMPARE(compare.at(0).at(0).value<QList<qint64>>(), (QList<qint64>{runs[1], runs[3]}));
        // No exploits in a random search: no lineage tab.
        QVERIFY(!view->findChild<QTabWidget*>()->isTabVisible(1));
    }

    void brushingAnAxisSelectsExactlyTheTrialsInside()
    {
        const QString db = dir_.filePath(QStringLiteral("brush.sqlite"));
        std::vector<int64_t> runs;
        int64_t id = 0;
        {
            RunStore store(db.toStdString());
            id = writeExperiment(store, "random", &runs);
        }
        auto view = openView(db, id);
        QVERIFY(view);
        ParallelCoordinates* pc = view->parallelCoordinates();
        QCOMPARE(pc->axisCount(), 3);
        QCOMPARE(pc->axisTitle(0), QStringLiteral("Batch size")); // the form's words
        QCOMPARE(pc->axisTitle(1), QStringLiteral("Learning rate"));
        QCOMPARE(pc->selectedRuns().size(), 4);
        // The learning rate between 0.005 and 0.03: trials 1 and 2.
        pc->setBrushValues(1, 0.005, 0.03);
        QCOMPARE(pc->selectedRuns(), (QList<qint64>{runs[1], runs[2]}));
        QList<qint64> shown = view->shownRuns();
        std::sort(shown.begin(), shown.end());
        QCOMPARE(shown, (QList<qint64>{runs[1], runs[2]}));
        // And a batch of 128 on the other axis (the choice's last value, at the top): trial 1 alone.
        pc->setBrush(0, 0.9, 1.0);
        QCOMPARE(pc->selectedRuns(), QList<qint64>{runs[1]});
        QCOMPARE(view->shownRuns(), QList<qint64>{runs[1]});
        pc->clearBrushes();
        QCOMPARE(view->shownRuns().size(), 4);

        // By the mouse, on the metric's axis: a drag from 0.79 down to 0.72 keeps the trials whose
        // best lies inside (0.81 and 0.55 stay out).
        const int metric = pc->axisCount() - 1;
        const QPoint from = pc->pointAt(metric, *pc->metricPosition(0.79));
        const QPoint to = pc->pointAt(metric, *pc->metricPosition(0.72));
        QTest::mousePress(pc, Qt::LeftButton, Qt::NoModifier, from);
        QTest::mouseMove(pc, (from + to) / 2);
        QTest::mouseMove(pc, to);
        QTest::mouseRelease(pc, Qt::LeftButton, Qt::NoModifier, to);
        QVERIFY(pc->hasBrush());
        QCOMPARE(pc->selectedRuns(), (QList<qint64>{runs[3]}));
        QCOMPARE(view->shownRuns(), QList<qint64>{runs[3]});
        QVERIFY(view->findChild<QLabel*>(QStringLiteral("experimentSelection"))->text().contains(QLatin1String("1")));
        // A click on the axis clears its range.
        QTest::mouseClick(pc, Qt::LeftButton, Qt::NoModifier, to);
        QVERIFY(!pc->hasBrush());
        QCOMPARE(view->shownRuns().size(), 4);
    }

    void lineageListsTheExploitsOfPopulationBasedTraining()
    {
        const QString db = dir_.filePath(QStringLiteral("pbt.sqlite"));
        std::vector<int64_t> runs;
        int64_t id = 0;
        {
            RunStore store(db.toStdString());
            id = writeExperiment(store, "pbt", &runs);
            // Trial 2 took trial 1's weights at step 430, as the sweep records it.
            store.setParentRun(runs[2], runs[1]);
            store.addEvent(runs[2], 430, "exploit",
                           "took the weights and optimizer state of run " + std::to_string(runs[1]) +
                               " at step 430; optimizer.lr 0.0100000001 -> 0.012");
            store.flush();
        }
        auto view = openView(db, id);
        QVERIFY(view);
        QTreeWidget* lineage = view->lineage();
        QCOMPARE(lineage->topLevelItemCount(), 1);
        const QTreeWidgetItem* item = lineage->topLevelItem(0);
        QCOMPARE(item->text(0), QStringLiteral("430"));
        QCOMPARE(item->text(1), QStringLiteral("trial 2 (run %1)").arg(runs[2]));
        QCOMPARE(item->text(2), QStringLiteral("trial 1 (run %1)").arg(runs[1]));
        QCOMPARE(item->text(3), QStringLiteral("optimizer.lr 0.01 → 0.012"));
        QVERIFY(view->findChild<QTabWidget*>()->isTabVisible(1));
    }
};

QTEST_MAIN(TestExperiments)
#include "tst_experiments.moc"
