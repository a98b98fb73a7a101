// The batch-size and learning-rate finders from the window: what they suggest, and applying it.
#include "../MainWindowFixture.h"
#include "MainWindow.h"
#include "entrena/search/BatchSizeFinder.h"
#include "finders/LrFinderDialog.h"
#include "panels/RunConfigPanel.h"
#include "settings/LanguageManager.h"

#include <QMessageBox>
#include <QPushButton>
#include <QTemporaryDir>
#include <QtTest>
#include <qcustomplot.h>

using namespace entrena;
using namespace entrena::ui;
using entrena::test::childProcesses;
using entrena::test::smallRun;

class TestFinders : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;
    LanguageManager languages_;

private Q_SLOTS:
    void batchSizeFinderSetsTheLargestBatchThatFits()
    {
        MainWindow w(dir_.filePath(QStringLiteral("batch.sqlite")), smallRun(), languages_);
        // As tst_memory and docs/configuration.md: the default MLP, 5,400 images, a 16 MiB budget.
        RunConfig c = RunConfig::fromJson(R"({"name": "batch", "seed": 3,
            "data": {"path": ")" ENTRENA_FMNIST_DIR
                                          R"(", "train_limit": 6000, "test_limit": 1000, "batch_size": 128, "workers": 0},
            "model": {"arch": "mlp"}, "optimizer": {"name": "sgd", "lr": 0.05, "momentum": 0.9},
            "scheduler": {"name": "constant"}, "train": {"epochs": 1, "memory_budget_mb": 16}, "devices": {"threads": 2}})");
        w.configPanel()->setConfig(c);
        auto* button = w.findChild<QPushButton*>(QStringLiteral("findBatchButton"));
        QVERIFY(button);
        button->click();
        QTRY_VERIFY(button->text().contains(QStringLiteral("Stop")));
        QTRY_VERIFY_WITH_TIMEOUT(!button->text().contains(QStringLiteral("Stop")), 120000);
        // The answer is shown, not applied: 2,216 fits, but 5,400 images make 3 steps an epoch of it.
        QMessageBox* answer = nullptr;
        QTRY_VERIFY((answer = w.findChild<QMessageBox*>(QStringLiteral("batchSizeAnswer"))) != nullptr);
        QCOMPARE(w.configPanel()->config().data.batchSize, int64_t(128));
        QVERIFY2(answer->text().contains(QLocale().toString(2216)) && answer->text().contains(QStringLiteral("3 steps an epoch")),
                 qPrintable(answer->text()));
        // The suggestion for training: a power of two, at least 50 steps an epoch (5,400 / 50 = 108 -> 64).
        QVERIFY2(answer->text().contains(QStringLiteral("64 is the better choice")) &&
                     answer->text().contains(QStringLiteral("85 steps an epoch")),
                 qPrintable(answer->text()));
        auto* largest = answer->findChild<QAbstractButton*>(QStringLiteral("useLargestBatch"));
        QVERIFY(largest && answer->findChild<QAbstractButton*>(QStringLiteral("useSuggestedBatch")));
        largest->click();
        QCOMPARE(w.configPanel()->config().data.batchSize, int64_t(2216));
        QCOMPARE(w.configPanel()->config().train.memoryBudgetMb, 16.0); // the rest of the configuration kept
    }

    // Regression: Find batch size silently set the batch to 54,000, the whole training set.
    void batchSizeSuggestionIsSensibleForTraining()
    {
        QCOMPARE(suggestedBatchSize(54000, 54000), int64_t(1024)); // 1,080 -> 1,024: 53 steps an epoch
        QCOMPARE(suggestedBatchSize(2216, 5400), int64_t(64));
        QCOMPARE(suggestedBatchSize(200, 1000000), int64_t(128)); // never above what fits
        QCOMPARE(suggestedBatchSize(1 << 20, 1 << 30), int64_t(4096));
        QCOMPARE(suggestedBatchSize(3, 10), int64_t(1));
    }

    void lrFinderSuggestsAndAppliesTheChosenRate()
    {
        MainWindow w(dir_.filePath(QStringLiteral("lr.sqlite")), smallRun(), languages_);
        w.show();
        auto* find = w.findChild<QPushButton*>(QStringLiteral("findLrButton"));
        QVERIFY(find);
        QTest::mouseClick(find, Qt::LeftButton);
        auto* dialog = w.findChild<LrFinderDialog*>();
        QVERIFY(dialog);
        QSignalSpy finished(dialog, &LrFinderDialog::finished);
        QVERIFY(finished.wait(120000));
        QVERIFY2(finished[0][0].toBool(), qPrintable(finished[0][1].toString()));
        const double suggested = dialog->result().suggestion.suggestedLr;
        QCOMPARE(dialog->chosenLr(), suggested);
        QVERIFY(dialog->plot()->graph(0)->dataCount() >= 5);
        // Dragging the marker: a press on the chart at the pixel of 0.02.
        QCustomPlot* plot = dialog->plot();
        const int x = int(plot->xAxis->coordToPixel(0.02));
        const int y = int(plot->yAxis->coordToPixel(plot->yAxis->range().center()));
        QTest::mousePress(plot, Qt::LeftButton, {}, QPoint(x, y));
        QTest::mouseRelease(plot, Qt::LeftButton, {}, QPoint(x, y));
        QVERIFY2(std::abs(std::log10(dialog->chosenLr() / 0.02)) < 0.05, qPrintable(QString::number(dialog->chosenLr())));
        const double chosen = dialog->chosenLr();
        QTest::mouseClick(dialog->findChild<QPushButton*>(QStringLiteral("useLrButton")), Qt::LeftButton);
        QVERIFY(std::abs(w.configPanel()->config().optimizer.lr / chosen - 1) < 1e-3); // the spin box keeps 6 digits

        // Again, applied as one-cycle's max_lr.
        QTest::mouseClick(find, Qt::LeftButton);
        dialog = nullptr;
        for (auto* d : w.findChildren<LrFinderDialog*>())
            if (!d->isFinished())
                dialog = d;
        QVERIFY(dialog);
        QSignalSpy again(dialog, &LrFinderDialog::finished);
        QVERIFY(again.wait(120000));
        QTest::mouseClick(dialog->findChild<QPushButton*>(QStringLiteral("useMaxLrButton")), Qt::LeftButton);
        QCOMPARE(QString::fromLatin1(toString(w.configPanel()->config().scheduler.kind)), QStringLiteral("one_cycle"));
        QVERIFY(std::abs(w.configPanel()->config().scheduler.maxLr / dialog->result().suggestion.suggestedLr - 1) < 1e-3);
    }
};

QTEST_MAIN(TestFinders)

#include "tst_finders.moc"
