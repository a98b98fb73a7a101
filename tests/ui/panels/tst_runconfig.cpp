// The run form: checked as it is edited, a configuration in and out unchanged, a page for every
// schedule with its preview, the model's summary, the devices to choose.
#include "../MainWindowFixture.h"
#include "ChoiceLabels.h"
#include "MainWindow.h"
#include "RunTableModel.h"
#include "charts/SchedulePreview.h"
#include "entrena/config/Registry.h"
#include "form/DevicePicker.h"
#include "form/KeyField.h"
#include "panels/RunConfigPanel.h"
#include "panels/RunsPanel.h"
#include "settings/LanguageManager.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSpinBox>
#include <QStackedWidget>
#include <QTemporaryDir>
#include <QtTest>
#include <qcustomplot.h>

using namespace entrena;
using namespace entrena::ui;
using entrena::test::childProcesses;
using entrena::test::smallRun;

class TestRunConfig : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;
    LanguageManager languages_;

private Q_SLOTS:
    // Regression: bad input was found only after Start, each mistake adding a failed run, in the
    // configuration's words; a minus sign typed into the learning rate was dropped (0.5), and a
    // new data set kept the old one's folder.
    void theFormIsCheckedAsItIsEditedAndStartSaysWhy()
    {
        MainWindow w(dir_.filePath(QStringLiteral("check.sqlite")), smallRun(), languages_);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* start = w.findChild<QPushButton*>(QStringLiteral("startButton"));
        auto* problem = w.findChild<QLabel*>(QStringLiteral("formProblem"));
        auto* lr = w.findChild<QDoubleSpinBox*>(QStringLiteral("learningRateBox"));
        QVERIFY(start && problem && lr);
        QVERIFY(start->isEnabled() && !problem->isVisible());

        lr->setFocus();
        lr->selectAll();
        QTest::keyClicks(lr, QStringLiteral("-0.5"));
        lr->interpretText();
        QCOMPARE(lr->value(), -0.5);
        QTRY_VERIFY(problem->isVisible());
        QVERIFY2(problem->text().startsWith(QStringLiteral("«Learning rate» must be")), qPrintable(problem->text()));
        QVERIFY2(!problem->text().contains(QStringLiteral("optimizer.lr")), qPrintable(problem->text()));
        QVERIFY(!start->isEnabled());
        QVERIFY2(start->toolTip().contains(problem->text()), qPrintable(start->toolTip()));
        lr->setValue(0.05);
        QTRY_VERIFY(!problem->isVisible());
        QVERIFY(start->isEnabled());

        // Another data set: the folder of the one before is no place for it.
        QComboBox* dataset = nullptr;
        for (QComboBox* c : w.configPanel()->findChildren<QComboBox*>())
            if (c->currentData().toString() == QStringLiteral("fashion-mnist"))
                dataset = c;
        QVERIFY(dataset);
        dataset->setCurrentIndex(dataset->findData(QStringLiteral("mnist")));
        QCOMPARE(w.configPanel()->config().data.path, std::string());
        QTRY_VERIFY2(problem->text().contains(QStringLiteral("«Folder»")), qPrintable(problem->text()));
        QVERIFY(!start->isEnabled());
        dataset->setCurrentIndex(dataset->findData(QStringLiteral("fashion-mnist")));
        QCOMPARE(w.configPanel()->config().data.path, std::string("/usr/share/datasets/fashion-mnist"));
        QTRY_VERIFY(start->isEnabled());

        // A loaded configuration with a key the form does not show: named by its key, at once.
        RunConfig bad = smallRun();
        bad.data.valFraction = 0.95;
        w.configPanel()->setConfig(bad);
        QVERIFY2(problem->text().contains(QStringLiteral("data.val_fraction")), qPrintable(problem->text()));
        QVERIFY(!start->isEnabled());
        QCOMPARE(w.runs()->model()->rowCount(), 0); // no failed run was added along the way
    }

    void panelRoundTripsTheConfiguration_data()
    {
        QTest::addColumn<QString>("json");
        QTest::newRow("shipped default") << QString::fromStdString(smallRun().toJson());
        QTest::newRow("resnet, adamw, one-cycle, augmentation")
            << QStringLiteral(R"({"name": "r", "data": {"batch_size": 32, "augment_crop": 2, "augment_flip": true},
                "model": {"arch": "resnet", "channels": [8, 16], "blocks": 2, "dropout": 0.1},
                "optimizer": {"name": "adamw", "lr": 0.002},
                "scheduler": {"name": "one_cycle", "max_lr": 0.01, "pct_start": 0.25, "anneal_strategy": "linear",
                              "warmup_steps": 0},
                "train": {"epochs": 7, "grad_clip": 1.5, "accumulate": 2, "label_smoothing": 0.1,
                          "early_stop_patience": 3, "precision": "bf16"}})");
        QTest::newRow("multistep with warm-up")
            << QStringLiteral(R"({"scheduler": {"name": "multistep", "milestones": [3, 6], "gamma": 0.2, "warmup_steps": 50}})");
        QTest::newRow("csv, rmsprop, cosine")
            << QStringLiteral(R"({"data": {"dataset": "csv", "path": "/tmp/a.csv", "test_path": "/tmp/b.csv",
                                            "label_column": "y"},
                "model": {"arch": "mlp", "hidden": [32, 16]}, "optimizer": {"name": "rmsprop", "lr": 0.001},
                "scheduler": {"name": "cosine", "T_max": 4, "eta_min": 0.0001}})");
        QTest::newRow("rmsprop with momentum, alpha and centred") << QStringLiteral(
            R"({"optimizer": {"name": "rmsprop", "lr": 0.001, "momentum": 0.5, "alpha": 0.95, "centered": true}})");
        QTest::newRow("adam's betas kept") << QStringLiteral(
            R"({"optimizer": {"name": "adam", "lr": 0.001, "beta1": 0.8, "beta2": 0.99}})");
    }

    void panelRoundTripsTheConfiguration()
    {
        QFETCH(QString, json);
        const RunConfig c = RunConfig::fromJson(json.toStdString());
        RunConfigPanel panel;
        panel.setConfig(c);
        QCOMPARE(QString::fromStdString(RunConfig::fromJson(panel.config().toJson()).toJson(2)),
                 QString::fromStdString(c.toJson(2)));
    }

    // An optimizer's keys with a form label are rows, shown with every algorithm that has the key and
    // hidden with the others; switching algorithm resets the keys the form does not show.
    void everyOptimizersOwnKeysAreRowsShownWithIt()
    {
        RunConfigPanel panel;
        panel.show();
        QComboBox* box = nullptr; // the algorithm's
        for (auto* b : panel.findChildren<QComboBox*>())
            if (b->findData(QString::fromLatin1(optimizerRegistry().front().name)) >= 0)
                box = b;
        QVERIFY(box);
        int shownKeys = 0;
        for (const OptimizerEntry& e : optimizerRegistry()) {
            box->setCurrentIndex(box->findData(QString::fromLatin1(e.name)));
            for (const auto& k : e.keys) {
                auto* field = panel.findChild<QWidget*>(QStringLiteral("optimizer.") + QString::fromLatin1(k.key));
                QCOMPARE(field != nullptr && field->isVisible(), k.form.label != nullptr);
                shownKeys += k.form.label ? 1 : 0;
            }
            // A key of another algorithm only: hidden.
            for (const OptimizerEntry& other : optimizerRegistry())
                for (const auto& k : other.keys)
                    if (auto* field = panel.findChild<QWidget*>(QStringLiteral("optimizer.") + QString::fromLatin1(k.key));
                        field && !hasKey(e.keys, k.key))
                        QVERIFY2(!field->isVisible(), k.key);
        }
        QVERIFY(shownKeys >= 2); // SGD's and RMSprop's momentum, one row
        // A loaded SGD switched to RMSprop: the momentum row both have keeps its value.
        panel.setConfig(RunConfig::fromJson(R"({"optimizer": {"name": "sgd", "momentum": 0.7}})"));
        box->setCurrentIndex(box->findData(QStringLiteral("rmsprop")));
        QCOMPARE(panel.config().optimizer.kind, OptimizerKind::RmsProp);
        QCOMPARE(panel.config().optimizer.momentum, 0.7);
        // A loaded Adam switched to AdamW: the keys the form does not show (the betas) are AdamW's
        // defaults, not what the file gave Adam; back to Adam, the file's values stand.
        panel.setConfig(RunConfig::fromJson(R"({"optimizer": {"name": "adam", "beta1": 0.5}})"));
        box->setCurrentIndex(box->findData(QStringLiteral("adamw")));
        QCOMPARE(panel.config().optimizer.beta1, OptimizerSpec{}.beta1);
        box->setCurrentIndex(box->findData(QStringLiteral("adam")));
        QCOMPARE(panel.config().optimizer.beta1, 0.5);
    }

    // The precision's choices are its registry's entries, in their words, and each reaches the
    // configuration.
    void everyPrecisionIsChosenInItsRegistrysWords()
    {
        RunConfigPanel panel;
        auto* box = panel.findChild<QComboBox*>(QStringLiteral("precisionCombo"));
        QVERIFY(box);
        QCOMPARE(box->count(), int(precisionRegistry().size()));
        for (const PrecisionEntry& p : precisionRegistry()) {
            const int i = box->findData(QString::fromLatin1(p.name));
            QVERIFY2(i >= 0, p.name);
            QCOMPARE(box->itemText(i), registryText(p.label));
            QCOMPARE(box->itemData(i, Qt::ToolTipRole).toString(), p.tip ? registryText(p.tip) : QString());
            box->setCurrentIndex(i);
            QCOMPARE(panel.config().train.precision, p.kind);
        }
    }

    void everyScheduleInTheRegistryHasItsPage()
    {
        // The form builds a schedule's page from its registry entry: each schedule is listed with
        // its label, shows a field for each key the entry labels, and what is set there reaches
        // the configuration. A new entry needs no form code.
        RunConfigPanel panel;
        panel.setConfig(RunConfig{});
        QComboBox* schedule = nullptr;
        for (QComboBox* c : panel.findChildren<QComboBox*>())
            if (c->currentData().toString() == QStringLiteral("reduce_on_plateau"))
                schedule = c;
        QVERIFY(schedule);
        QCOMPARE(schedule->count(), int(schedulerRegistry().size()));
        for (const SchedulerEntry& e : schedulerRegistry()) {
            const int at = schedule->findData(QString::fromLatin1(e.name));
            QVERIFY2(at >= 0, e.name);
            QCOMPARE(schedule->itemText(at), app::ChoiceLabels::scheduler(QString::fromLatin1(e.name)));
            schedule->setCurrentIndex(at);
            QCOMPARE(panel.config().scheduler.kind, e.kind);
            QStringList shown;
            for (QLabel* l : panel.findChildren<QLabel*>())
                if (l->isVisibleTo(&panel) && l->text().endsWith(QLatin1Char(':')))
                    shown << l->text();
            for (const auto& k : e.keys) {
                if (!k.form.label)
                    continue;
                QVERIFY2(shown.contains(QString::fromLatin1(k.form.label)), k.key);
            }
        }
        // A value typed into a generated field is what the configuration gets.
        schedule->setCurrentIndex(schedule->findData(QStringLiteral("step")));
        QSpinBox* every = nullptr;
        for (QSpinBox* b : panel.findChildren<QSpinBox*>())
            if (b->isVisibleTo(&panel) && b->value() == 10 && b->minimum() == 1)
                every = b;
        QVERIFY(every);
        every->setValue(4);
        QCOMPARE(panel.config().scheduler.stepSize, int64_t(4));
    }

    void schedulePreviewFollowsTheSchedule()
    {
        RunConfigPanel panel;
        RunConfig c = smallRun(); // 2 epochs of 2,700 samples, batch 64: 43 steps each
        c.scheduler = RunConfig::fromJson(R"({"scheduler": {"name": "multistep", "milestones": [1], "gamma": 0.5}})").scheduler;
        panel.setConfig(c);
        QCOMPARE(panel.schedulePreview()->points(), 2 * 43);
        QCOMPARE(panel.config().scheduler.milestones, (std::vector<int64_t>{1}));
        auto* plot = panel.schedulePreview()->findChild<QCustomPlot*>();
        QCOMPARE(plot->graph(0)->data()->at(0)->value, c.optimizer.lr);
        QCOMPARE(plot->graph(0)->data()->at(43)->value, c.optimizer.lr * 0.5); // the milestone halves it
        // The steps are numbered across (a new user could not tell 100 steps from 10,000).
        QVERIFY(plot->xAxis->tickLabels());
        QCOMPARE(plot->xAxis->range().upper, 86.0);
        QVERIFY(!plot->toolTip().isEmpty());
    }

    // Issue 53, item 3: "fmnist-mlp" stayed the run's name after choosing an image folder.
    void theSuggestedNameFollowsTheDataAndModel()
    {
        RunConfigPanel panel;
        RunConfig c = smallRun();
        c.name = "fmnist-mlp";
        panel.setConfig(c);
        QCOMPARE(panel.config().name, std::string("fmnist-mlp"));
        auto* dataset = panel.findChild<QComboBox*>(QStringLiteral("datasetCombo"));
        dataset->setCurrentIndex(dataset->findData(QStringLiteral("image-folder")));
        panel.findChild<QLineEdit*>(QStringLiteral("dataPathEdit"))->setText(QStringLiteral("/photos/digits"));
        QCOMPARE(panel.config().name, std::string("digits-mlp"));
        auto* arch = panel.findChild<QComboBox*>(QStringLiteral("archCombo"));
        arch->setCurrentIndex(arch->findData(QStringLiteral("cnn")));
        QCOMPARE(panel.config().name, std::string("digits-cnn"));
        // A name the person gave stays.
        panel.findChild<QLineEdit*>(QStringLiteral("nameEdit"))->setText(QStringLiteral("my digits"));
        arch->setCurrentIndex(arch->findData(QStringLiteral("mlp")));
        QCOMPARE(panel.config().name, std::string("my digits"));
        // So does a loaded configuration's.
        c.name = "loaded";
        panel.setConfig(c);
        QCOMPARE(panel.config().name, std::string("loaded"));
    }

    // Issue 53, item 3: the preview assumed ~10,000 samples, so a table of 50 rows drew ~2,000 steps
    // for a run of 10. It counts the chosen data once read.
    void schedulePreviewCountsTheChosenData()
    {
        QTemporaryDir dir;
        const QString csv = dir.filePath(QStringLiteral("table.csv"));
        QFile f(csv);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("a,b,c,label\n");
        for (int i = 0; i < 50; ++i)
            f.write(QStringLiteral("%1,%2,%3,%4\n").arg(i).arg(i % 7).arg(i * 0.5).arg(i % 2).toUtf8());
        f.close();
        RunConfig c = RunConfig::fromJson(R"({"data": {"dataset": "csv", "label_column": "label", "val_fraction": 0.2,
            "batch_size": 8}, "model": {"arch": "mlp"}, "scheduler": {"name": "constant"}, "train": {"epochs": 2}})");
        c.data.path = csv.toStdString();
        RunConfigPanel panel;
        panel.setConfig(c);
        // 50 rows less a fifth for validation: 40 samples, 5 batches of 8 an epoch, 2 epochs.
        QTRY_COMPARE(panel.schedulePreview()->points(), 10);
        QCOMPARE(panel.schedulePreview()->lastStep(), 10.0);
    }

    // Regression: the schedule's fields stood in a stack as tall as its tallest page, so two fields
    // (reduce on plateau) had a blank band under them.
    void theScheduleFieldsTakeTheirOwnHeight()
    {
        RunConfigPanel panel;
        panel.setConfig(smallRun());
        panel.show();
        auto* combo = panel.findChild<QComboBox*>(QStringLiteral("schedulerCombo"));
        auto* stack = panel.findChild<QStackedWidget*>();
        QVERIFY(combo && stack);
        int shortest = INT_MAX, tallest = 0;
        for (int i = 0; i < combo->count(); ++i) {
            combo->setCurrentIndex(i);
            QCOMPARE(stack->currentIndex(), i);
            panel.adjustSize(); // the form at its own height, as the scroll area lays it out
            QApplication::processEvents();
            QWidget* page = stack->currentWidget();
            QCOMPARE(page->height(), stack->height());
            const QString what = combo->currentText() + QStringLiteral(": %1 px for a page of %2");
            if (page->hasHeightForWidth()) { // a note that wraps: never cut off
                const int need = page->heightForWidth(stack->width());
                QVERIFY2(stack->height() >= need, qPrintable(what.arg(stack->height()).arg(need)));
                continue;
            }
            // Fields: neither a blank band under them nor any cut off.
            const int own = page->sizeHint().height();
            QVERIFY2(std::abs(stack->height() - own) <= 1, qPrintable(what.arg(stack->height()).arg(own)));
            shortest = std::min(shortest, own);
            tallest = std::max(tallest, own);
        }
        QVERIFY(shortest < tallest); // pages of different heights, or the check above is idle
    }

    // Regression: a path set for the person showed its end, the cursor's place, so that a narrow form
    // cut off its start ("usr/share/datasets/fashion-mnist").
    void aLongPathShowsItsStartAndTheWholeInItsTooltip()
    {
        RunConfigPanel panel;
        panel.resize(420, 700);
        panel.show();
        auto* path = panel.findChild<QLineEdit*>(QStringLiteral("dataPathEdit"));
        QVERIFY(path);
        RunConfig c = smallRun();
        c.data.path = "/home/somebody/projects/a-rather-long-folder-name/data/fashion-mnist/subset";
        panel.setConfig(c);
        QApplication::processEvents();
        const QString whole = QString::fromStdString(c.data.path);
        QCOMPARE(path->text(), whole);
        QVERIFY(path->fontMetrics().horizontalAdvance(whole) > path->width()); // it does not fit
        QCOMPARE(path->cursorPosition(), 0);
        QCOMPARE(path->toolTip(), whole);
        // Set again with the very text it holds (a run started from the form): setText() moves the
        // cursor to the end without a word about the text.
        panel.setConfig(c);
        QCOMPARE(path->cursorPosition(), 0);
        // Typing keeps the cursor where the person types; when they leave the field it shows the start.
        panel.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&panel));
        path->setFocus();
        QTest::keyClick(path, Qt::Key_End);
        QTest::keyClicks(path, QStringLiteral("/x"));
        QCOMPARE(path->cursorPosition(), int(path->text().size()));
        QCOMPARE(path->toolTip(), whole + QStringLiteral("/x"));
        QLineEdit* other = nullptr; // the run's name, say
        for (auto* e : panel.findChildren<QLineEdit*>())
            if (!other && e != path && e->isVisible() && e->isEnabled())
                other = e;
        QVERIFY(other);
        other->setFocus();
        QVERIFY(!path->hasFocus());
        QCOMPARE(path->cursorPosition(), 0);
        // A cursor put somewhere by the person is theirs, focused or not (a click that also activates
        // the window moves the cursor before the field has focus): typed text lands there.
        path->setCursorPosition(10);
        QCOMPARE(path->cursorPosition(), 10);
        // And the same path set again (a run started from the form) is shown from its start.
        c.data.path += "/x";
        QTest::keyClick(path, Qt::Key_End);
        panel.setConfig(c);
        QCOMPARE(path->text(), whole + QStringLiteral("/x"));
        QCOMPARE(path->cursorPosition(), 0);
    }

    void panelSummarisesTheModel()
    {
        RunConfigPanel panel;
        RunConfig c = smallRun(); // mlp 256-128: 235,146 parameters
        panel.setConfig(c);
        QVERIFY2(panel.summaryText().contains(QLocale().toString(235146)), qPrintable(panel.summaryText()));
        c.model.arch = ModelArch::Cnn;
        panel.setConfig(c);
        QVERIFY2(!panel.summaryText().contains(QLocale().toString(235146)), qPrintable(panel.summaryText()));
    }

    void devicePanelListsDevicesAndChoosesSeveral()
    {
        RunConfigPanel panel;
        panel.setConfig(smallRun());
        panel.setDevices({ComputeDevice{"cpu", 0, {}, 0, {}}, ComputeDevice{"cuda", 0, "NVIDIA H200", int64_t(141) << 30, "9.0"},
                          ComputeDevice{"cuda", 1, "NVIDIA H200", int64_t(141) << 30, "9.0"}});
        auto* picker = panel.findChild<DevicePicker*>();
        QVERIFY(picker);
        QListWidget* list = picker->list();
        QCOMPARE(list->count(), 3);
        QCOMPARE(list->item(1)->text(), QStringLiteral("cuda:0 — NVIDIA H200 (141.0 GiB)"));
        QCOMPARE(list->item(0)->checkState(), Qt::Checked); // the configuration's CPU
        QCOMPARE(panel.ranks(), 1);

        // Both GPUs: a data-parallel run on them, the CPU unchecked.
        list->item(1)->setCheckState(Qt::Checked);
        list->item(2)->setCheckState(Qt::Checked);
        QCOMPARE(list->item(0)->checkState(), Qt::Unchecked);
        QCOMPARE(panel.config().devices.type, DeviceType::Cuda);
        QCOMPARE(panel.config().devices.ids, (std::vector<int64_t>{0, 1}));
        QCOMPARE(panel.ranks(), 2);
        QVERIFY(!picker->cpuRanksBox()->isEnabled());

        // Back to the CPU, with three processes.
        list->item(0)->setCheckState(Qt::Checked);
        QCOMPARE(list->item(1)->checkState(), Qt::Unchecked);
        QCOMPARE(list->item(2)->checkState(), Qt::Unchecked);
        QVERIFY(picker->cpuRanksBox()->isEnabled());
        picker->cpuRanksBox()->setValue(3);
        QCOMPARE(panel.ranks(), 3);
        QCOMPARE(panel.config().devices.type, DeviceType::Cpu);
        QVERIFY(panel.config().devices.ids.empty());

        // Unchecking everything leaves the CPU; a stored configuration checks its GPUs.
        list->item(0)->setCheckState(Qt::Unchecked);
        QCOMPARE(list->item(0)->checkState(), Qt::Checked);
        RunConfig gpu = smallRun();
        gpu.devices.type = DeviceType::Cuda;
        gpu.devices.ids = {1};
        panel.setConfig(gpu);
        QCOMPARE(list->item(1)->checkState(), Qt::Unchecked);
        QCOMPARE(list->item(2)->checkState(), Qt::Checked);
        QCOMPARE(panel.ranks(), 1);
    }
};

QTEST_MAIN(TestRunConfig)

#include "tst_runconfig.moc"
