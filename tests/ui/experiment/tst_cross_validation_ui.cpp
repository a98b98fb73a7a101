// Issue 31 in the workbench: Run → Cross-validate… trains every fold as a run of one experiment and
// shows each figure's mean ± sd (the dialog, and the experiment's view); too many folds for a class
// is said before anything is stored; the data preview's imbalance warning balances the classes in
// one click; the compare view says how far apart validation accuracies on few samples must be.
#include "MainWindow.h"
#include "RunTableModel.h"
#include "compare/CompareView.h"
#include "dialogs/DataPreviewDialog.h"
#include "entrena/store/RunStore.h"
#include "experiment/CrossValidationDialog.h"
#include "experiment/BestSoFarChart.h"
#include "experiment/FoldChart.h"
#include "experiment/ExperimentView.h"
#include "experiment/SweepDialog.h"
#include "experiment/SweepSpaceEditor.h"
#include "panels/RunConfigPanel.h"
#include "panels/RunsPanel.h"
#include "settings/LanguageManager.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <map>
#include <set>

using namespace entrena;
using namespace entrena::ui;

namespace {

RunConfig base(int trainLimit = 600)
{
    return RunConfig::fromJson(R"({"name": "tiny", "seed": 4,
        "data": {"path": ")" ENTRENA_FMNIST_DIR R"(", "train_limit": )" + std::to_string(trainLimit) +
                               R"(, "test_limit": 200, "batch_size": 50, "workers": 0},
        "model": {"arch": "mlp", "hidden": [32]}, "optimizer": {"name": "adam", "lr": 0.003},
        "scheduler": {"name": "constant"}, "train": {"epochs": 1, "log_every": 5}})");
}

} // namespace

class TestCrossValidationUi : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    LanguageManager languages_;

private Q_SLOTS:
    void crossValidateFromTheWorkbench()
    {
        qputenv("ENTRENA_RANK_PROGRAM", ENTRENA_CLI);
        const QString db = dir_.filePath(QStringLiteral("cv.sqlite"));
        MainWindow w(db, base(), languages_);
        w.show();
        CrossValidationDialog* d = w.openCrossValidation();
        QVERIFY(d && d->isVisible());
        d->foldsBox()->setValue(3);
        d->parallelBox()->setValue(1);
        QVERIFY2(d->problem().isEmpty(), qPrintable(d->problem()));
        QSignalSpy ended(d, &CrossValidationDialog::ended);
        QVERIFY(d->start());
        QTRY_VERIFY_WITH_TIMEOUT(ended.count() == 1, 300000);
        QVERIFY(!d->isRunning());

        RunStore store(db.toStdString());
        const auto experiments = store.listExperiments();
        QCOMPARE(int(experiments.size()), 1);
        QVERIFY(isCrossValidation(experiments[0]));
        const auto runs = store.trialsOf(experiments[0].id);
        QCOMPARE(int(runs.size()), 3);
        double sum = 0;
        for (const RunRecord& r : runs) {
            QCOMPARE(r.status, RunStatus::Finished);
            sum += r.bestValAccuracy.value_or(-10);
        }
        // The dialog's mean is the stored runs' mean, in the reader's numbers.
        const QString mean = QLocale().toString(sum / 3 * 100.0, 'f', 2);
        QVERIFY2(d->resultText().contains(mean + QStringLiteral(" % ±")), qPrintable(d->resultText() + " / " + mean));
        QTRY_COMPARE(w.runs()->model()->rowCount(), 3);

        // The experiment's view says what it is and the same mean ± sd.
        ExperimentView* view = w.openExperiment(d->experimentId());
        QTRY_VERIFY_WITH_TIMEOUT(view->isLoaded(), 20000);
        QVERIFY2(view->summaryText().contains(QStringLiteral("3-fold cross-validation")), qPrintable(view->summaryText()));
        QVERIFY2(view->summaryText().contains(mean + QStringLiteral(" % ±")), qPrintable(view->summaryText()));
        // With the recall that accuracy hides on unbalanced data (issue 53, item 3).
        QVERIFY2(view->summaryText().contains(QStringLiteral("Recall, the classes' mean")), qPrintable(view->summaryText()));
        QVERIFY2(d->resultText().contains(QStringLiteral("Recall of each class, lowest first")), qPrintable(d->resultText()));
        // Its own view: the folds side by side, not a sweep's best-so-far curve and a data.fold axis.
        QVERIFY(view->foldChart()->isVisible());
        QVERIFY(!view->bestChart()->isVisible());
        QCOMPARE(view->foldChart()->accuracyBars()->data()->size(), 3);
        QCOMPARE(view->foldChart()->accuracyBars()->data()->at(0)->key, 1.0); // folds counted from 1
        QCOMPARE(view->foldChart()->recallBars()->data()->size(), 3);
        // Its runs are named by their fold, from 1, in one language.
        QStringList names;
        for (const RunRecord& r : runs)
            names << QString::fromStdString(r.name);
        QVERIFY2(names.join(QLatin1Char('|')).contains(QStringLiteral("3-fold fold 1")) &&
                     names.join(QLatin1Char('|')).contains(QStringLiteral("3-fold fold 3")) &&
                     !names.join(QLatin1Char('|')).contains(QStringLiteral("fold=")),
                 qPrintable(names.join(QLatin1Char('|'))));
        view->close();
    }

    void aSweepCrossValidatesEachTrialFromTheWorkbench()
    {
        // The sweep dialog's "Cross-validate" choice: three fold runs a trial; the experiment's view
        // shows a row a trial, valued by the folds' mean, as the CLI values it.
        const QString db = dir_.filePath(QStringLiteral("sweepcv.sqlite"));
        SweepDialog d(base(), db, QStringLiteral(ENTRENA_CLI));
        d.space()->setChoices(0, QStringLiteral("0.001, 0.003"));
        d.setMethod(QStringLiteral("grid"));
        auto* cv = d.findChild<QComboBox*>(QStringLiteral("sweepCv"));
        QVERIFY(cv);
        cv->setCurrentIndex(cv->findData(3));
        QVERIFY2(d.problem().isEmpty(), qPrintable(d.problem()));
        QSignalSpy ended(&d, &SweepDialog::sweepEnded);
        QVERIFY(d.start());
        QTRY_VERIFY_WITH_TIMEOUT(ended.count() == 1, 300000);
        // The log values each trial by its folds' mean, not by one fold's run.
        QVERIFY2(d.log().contains(QStringLiteral("the mean of its 3 folds")), qPrintable(d.log()));
        RunStore store(db.toStdString());
        const auto experiment = store.listExperiments().at(0);
        std::map<int64_t, std::set<int>> folds;
        for (const RunRecord& r : store.trialsOf(experiment.id))
            folds[r.trial].insert(RunConfig::fromJson(r.configJson).data.fold);
        QCOMPARE(folds, (std::map<int64_t, std::set<int>>{{0, {0, 1, 2}}, {1, {0, 1, 2}}}));
        const TrialsSummary trials = summarizeTrials(store, experiment);
        QCOMPARE(trials.trialFolds, 3);
        QVERIFY(trials.best.has_value());

        ExperimentView view(db, experiment.id);
        QTRY_VERIFY_WITH_TIMEOUT(view.isLoaded(), 20000);
        QCOMPARE(view.trialsTable()->model()->rowCount(), 2);
        QVERIFY2(view.summaryText().contains(QStringLiteral("cross-validated on 3 folds")), qPrintable(view.summaryText()));
        QVERIFY2(view.summaryText().contains(QStringLiteral("(its first fold is run %1)").arg(trials.bestRun)), qPrintable(view.summaryText()));
        // The best trial's row holds the folds' best mean (column 4: trial, run, status, lr, value), not one fold's.
        const QAbstractItemModel* rows = view.trialsTable()->model();
        double shown = -1;
        for (int r = 0; r < rows->rowCount(); ++r)
            if (rows->index(r, 1).data().toLongLong() == trials.bestRun)
                shown = rows->index(r, 4).data(Qt::UserRole).toDouble();
        QVERIFY2(std::abs(shown - *trials.best) < 1e-9, qPrintable(QStringLiteral("%1 vs %2").arg(shown).arg(*trials.best)));
    }

    void tooManyFoldsIsSaidBeforeAnythingIsStored()
    {
        const QString db = dir_.filePath(QStringLiteral("few.sqlite"));
        CrossValidationDialog d(base(40), db, QStringLiteral(ENTRENA_CLI));
        d.foldsBox()->setValue(12); // 40 samples of 10 classes: some class has fewer than 12
        QVERIFY(!d.start());
        // In the reader's words, naming the class and what to do (not the command line's data.folds, --folds).
        QVERIFY2(d.problem().startsWith(QStringLiteral("Too little data for 12 stratified folds: the class “")), qPrintable(d.problem()));
        QVERIFY2(!d.problem().contains(QStringLiteral("--")), qPrintable(d.problem()));
        QVERIFY(!QFile::exists(db));
        d.stratifyBox()->setChecked(false); // unstratified folds only need 12 samples in all
        QVERIFY2(d.problem().isEmpty(), qPrintable(d.problem()));
    }

    void theImbalanceWarningBalancesTheClassesInOneClick()
    {
        QFile csv(dir_.filePath(QStringLiteral("uneven.csv")));
        QVERIFY(csv.open(QIODevice::WriteOnly));
        csv.write("x,y,label\n");
        for (int i = 0; i < 220; ++i)
            csv.write(QByteArray::number(i % 13) + "," + QByteArray::number(i % 7) + "," + (i % 22 == 0 ? "rare" : "common") + "\n");
        csv.close();
        RunConfig c = RunConfig::fromJson(R"({"data": {"dataset": "csv", "path": ")" + csv.fileName().toStdString() +
                                          R"("}, "model": {"arch": "mlp"}})");
        MainWindow w(dir_.filePath(QStringLiteral("uneven.sqlite")), c, languages_);
        w.show();
        DataPreviewDialog* preview = w.previewData();
        QTRY_VERIFY_WITH_TIMEOUT(preview->isReady(), 20000);
        QVERIFY(preview->imbalanceLabel()->isVisible());
        QVERIFY(preview->balanceButton()->isVisible());
        QCOMPARE(w.configPanel()->config().data.balance, Balance::None);
        QTest::mouseClick(preview->balanceButton(), Qt::LeftButton);
        QCOMPARE(w.configPanel()->config().data.balance, Balance::Weights);
        QVERIFY(!preview->balanceButton()->isVisible());
        // The form shows it, and a run's configuration carries it.
        auto* box = w.configPanel()->findChild<QComboBox*>(QStringLiteral("data.balance"));
        QVERIFY(box && box->isVisible());
        QCOMPARE(box->currentData().toString(), QStringLiteral("weights"));
        QVERIFY(QString::fromStdString(w.configPanel()->config().toJson()).contains(QStringLiteral("\"balance\":\"weights\"")));
    }

    void compareSaysHowFarApartAccuraciesOnFewSamplesMustBe()
    {
        const QString db = dir_.filePath(QStringLiteral("noise.sqlite"));
        QList<qint64> few, many;
        {
            RunStore store(db.toStdString());
            for (int r = 0; r < 4; ++r) {
                const int64_t samples = r < 2 ? 56 : 6000;
                const int64_t id = store.createRun("r" + std::to_string(r), base().toJson(), "{}");
                store.setRunData(id, "{\"val_samples\": " + std::to_string(samples) + "}");
                store.addMetric(id, "val_accuracy", 10, 1, r % 2 ? 0.93 : 0.90);
                EndEvent end;
                end.bestValAccuracy = r % 2 ? 0.93 : 0.90;
                store.finishRun(id, RunStatus::Finished, end, 0.4);
                (r < 2 ? few : many) << id;
            }
            store.flush();
        }
        auto view = std::make_unique<CompareView>(db, few);
        view->setAttribute(Qt::WA_DeleteOnClose, false);
        view->show();
        QTRY_VERIFY_WITH_TIMEOUT(view->isLoaded(), 30000);
        QVERIFY(view->noiseNote()->isVisible());
        // 1.96 · √(0.93·0.07/56 + 0.9·0.1/56) = 10.3 points: the 3 points between them are chance.
        const QString note = view->noiseNote()->text();
        QVERIFY2(note.contains(QStringLiteral("56")) && note.contains(QLocale().toString(10.3, 'f', 1)), qPrintable(note));
        QVERIFY2(note.contains(QStringLiteral("cross-validate")), qPrintable(note));
        auto large = std::make_unique<CompareView>(db, many);
        large->setAttribute(Qt::WA_DeleteOnClose, false);
        large->show();
        QTRY_VERIFY_WITH_TIMEOUT(large->isLoaded(), 30000);
        QVERIFY(!large->noiseNote()->isVisible()); // 6,000 samples each: 3 points is not chance
        // The figure itself: two binomial proportions' 95 % interval.
        QVERIFY(std::abs(*meaningfulDifference(0.93, 56, 0.9, 56) - 1.96 * std::sqrt(0.93 * 0.07 / 56 + 0.9 * 0.1 / 56)) < 1e-12);
        QVERIFY(!meaningfulDifference(0.9, 0, 0.9, 56));
    }
};

QTEST_MAIN(TestCrossValidationUi)
#include "tst_cross_validation_ui.moc"
