// The runs list: the issue's columns, numeric sorting, tag filter, the column chooser with
// hyper-parameter columns, the live indicator, and selection kept across refreshes.
#include "RunTableModel.h"
#include "entrena/RunStore.h"
#include "panels/RunFilterProxy.h"
#include "panels/RunsPanel.h"

#include <QMenu>
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
        QCOMPARE(model->index(row, Col::Dataset).data().toString(), QStringLiteral("fashion-mnist"));
        QCOMPARE(model->index(row, Col::Scheduler).data().toString(), QStringLiteral("one_cycle"));
        QCOMPARE(model->index(row, Col::PeakMemory).data().toString(), QStringLiteral("300 MiB"));
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
};

QTEST_MAIN(TestRunBrowser)
#include "tst_runbrowser.moc"
