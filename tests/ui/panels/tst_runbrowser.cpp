// The runs list: the issue's columns, numeric sorting, tag filter, the column chooser with
// hyper-parameter columns, the live indicator, and selection kept across refreshes.
#include "RunTableModel.h"
#include "entrena/store/RunStore.h"
#include "panels/RunsPanel.h"
#include "runs/RunFilterProxy.h"
#include "runs/RunNaming.h"

#include <QHeaderView>
#include <QMenu>
#include <QPainter>
#include <QStyleOptionHeader>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

using namespace entrena;
using namespace entrena::ui;
using Col = entrena::app::RunTableModel::Column;

class TestRunBrowser : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;
    QString db_;
    QList<int64_t> ids_;

    static QString cell(QTableView* view, int row, int column) { return view->model()->index(row, column).data().toString(); }

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        qputenv("XDG_CONFIG_HOME", dir_.filePath(QStringLiteral("config")).toUtf8()); // fresh settings
        db_ = dir_.filePath(QStringLiteral("browser.sqlite"));
        RunStore store(db_.toStdString());
        // Accuracies chosen so that text order and number order differ (100% < 9% as text).
        const double accuracies[] = {0.09, 1.0, 0.5};
        const char* lrs[] = {"0.1", "0.01", "0.5"};
        for (int i = 0; i < 3; ++i) {
            const std::string config = std::string(R"({"data": {"dataset": "fashion-mnist"}, "model": {"arch": "mlp"},)") +
                                       R"("optimizer": {"name": "sgd", "lr": )" + lrs[i] +
                                       R"(}, "scheduler": {"name": "one_cycle"}})";
            const int64_t id = store.createRun("run " + std::to_string(i), config, "{}");
            store.addMetric(id, "memory_bytes", 1, 1, (i + 1) * 1048576.0 * 100);
            EndEvent end;
            end.bestValAccuracy = accuracies[i];
            end.seconds = 10;
            store.finishRun(id, RunStatus::Finished, end, 0.5);
            ids_ << id;
        }
        store.setTags(ids_[0], {"baseline"});
        store.setTags(ids_[2], {"baseline", "cnn"});
    }

    void columnsShowWhatTheIssueAsks()
    {
        RunsPanel panel;
        QCOMPARE(panel.open(db_), QString());
        auto* view = panel.findChild<QTableView*>(QStringLiteral("runsView"));
        QVERIFY(view);
        const auto* model = panel.model();
        QStringList headers;
        for (int c = 0; c < model->columnCount(); ++c)
            headers << model->headerData(c, Qt::Horizontal).toString();
        for (const char* h : {"Name", "Status", "Data set", "Model", "Optimizer", "Scheduler", "Best val. accuracy", "Final loss",
                              "Duration", "Samples/s", "Peak memory", "Tags", "Created"})
            QVERIFY2(headers.contains(QLatin1String(h)), h);
        const int row = model->rowOf(ids_[2]);
        QCOMPARE(model->index(row, Col::Dataset).data().toString(), QStringLiteral("Fashion-MNIST")); // the form's name
        QCOMPARE(model->index(row, Col::Scheduler).data().toString(), QStringLiteral("One-cycle"));   // not one_cycle
        QCOMPARE(model->index(row, Col::Optimizer).data().toString(), QStringLiteral("SGD"));
        QCOMPARE(model->index(row, Col::PeakMemory).data().toString(), QStringLiteral("300 MiB"));
    }

    void theAccuraciesStandBesideTheNameAndStayThere()
    {
        RunsPanel panel;
        QCOMPARE(panel.open(db_), QString());
        auto* view = panel.findChild<QTableView*>(QStringLiteral("runsView"));
        QVERIFY(view);
        const auto order = [view] {
            QList<int> logical;
            for (int v = 0; v < 6; ++v)
                logical << view->horizontalHeader()->logicalIndex(v);
            return logical;
        };
        const QList<int> expected{Col::Id, Col::Name, Col::Status, Col::BestValAccuracy, Col::TestAccuracy, Col::Dataset};
        QCOMPARE(order(), expected);
        QVERIFY(view->horizontalHeader()->sectionsMovable());
        panel.refresh(); // the model is reset: the order stays
        panel.setParameterColumns({QStringLiteral("optimizer.lr")});
        QCOMPARE(order(), expected);
        panel.setParameterColumns({});
        // The column chooser lists them in the same order.
        std::unique_ptr<QMenu> menu(panel.columnMenu(nullptr));
        QStringList listed;
        for (QAction* a : menu->actions())
            if (!a->menu())
                listed << a->text();
        QCOMPARE(listed.mid(0, 6), (QStringList{"ID", "Name", "Status", "Best val. accuracy", "Test accuracy", "Data set"}));
    }

    void theHeadersAreReadableBeforeAnyRun()
    {
        RunsPanel panel;
        QCOMPARE(panel.open(dir_.filePath(QStringLiteral("empty.sqlite"))), QString());
        auto* view = panel.findChild<QTableView*>(QStringLiteral("runsView"));
        QVERIFY(view);
        const QFontMetrics metrics(view->horizontalHeader()->font());
        for (int c : {Col::Name, Col::BestValAccuracy, Col::TestAccuracy, Col::PeakMemory}) {
            const QString text = panel.model()->headerData(c, Qt::Horizontal).toString();
            QVERIFY2(view->columnWidth(c) >= metrics.horizontalAdvance(text), qPrintable(text));
        }
    }

    void baselineColumnsShowSpeedUpAndFlagAFasterWorseRun()
    {
        const QString db = dir_.filePath(QStringLiteral("baseline.sqlite"));
        QList<int64_t> ids;
        {
            RunStore store(db.toStdString());
            // Baseline: 88% after 30 s. Then a run reaching it in 4 s but ending 2 points worse.
            const double acc[2][3] = {{0.80, 0.85, 0.88}, {0.88, 0.85, 0.85}};
            const double secs[2] = {10, 2};
            const double test[2] = {0.87, 0.85};
            for (int r = 0; r < 2; ++r) {
                const int64_t id = store.createRun(r == 0 ? "base" : "fast", R"({"data": {"dataset": "fashion-mnist"}})", "{}");
                for (int e = 0; e < 3; ++e) {
                    store.addMetric(id, "val_accuracy", e + 1, e + 1, acc[r][e]);
                    store.addMetric(id, "epoch_seconds", e + 1, e + 1, secs[r]);
                }
                EndEvent end;
                end.bestValAccuracy = acc[r][2];
                end.testAccuracy = test[r];
                end.seconds = 3 * secs[r];
                store.finishRun(id, RunStatus::Finished, end, 0.5);
                ids << id;
            }
        }
        RunsPanel panel;
        QCOMPARE(panel.open(db), QString());
        auto* model = panel.model();
        QVERIFY(model->index(0, Col::SpeedUp).data().toString().isEmpty()); // no baseline yet
        QCOMPARE(model->setBaseline(ids[0], true), QString());
        const int base = model->rowOf(ids[0]), fast = model->rowOf(ids[1]);
        QCOMPARE(model->index(base, Col::SpeedUp).data().toString(), QStringLiteral("baseline"));
        QCOMPARE(model->index(fast, Col::SpeedUp).data().toString(), QLocale().toString(15.0, 'f', 2) + QStringLiteral("×"));
        QCOMPARE(model->index(fast, Col::SpeedUp).data(Qt::EditRole).toDouble(), 15.0); // sorts as a number
        const QString delta = model->index(fast, Col::DeltaAccuracy).data().toString();
        QVERIFY2(delta.startsWith(QStringLiteral("⚠")) && delta.contains(QLocale().toString(2.0, 'f', 2)), qPrintable(delta));
        QVERIFY(model->index(fast, Col::DeltaAccuracy).data(Qt::ToolTipRole).toString().contains(QStringLiteral("Warning")));
        // A tolerance of 3 points lets it pass; clearing the baseline clears the columns.
        model->setBaselineTolerance(0.03);
        QVERIFY(!model->index(fast, Col::DeltaAccuracy).data().toString().startsWith(QStringLiteral("⚠")));
        QCOMPARE(model->setBaseline(ids[0], false), QString());
        QVERIFY(model->index(model->rowOf(ids[1]), Col::SpeedUp).data().toString().isEmpty());
        // A run that is not finished cannot be one.
        QVERIFY(!model->setBaseline(12345, true).isEmpty());
    }

    void accuracySortsAsANumber()
    {
        RunsPanel panel;
        QCOMPARE(panel.open(db_), QString());
        auto* view = panel.findChild<QTableView*>(QStringLiteral("runsView"));
        view->sortByColumn(Col::BestValAccuracy, Qt::AscendingOrder);
        QCOMPARE(cell(view, 0, Col::BestValAccuracy), QLocale().toString(9.0, 'f', 2) + QLatin1Char('%'));
        QCOMPARE(cell(view, 2, Col::BestValAccuracy), QLocale().toString(100.0, 'f', 2) + QLatin1Char('%'));
    }

    void tagFilterAndParameterColumns()
    {
        RunsPanel panel;
        QCOMPARE(panel.open(db_), QString());
        panel.setTagFilter(QStringLiteral("baseline"));
        QCOMPARE(panel.visibleRows(), 2);
        panel.setTagFilter(QStringLiteral("cnn"));
        QCOMPARE(panel.visibleRows(), 1);
        panel.setTagFilter(QString());
        QCOMPARE(panel.visibleRows(), 3);

        // The chooser lists every hyper-parameter; choosing one adds a column that sorts numerically.
        std::unique_ptr<QMenu> menu(panel.columnMenu(nullptr));
        QMenu* parameters = nullptr;
        for (QAction* a : menu->actions())
            if (a->menu())
                parameters = a->menu();
        QVERIFY(parameters);
        QAction* lr = nullptr;
        for (QAction* a : parameters->actions())
            if (a->text() == QLatin1String("optimizer.lr"))
                lr = a;
        QVERIFY(lr);
        lr->setChecked(true);
        const int column = Col::ColumnCount;
        QCOMPARE(panel.model()->headerData(column, Qt::Horizontal).toString(), QStringLiteral("optimizer.lr"));
        auto* view = panel.findChild<QTableView*>(QStringLiteral("runsView"));
        view->sortByColumn(column, Qt::DescendingOrder);
        QCOMPARE(cell(view, 0, column), QStringLiteral("0.5"));
        QCOMPARE(cell(view, 2, column), QStringLiteral("0.01"));
        // Hiding a fixed column, and both choices remembered by the next panel.
        panel.setColumnVisible(Col::Scheduler, false);
        RunsPanel again;
        QCOMPARE(again.open(db_), QString());
        QCOMPARE(again.model()->parameterColumns(), QStringList{QStringLiteral("optimizer.lr")});
        QVERIFY(again.findChild<QTableView*>(QStringLiteral("runsView"))->isColumnHidden(Col::Scheduler));
        again.setParameterColumns({});
        again.setColumnVisible(Col::Scheduler, true);
    }

    // Newest first is a descending sort, and its indicator must point down: QHeaderView hands the
    // style "SortUp" for descending, which Fusion draws as ▲.
    void sortIndicatorPointsTheWayTheOrderReads()
    {
        RunsPanel panel;
        QCOMPARE(panel.open(db_), QString());
        auto* view = panel.findChild<QTableView*>(QStringLiteral("runsView"));
        QHeaderView* header = view->horizontalHeader();
        QCOMPARE(header->sortIndicatorOrder(), Qt::DescendingOrder);
        // A wide first row points down (▼), a wide last row up (▲).
        auto inkTopMinusBottom = [&] {
            QStyleOptionHeader option;
            option.initFrom(header);
            option.rect = QRect(0, 0, 24, 24);
            option.sortIndicator = QStyleOptionHeader::SortUp; // what QHeaderView passes for descending
            QImage image(24, 24, QImage::Format_ARGB32);
            image.fill(Qt::transparent);
            QPainter painter(&image);
            header->style()->drawPrimitive(QStyle::PE_IndicatorHeaderArrow, &option, &painter, header);
            painter.end();
            QVector<int> rows; // ink per row, from the arrow's first row to its last
            for (int y = 0; y < 24; ++y) {
                int ink = 0;
                for (int x = 0; x < 24; ++x)
                    ink += qAlpha(image.pixel(x, y)) > 60 ? 1 : 0;
                if (ink > 0 || !rows.isEmpty())
                    rows << ink;
            }
            while (!rows.isEmpty() && rows.back() == 0)
                rows.pop_back();
            return rows.size() < 2 ? 0 : rows.front() - rows.back();
        };
        QVERIFY2(inkTopMinusBottom() > 0, "descending draws ▼");
        view->sortByColumn(Col::Id, Qt::AscendingOrder);
        QVERIFY2(inkTopMinusBottom() < 0, "ascending draws ▲");
    }

    // The status column is sized while the runs are finished; a run that starts later still fits.
    void statusColumnFitsEveryStatus()
    {
        RunsPanel panel;
        QCOMPARE(panel.open(db_), QString());
        auto* view = panel.findChild<QTableView*>(QStringLiteral("runsView"));
        for (RunStatus s : {RunStatus::Running, RunStatus::Interrupted, RunStatus::Diverged})
            QVERIFY2(view->columnWidth(Col::Status) >=
                         view->fontMetrics().horizontalAdvance(app::RunTableModel::statusText(s)) + 6,
                     toString(s));
    }

    // Runs started from one form are told apart by what differs from the latest of that name.
    void newRunsAreNamedByWhatDiffers()
    {
        const QString a =
            QStringLiteral(R"({"name": "fmnist-mlp", "optimizer": {"name": "sgd", "lr": 0.05}, "data": {"batch_size": 128}})");
        const QString b =
            QStringLiteral(R"({"name": "fmnist-mlp", "optimizer": {"name": "sgd", "lr": 0.01}, "data": {"batch_size": 256}})");
        QVector<NamedRun> runs;
        QCOMPARE(nameForNewRun(QStringLiteral("fmnist-mlp"), a, runs), QStringLiteral("fmnist-mlp")); // a new name stays
        runs.push_back({1, QStringLiteral("fmnist-mlp"), a});
        const QString second = nameForNewRun(QStringLiteral("fmnist-mlp"), b, runs);
        QCOMPARE(second, QStringLiteral("fmnist-mlp · batch_size 256, lr 0.01"));
        runs.push_back({2, second, b});
        // The same settings as the latest run of the name: a number, never a name already taken.
        QCOMPARE(nameForNewRun(QStringLiteral("fmnist-mlp"), b, runs), QStringLiteral("fmnist-mlp #3"));
        runs.push_back({3, QStringLiteral("fmnist-mlp #3"), b});
        // Run again from a derived name compares with the latest of the same base, not its own suffix.
        QCOMPARE(nameForNewRun(second, a, runs), QStringLiteral("fmnist-mlp · batch_size 128, lr 0.05"));
        QCOMPARE(nameForNewRun(QStringLiteral("other"), a, runs), QStringLiteral("other"));
    }

    void runningRunPulsesAndRefreshKeepsTheSelection()
    {
        RunsPanel panel;
        QCOMPARE(panel.open(db_), QString());
        panel.selectRuns({ids_[0], ids_[2]});
        // A run starts in another process (here: another connection).
        int64_t live = 0;
        {
            RunStore writer(db_.toStdString());
            live = writer.createRun("live", "{}", "{}");
        }
        panel.refresh();
        QCOMPARE(panel.selectedRunIds().size(), 2);
        auto* view = panel.findChild<QTableView*>(QStringLiteral("runsView"));
        auto* proxy = qobject_cast<RunFilterProxy*>(view->model());
        QVERIFY(proxy);
        int row = -1;
        for (int r = 0; r < proxy->rowCount(); ++r)
            if (proxy->index(r, Col::Id).data().toLongLong() == live)
                row = r;
        QVERIFY(row >= 0);
        const QModelIndex status = proxy->index(row, Col::Status);
        QVERIFY(status.data(Qt::DecorationRole).value<QIcon>().isNull() == false);
        QVERIFY(proxy->index(row == 0 ? 1 : 0, Col::Status).data(Qt::DecorationRole).isNull()); // finished: no dot
        const bool phase = proxy->pulse();
        QTRY_VERIFY_WITH_TIMEOUT(proxy->pulse() != phase, 3000);
        RunStore(db_.toStdString()).finishRun(live, RunStatus::Finished, EndEvent{}, std::nullopt);
    }

    // A run started after the columns were fitted, with a longer name than any before it, is not cut short.
    void aLaterLongerNameWidensTheNameColumn()
    {
        RunsPanel panel;
        QCOMPARE(panel.open(db_), QString());
        panel.resize(800, 300); // shown, as in the window: a shown view's size hints wrap text to its width
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        auto* view = panel.findChild<QTableView*>(QStringLiteral("runsView"));
        const int before = view->columnWidth(Col::Name);
        const QString name = QStringLiteral("run 0 · batch_size 256, lr 0.01, momentum 0.9");
        const int64_t id = RunStore(db_.toStdString()).createRun(name.toStdString(), "{}", "{}");
        panel.refresh();
        auto* proxy = view->model();
        int row = -1;
        for (int r = 0; r < proxy->rowCount(); ++r)
            if (proxy->index(r, Col::Id).data().toLongLong() == id)
                row = r;
        QVERIFY(row >= 0);
        QVERIFY(view->columnWidth(Col::Name) > before);
        QVERIFY(view->columnWidth(Col::Name) >= view->fontMetrics().horizontalAdvance(name));
        QCOMPARE(view->rowHeight(row), view->verticalHeader()->defaultSectionSize()); // one line, not wrapped
        RunStore(db_.toStdString()).finishRun(id, RunStatus::Finished, EndEvent{}, std::nullopt);
    }
};

QTEST_MAIN(TestRunBrowser)
#include "tst_runbrowser.moc"
