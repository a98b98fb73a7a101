// The workbench as a new user meets it on a 1280×720 laptop screen, in English and after a live
// switch to Spanish (issue 29): every window and dialog opens inside the screen with its buttons in
// view; numbers typed or pasted with real key events are read as written, whatever the language;
// a short run fills every live chart on an axis that shows its data.
//
// The offscreen platform's screen is 800×800 unless told otherwise: main() gives it a laptop's.
#include "../tools/OffscreenScreen.h"
#include "MainWindow.h"
#include "TrainingController.h"
#include "charts/LiveCharts.h"
#include "charts/StepTimeChart.h"
#include "entrena/search/BatchSizeFinder.h"
#include "entrena/store/RunStore.h"
#include "entrena/train/Trainer.h"
#include "panels/RunConfigPanel.h"
#include "panels/RunsPanel.h"
#include "settings/LanguageManager.h"
#include "settings/Theme.h"
#include "finders/BatchSizeAnswer.h"

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDialog>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPointer>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>
#include <qcustomplot.h>

using namespace entrena;
using namespace entrena::ui;

namespace {

constexpr QSize kScreen(1280, 720);

RunConfig shortRun(const std::string& name, int epochs, int trainLimit)
{
    RunConfig c = RunConfig::fromJson(R"({"seed": 4,
        "data": {"path": ")" ENTRENA_FMNIST_DIR R"(", "batch_size": 64, "test_limit": 500},
        "model": {"arch": "mlp", "hidden": [32]}, "scheduler": {"name": "constant"},
        "train": {"epochs": 1}})");
    c.name = name;
    c.train.epochs = epochs;
    c.data.trainLimit = trainLimit;
    return c;
}

/// What is wrong with how `window` sits on its screen: "" when it lies inside the screen's
/// available area and every visible push button of it lies inside it, unclipped (buttons inside a
/// scroll area scroll into view, and are left out).
QString fitProblem(QWidget* window)
{
    const QRect screen = window->screen()->availableGeometry();
    const QString name =
        window->objectName().isEmpty() ? QString::fromLatin1(window->metaObject()->className()) : window->objectName();
    if (!screen.contains(window->frameGeometry()))
        return QStringLiteral("%1 is %2×%3 at %4,%5 on a %6×%7 screen")
            .arg(name)
            .arg(window->frameGeometry().width())
            .arg(window->frameGeometry().height())
            .arg(window->frameGeometry().x())
            .arg(window->frameGeometry().y())
            .arg(screen.width())
            .arg(screen.height());
    for (QPushButton* b : window->findChildren<QPushButton*>()) {
        if (b->window() != window || !b->isVisibleTo(window))
            continue;
        bool scrolls = false;
        for (QWidget* p = b->parentWidget(); p && p != window; p = p->parentWidget())
            scrolls = scrolls || qobject_cast<QAbstractScrollArea*>(p);
        if (scrolls)
            continue;
        const QRect inWindow(b->mapTo(window, QPoint(0, 0)), b->size());
        if (!window->rect().contains(inWindow) || b->visibleRegion().boundingRect() != b->rect())
            return QStringLiteral("%1: the button \"%2\" is cut off (%3,%4 %5×%6 in a %7×%8 window)")
                .arg(name, b->text())
                .arg(inWindow.x())
                .arg(inWindow.y())
                .arg(inWindow.width())
                .arg(inWindow.height())
                .arg(window->width())
                .arg(window->height());
    }
    return {};
}

/// A visible top-level widget other than `except`, when one appears within `ms`.
QWidget* waitForWindow(const QList<QWidget*>& except, int ms = 30000)
{
    QWidget* found = nullptr;
    QTest::qWaitFor(
        [&] {
            for (QWidget* w : QApplication::topLevelWidgets())
                if (w->isVisible() && !except.contains(w) && !qobject_cast<QMenu*>(w) && w->windowType() != Qt::ToolTip)
                    found = w;
            return found != nullptr;
        },
        ms);
    return found;
}

/// Whether the axis shows all of its plot's data on its own side, with the data spread over at
/// least a tenth of it (not a dot in the middle of a range ten times too wide).
QString axisProblem(QCustomPlot* plot, QCPAxis* axis)
{
    double lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < plot->graphCount(); ++i) {
        QCPGraph* g = plot->graph(i);
        if (!g->visible() || g->data()->isEmpty() || (g->keyAxis() != axis && g->valueAxis() != axis))
            continue;
        bool found = false;
        const QCPRange r = g->keyAxis() == axis ? g->getKeyRange(found) : g->getValueRange(found);
        if (found) {
            lo = std::min(lo, r.lower);
            hi = std::max(hi, r.upper);
        }
    }
    if (!std::isfinite(lo))
        return QStringLiteral("%1 has no data").arg(plot->objectName());
    const QCPRange shown = axis->range();
    if (shown.lower > lo || shown.upper < hi)
        return QStringLiteral("%1's axis %2…%3 hides data at %4…%5")
            .arg(plot->objectName())
            .arg(shown.lower)
            .arg(shown.upper)
            .arg(lo)
            .arg(hi);
    const bool flat = hi - lo <= 0.01 * std::max(std::abs(hi), std::abs(lo)); // a steady reading: drawn mid-axis
    if (!flat && (hi - lo) < 0.1 * shown.size())
        return QStringLiteral("%1's axis %2…%3 dwarfs its data %4…%5")
            .arg(plot->objectName())
            .arg(shown.lower)
            .arg(shown.upper)
            .arg(lo)
            .arg(hi);
    return {};
}

} // namespace

class TestNewUser : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;
    LanguageManager languages_;
    QString db_;
    QList<qint64> runIds_;
    qint64 experiment_ = 0;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        qputenv("XDG_CONFIG_HOME", dir_.filePath(QStringLiteral("config")).toUtf8()); // fresh settings
        QSettings().clear();
        QCOMPARE(QApplication::primaryScreen()->availableGeometry().size(), kScreen);
        db_ = dir_.filePath(QStringLiteral("runs.sqlite"));
        // Three short real runs with checkpoints and evaluations, and an experiment of them.
        RunStore store(db_.toStdString());
        for (int i = 0; i < 3; ++i) {
            TrainingObserver quiet;
            StopToken stop;
            RunConfig c = shortRun("laptop-" + std::to_string(i), 2, 1200);
            c.optimizer.lr = 0.02 * (i + 1);
            const RunResult r = Trainer(c).run(quiet, stop, &store, true);
            QCOMPARE(r.end.status, RunStatus::Finished);
            runIds_ << r.runId;
        }
        ExperimentRecord e;
        e.name = "laptop-sweep";
        e.method = "random";
        e.spaceJson = R"({"optimizer.lr": {"log_uniform": [0.001, 0.1]}})";
        e.metric = "val_accuracy";
        e.status = "finished";
        e.baseConfigJson = shortRun("laptop", 2, 1200).toJson();
        e.settingsJson = "{}";
        experiment_ = store.createExperiment(e);
        for (int i = 0; i < runIds_.size(); ++i)
            store.setTrial(runIds_[i], experiment_, i);
    }

    void cleanup() { languages_.apply(QStringLiteral("en")); }

    void everyWindowFitsTheScreenWithItsButtons_data()
    {
        QTest::addColumn<QString>("language");
        QTest::addColumn<bool>("live");
        QTest::newRow("English") << QStringLiteral("en") << true;
        QTest::newRow("Spanish, after a live switch") << QStringLiteral("es") << true;
        QTest::newRow("Spanish from the start (the system's language)") << QStringLiteral("es") << false;
    }

    // Regression: run details 1100×760 (Save, Close, Export weights… off the screen), Compare
    // 1400×860, an experiment 1280×800, on a 1280×720 screen.
    void everyWindowFitsTheScreenWithItsButtons()
    {
        QFETCH(QString, language);
        QFETCH(bool, live);
        if (!live)
            languages_.apply(language);
        MainWindow w(db_, shortRun("form", 1, 1000), languages_);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        languages_.apply(language); // live, with the window open
        // Every schedule's page of the form, in the language's words: the form refits its width, and
        // the window with it (the Spanish one-cycle page made the window 1308 pixels wide).
        auto* schedule = w.findChild<QComboBox*>(QStringLiteral("schedulerCombo"));
        QVERIFY(schedule && schedule->count() >= 7);
        for (int i = 0; i < schedule->count(); ++i) {
            schedule->setCurrentIndex(i);
            QTest::qWait(100);
            QVERIFY2(fitProblem(&w).isEmpty(), qPrintable(schedule->currentText() + QStringLiteral(": ") + fitProblem(&w)));
        }
        // The form needs no horizontal scroll bar in either language (Browse… and Preview data).
        auto* form = w.findChild<QScrollArea*>();
        QVERIFY(form);
        QTRY_VERIFY2(!form->horizontalScrollBar()->isVisible(), qPrintable(language));

        const QList<QWidget*> before = {&w};
        QStringList problems;
        // Windows that stay open beside the main one.
        const auto check = [&](const QString& what, const std::function<void()>& open) {
            open();
            QWidget* opened = waitForWindow(before);
            if (!opened) {
                problems << what + QStringLiteral(": no window opened");
                return;
            }
            QTest::qWaitForWindowExposed(opened);
            QTest::qWait(50); // layouts settle
            qInfo() << what << "opened" << opened->metaObject()->className() << opened->objectName() << opened->size();
            if (const QString p = fitProblem(opened); !p.isEmpty())
                problems << what + QStringLiteral(": ") + p;
            QPointer<QWidget> closing(opened); // some delete themselves on close
            opened->close();
            QTest::qWaitFor([&] { return !closing || !closing->isVisible(); });
        };
        // Modal ones: inspected and closed from inside their own event loop.
        const auto checkModal = [&](const QString& what, const std::function<void()>& open) {
            bool seen = false;
            QTimer::singleShot(0, this, [&] {
                QWidget* opened = waitForWindow(before);
                seen = opened != nullptr;
                if (!opened)
                    return;
                QTest::qWaitForWindowExposed(opened);
                QTest::qWait(50);
                qInfo() << what << "opened" << opened->metaObject()->className() << opened->objectName() << opened->size();
                if (const QString p = fitProblem(opened); !p.isEmpty())
                    problems << what + QStringLiteral(": ") + p;
                if (auto* d = qobject_cast<QDialog*>(opened))
                    d->reject();
                else
                    opened->close();
            });
            open();
            if (!seen)
                problems << what + QStringLiteral(": no dialog opened");
        };
        const auto action = [&](const char* name) { return w.findChild<QAction*>(QLatin1String(name)); };

        checkModal(QStringLiteral("run details"), [&] { w.runs()->showDetails(runIds_.first()); });
        check(QStringLiteral("compare of three runs"), [&] {
            w.runs()->selectRuns(runIds_);
            action("compareAction")->trigger();
        });
        check(QStringLiteral("experiment"), [&] { w.openExperiment(experiment_); });
        check(QStringLiteral("sweep"), [&] { action("sweepAction")->trigger(); });
        check(QStringLiteral("cross-validation"), [&] { action("crossValidateAction")->trigger(); });
        check(QStringLiteral("data preview"), [&] { action("previewDataAction")->trigger(); });
        check(QStringLiteral("learning-rate finder"), [&] { action("findLrAction")->trigger(); });
        check(QStringLiteral("batch-size answer"), [&] { action("findBatchAction")->trigger(); });
        checkModal(QStringLiteral("settings"), [&] { action("settingsAction")->trigger(); });
        checkModal(QStringLiteral("about and devices"), [&] { action("aboutAction")->trigger(); });
        checkModal(QStringLiteral("cluster script"), [&] { action("clusterAction")->trigger(); });
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
        QVERIFY(w.close());
    }

    void numbersAreReadAsTypedInEitherLanguage_data()
    {
        QTest::addColumn<QString>("language");
        QTest::addColumn<QString>("typed");
        QTest::addColumn<double>("value");
        // Regression: in Spanish "0.05" became 5 (the '.' groups thousands there), silently.
        QTest::newRow("Spanish, a point") << QStringLiteral("es") << QStringLiteral("0.05") << 0.05;
        QTest::newRow("Spanish, a comma") << QStringLiteral("es") << QStringLiteral("0,05") << 0.05;
        QTest::newRow("English, a point") << QStringLiteral("en") << QStringLiteral("0.05") << 0.05;
        QTest::newRow("English, a comma") << QStringLiteral("en") << QStringLiteral("0,05") << 0.05;
        QTest::newRow("Spanish, a small rate") << QStringLiteral("es") << QStringLiteral("0.0003") << 0.0003;
        // Regression: "1e-3" became 1, a rate 1000 times too high (the 'e' refused key by key).
        QTest::newRow("Spanish, scientific") << QStringLiteral("es") << QStringLiteral("1e-3") << 0.001;
        QTest::newRow("English, scientific") << QStringLiteral("en") << QStringLiteral("2.5E-4") << 0.00025;
        QTest::newRow("Spanish, scientific with a comma") << QStringLiteral("es") << QStringLiteral("2,5e-4") << 0.00025;
    }

    void numbersAreReadAsTypedInEitherLanguage()
    {
        QFETCH(QString, language);
        QFETCH(QString, typed);
        QFETCH(double, value);
        MainWindow w(db_, shortRun("numbers", 1, 1000), languages_);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        languages_.apply(language == QStringLiteral("es") ? QStringLiteral("en") : QStringLiteral("es"));
        languages_.apply(language); // a live switch, both ways
        auto* lr = w.findChild<QDoubleSpinBox*>(QStringLiteral("learningRateBox"));
        QVERIFY(lr);
        lr->setFocus();
        QTest::keyClick(lr, Qt::Key_A, Qt::ControlModifier);
        QTest::keyClicks(lr, typed);
        QTest::keyClick(lr, Qt::Key_Tab); // leaves the field as a person does
        QCOMPARE(lr->value(), value);
        QCOMPARE(w.configPanel()->config().optimizer.lr, value);
        // Shown back in the reader's language, without trailing zeros.
        const QString decimal = language == QStringLiteral("es") ? QStringLiteral(",") : QStringLiteral(".");
        QCOMPARE(lr->text(), QLocale().toString(value, 'g', 6).replace(QLocale().decimalPoint(), decimal));

        // Pasted: the same.
        QApplication::clipboard()->setText(QStringLiteral("0.125"));
        lr->setFocus();
        QTest::keyClick(lr, Qt::Key_A, Qt::ControlModifier);
        QTest::keyClick(lr, Qt::Key_V, Qt::ControlModifier);
        QTest::keyClick(lr, Qt::Key_Tab);
        QCOMPARE(lr->value(), 0.125);
    }

    // Regression: a 36-step run (3 epochs of 12 steps, log_every 50) piled its epoch means at step 0,
    // left the learning-rate and memory charts empty on a 35–37 axis and time per step on −50…125.
    void aShortRunFillsEveryLiveChart()
    {
        MainWindow w(db_, shortRun("short", 3, 700), languages_); // 630 training images: 10 steps an epoch
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.startTraining());
        QTRY_VERIFY_WITH_TIMEOUT(!w.controller()->isRunning(), 120000);
        w.charts()->replotNow();
        // A point for each epoch at least, where the epoch ended.
        QCOMPARE(w.charts()->trainLossPoints(), 3);
        QCOMPARE(w.charts()->learningRatePoints(), 3);
        auto* loss = w.findChild<QCustomPlot*>(QStringLiteral("lossPlot"));
        QVERIFY(loss && loss->graphCount() >= 2);
        QCOMPARE(loss->graph(1)->dataCount(), 3); // the epoch means
        QCOMPARE(loss->graph(1)->data()->at(0)->key, 10.0);
        QCOMPARE(loss->graph(1)->data()->at(2)->key, 30.0);
        QStringList problems;
        for (const char* name : {"lossPlot", "learningRatePlot", "memoryPlot", "validationPlot"}) {
            auto* plot = w.findChild<QCustomPlot*>(QLatin1String(name));
            QVERIFY2(plot, name);
            for (QCPAxis* axis : {plot->xAxis, plot->yAxis})
                if (const QString p = axisProblem(plot, axis); !p.isEmpty())
                    problems << p;
            // Few points: each is drawn as a mark, since a line through one point draws nothing.
            for (int i = 0; i < plot->graphCount(); ++i)
                if (plot->graph(i)->visible() && plot->graph(i)->dataCount() > 0 && plot->graph(i)->dataCount() < 20 &&
                    plot->graph(i)->scatterStyle().isNone())
                    problems << QStringLiteral("%1: graph %2 of %3 points has no marks")
                                    .arg(QLatin1String(name))
                                    .arg(i)
                                    .arg(plot->graph(i)->dataCount());
        }
        auto* times = w.findChild<QCustomPlot*>(QStringLiteral("stepTimePlot"));
        QVERIFY(times);
        if (const QString p = axisProblem(times, times->xAxis); !p.isEmpty())
            problems << p;
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
        QVERIFY(w.close());
    }

    // Issue 29, item 6: messages that named the wrong thing, or showed LibTorch's backtrace.
    void messagesSayWhatIsWrongInTheFormsWords()
    {
        MainWindow w(db_, shortRun("messages", 1, 1000), languages_);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        RunConfigPanel* form = w.configPanel();
        auto* problem = w.findChild<QLabel*>(QStringLiteral("formProblem"));
        auto* dataset = w.findChild<QComboBox*>(QStringLiteral("datasetCombo"));
        auto* path = w.findChild<QLineEdit*>(QStringLiteral("dataPathEdit"));
        QVERIFY(problem && dataset && path);

        // An image folder, no folder chosen yet: "«Folder» must «Run name» the folder…" (the word
        // "name" taken for the run name's key).
        dataset->setCurrentIndex(dataset->findData(QStringLiteral("image-folder")));
        path->clear();
        QTRY_VERIFY(problem->isVisible());
        QVERIFY2(problem->text().contains(QStringLiteral("«Folder» must name the folder")) &&
                     !problem->text().contains(QStringLiteral("«Run name»")),
                 qPrintable(problem->text()));

        // A folder that holds no images: the form has read it for the model's size, and says so above a
        // disabled Start (the run was offered, then failed at once).
        path->setText(dir_.path());
        QTRY_VERIFY2(problem->text().contains(QStringLiteral("The data cannot be read")), qPrintable(problem->text()));
        QVERIFY(!w.findChild<QPushButton*>(QStringLiteral("startButton"))->isEnabled());

        // A folder of images kept when the data set becomes a CSV table: read as an "empty" CSV file.
        dataset->setCurrentIndex(dataset->findData(QStringLiteral("csv")));
        QVERIFY2(path->text() != dir_.path(), qPrintable(path->text()));

        // The CNN still chosen for a table: the summary says so in words, without a backtrace.
        QFile table(dir_.filePath(QStringLiteral("wine.csv")));
        QVERIFY(table.open(QIODevice::WriteOnly));
        table.write("a,b,c,label\n");
        for (int i = 0; i < 60; ++i)
            table.write(QStringLiteral("%1,%2,%3,%4\n").arg(i % 3).arg(i % 5).arg(i % 7).arg(i % 3).toUtf8());
        table.close();
        RunConfig cnn = form->config();
        cnn.data.dataset = DatasetKind::Csv;
        cnn.data.path = table.fileName().toStdString();
        cnn.model.arch = ModelArch::Cnn;
        form->setConfig(cnn);
        auto* summary = w.findChild<QLabel*>(QStringLiteral("modelSummary"));
        QTRY_VERIFY(!summary->text().startsWith(QStringLiteral("Reading")));
        QVERIFY2(summary->text().contains(QStringLiteral("needs images")) &&
                     !summary->text().contains(QStringLiteral("frame #")) &&
                     !summary->text().contains(QStringLiteral("Exception raised")),
                 qPrintable(summary->text()));
        QTRY_VERIFY2(problem->text().contains(QStringLiteral("needs images")), qPrintable(problem->text()));

        // A label column the table does not have: named by the form's label, not as data.label_column
        // (issue 53, item 2).
        RunConfig noLabel = cnn;
        noLabel.model.arch = ModelArch::Mlp;
        noLabel.data.labelColumn = "species";
        form->setConfig(noLabel);
        QTRY_VERIFY2(problem->text().contains(QStringLiteral("no column named 'species'")), qPrintable(problem->text()));
        QVERIFY2(problem->text().contains(QStringLiteral("«Label column»")) && !problem->text().contains(QStringLiteral("data.label_column")),
                 qPrintable(problem->text()));

        // A run on a table with no test file ends without "test accuracy -100.00%".
        RunConfig mlp = cnn;
        mlp.model.arch = ModelArch::Mlp;
        mlp.model.hidden = {8};
        mlp.train.epochs = 2;
        form->setConfig(mlp);
        QVERIFY(w.startTraining());
        QTRY_VERIFY_WITH_TIMEOUT(!w.controller()->isRunning(), 60000);
        const QString status = w.statusBar()->currentMessage().isEmpty() ? w.statusBar()->findChildren<QLabel*>().value(0)->text()
                                                                         : w.statusBar()->currentMessage();
        bool shown = false;
        for (QLabel* l : w.statusBar()->findChildren<QLabel*>()) {
            QVERIFY2(!l->text().contains(QStringLiteral("-100")), qPrintable(l->text()));
            shown = shown || l->text().contains(QStringLiteral("best validation accuracy"));
        }
        QVERIFY2(shown, qPrintable(status));

        // The batch finder when memory never runs out: said in a sentence.
        BatchSizeResult everything;
        everything.batchSize = everything.trainSamples = 4096;
        everything.peakBytes = 1 << 20;
        everything.budgetBytes = 1 << 30;
        everything.budgetSource = "available memory";
        everything.hitMax = true;
        QMessageBox* answer = BatchSizeAnswer::open(&w, everything, 64, [](int64_t) {});
        QVERIFY2(answer->text().contains(QStringLiteral("Every size tried fitted, up to the whole training set")) &&
                     !answer->text().contains(QStringLiteral("training set's fitted")),
                 qPrintable(answer->text()));
        answer->close();
        QVERIFY(w.close());
    }

    // Issue 29, item 7: after a live switch to Spanish the tabs stayed English, the filters were
    // clipped ("Todos los es"), and the charts kept "0.5" beside fields that write "0,5".
    void spanishAfterALiveSwitchIsWholeAndReadable()
    {
        MainWindow w(db_, shortRun("spanish", 1, 1000), languages_);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        languages_.apply(QStringLiteral("es"));
        QTRY_COMPARE(w.lowerTabs()->tabText(0), QStringLiteral("Ejecuciones"));
        QCOMPARE(w.lowerTabs()->tabText(2), QStringLiteral("Experimentos"));
        for (const char* name : {"statusFilter", "tagFilter"}) {
            auto* filter = w.findChild<QComboBox*>(QLatin1String(name));
            QVERIFY2(filter, name);
            // Room for its text and the arrow (a size hint fixed at the first show keeps the English width).
            QTRY_VERIFY2(filter->width() >= filter->fontMetrics().horizontalAdvance(filter->currentText()) + 24,
                         qPrintable(QStringLiteral("%1: %2 px for \"%3\"")
                                        .arg(QLatin1String(name))
                                        .arg(filter->width())
                                        .arg(filter->currentText())));
        }
        auto* loss = w.findChild<QCustomPlot*>(QStringLiteral("lossPlot"));
        QTRY_COMPARE(loss->locale().decimalPoint(), QStringLiteral(","));
        languages_.apply(QStringLiteral("en"));
        QTRY_COMPARE(loss->locale().decimalPoint(), QStringLiteral("."));
        QTRY_COMPARE(w.lowerTabs()->tabText(0), QStringLiteral("Runs"));
    }

    // Issue 29, item 8: the charts follow a dark palette, but nothing offered one.
    void settingsOfferADarkAppearanceThatStays()
    {
        MainWindow w(db_, shortRun("dark", 1, 1000), languages_);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        bool chosen = false;
        QTimer::singleShot(0, this, [&] {
            auto* dialog = qobject_cast<QDialog*>(waitForWindow({&w}));
            if (!dialog)
                return;
            auto* theme = dialog->findChild<QComboBox*>(QStringLiteral("themeCombo"));
            if (theme) {
                theme->setCurrentIndex(theme->findData(QStringLiteral("dark")));
                chosen = true;
            }
            dialog->accept();
        });
        w.findChild<QAction*>(QStringLiteral("settingsAction"))->trigger();
        QVERIFY(chosen);
        QVERIFY(QApplication::palette().color(QPalette::Base).lightness() < 128);
        QCOMPARE(QSettings().value(QStringLiteral("ui/theme")).toString(), QStringLiteral("dark"));
        auto* loss = w.findChild<QCustomPlot*>(QStringLiteral("lossPlot"));
        QTRY_VERIFY(loss->xAxis->tickLabelColor().lightness() > 128); // the charts follow: light text on dark
        applyTheme(QString());
        QSettings().remove(QStringLiteral("ui/theme"));
        QVERIFY(w.close());
    }
};

int main(int argc, char** argv)
{
    // A laptop's screen for the offscreen platform (its own default is 800×800).
    QTemporaryDir screens;
    const QString platform = offscreenPlatformWithScreen(screens.filePath(QStringLiteral("screens.json")), kScreen);
    if (platform.isEmpty())
        return 2;
    qputenv("QT_QPA_PLATFORM", platform.toUtf8());
    QApplication app(argc, argv);
    TestNewUser test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_new_user.moc"
