// What a finished model gets wrong, as the GUI shows it: run details' Evaluation tab (the
// confusion matrix's heatmap, the per-class table, the most confidently wrong pictures, the
// sentence for a run without one) and the compare view's per-class recall side by side. The
// runs are written into a store directly, with evaluations whose every count is known.
#include "charts/ConfusionMatrixChart.h"
#include "compare/CompareView.h"
#include "compare/PerClassComparison.h"
#include "dialogs/EvaluationTab.h"
#include "dialogs/RunDetailsDialog.h"
#include "entrena/store/RunStore.h"

#include <QAbstractButton>
#include <QHeaderView>
#include <QImage>
#include <QLabel>
#include <QLocale>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

using namespace entrena;
using namespace entrena::ui;

namespace {

/// Three classes, one with a name too long for a tick label; rows are the true class.
EvaluationReport threeClasses()
{
    EvaluationReport e;
    e.split = "test";
    e.classes = {"cat", "dog", "a bird with a very long name"};
    e.confusion = {{50, 3, 2}, {10, 35, 5}, {0, 1, 1234}};
    for (std::size_t k = 0; k < 3; ++k) {
        int64_t row = 0, column = 0;
        for (std::size_t j = 0; j < 3; ++j) {
            row += e.confusion[k][j];
            column += e.confusion[j][k];
        }
        e.perClass.push_back(
            {e.classes[k], double(e.confusion[k][k]) / double(column), double(e.confusion[k][k]) / double(row), row});
    }
    return e;
}

int64_t finishedRun(RunStore& store, const std::string& name, const EvaluationReport& evaluation)
{
    const int64_t id = store.createRun(name, R"({"data": {"dataset": "image-folder"}, "model": {"arch": "cnn"}})", "{}");
    EndEvent end;
    end.testAccuracy = 0.9;
    end.bestValAccuracy = 0.9;
    end.seconds = 3;
    end.evaluation = evaluation;
    store.finishRun(id, RunStatus::Finished, end, 0.3);
    return id;
}

EvaluationTab* evaluationTab(RunDetailsDialog& dialog)
{
    return dialog.findChild<EvaluationTab*>(QStringLiteral("evaluationTab"));
}

} // namespace

class TestEvaluation : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;

private Q_SLOTS:
    void heatmapShowsTheStoredCountsAndClassNames()
    {
        RunStore store(dir_.filePath(QStringLiteral("matrix.sqlite")).toStdString());
        const int64_t id = finishedRun(store, "three", threeClasses());
        // What the tab draws is what the store holds, read back.
        const EvaluationReport stored = evaluationFromJson(store.findRun(std::to_string(id))->evaluationJson);
        QCOMPARE(stored.confusion, threeClasses().confusion);

        RunDetailsDialog dialog(store, id);
        EvaluationTab* tab = evaluationTab(dialog);
        QVERIFY(tab);
        QVERIFY(!tab->emptyNote());
        ConfusionMatrixChart* matrix = tab->matrix();
        QVERIFY(matrix);
        QCOMPARE(matrix->classCount(), 3);
        const QLocale locale;
        for (int t = 0; t < 3; ++t) {
            int64_t row = 0;
            for (int p = 0; p < 3; ++p)
                row += stored.confusion[std::size_t(t)][std::size_t(p)];
            for (int p = 0; p < 3; ++p) {
                const int64_t count = stored.confusion[std::size_t(t)][std::size_t(p)];
                QCOMPARE(matrix->cellText(t, p), locale.toString(qlonglong(count)));
                // The colour is the cell's share of its row (a class's recall on the diagonal).
                QVERIFY(std::abs(matrix->mapShare(t, p) - double(count) / double(row)) < 1e-9);
            }
        }
        const QStringList names{QStringLiteral("cat"), QStringLiteral("dog"),
                                ConfusionMatrixChart::shortName(QStringLiteral("a bird with a very long name"))};
        QVERIFY(names[2].endsWith(QChar(0x2026)) && names[2].size() < 20);
        QCOMPARE(matrix->axisLabels(Qt::Vertical), names);   // rows: the true classes
        QCOMPARE(matrix->axisLabels(Qt::Horizontal), names); // columns: the predicted ones
        QVERIFY(matrix->xAxis->label().contains(QStringLiteral("Predicted")));
        QVERIFY(matrix->yAxis->label().contains(QStringLiteral("True")));

        // Hovering a cell names both classes in full.
        matrix->resize(600, 500);
        matrix->replot();
        const QPointF cell(matrix->xAxis->coordToPixel(2), matrix->yAxis->coordToPixel(1));
        const QString hover = matrix->hoverText(cell);
        QVERIFY2(hover.contains(QStringLiteral("a bird with a very long name")) && hover.contains(QStringLiteral("dog")),
                 qPrintable(hover));
        // Clicking it asks for that pair's samples (true dog, predicted the bird); outside, nothing.
        QSignalSpy clicked(matrix, &ConfusionMatrixChart::cellClicked);
        QTest::mouseClick(matrix, Qt::LeftButton, {}, cell.toPoint());
        QCOMPARE(clicked.size(), 1);
        QCOMPARE(clicked.first().value(0).toInt(), 1);
        QCOMPARE(clicked.first().value(1).toInt(), 2);
        QCOMPARE(matrix->cellCentre(1, 2), cell.toPoint());
        QTest::mouseClick(matrix, Qt::LeftButton, {}, QPoint(1, 1));
        QCOMPARE(clicked.size(), 1);
        // An empty cell (no bird taken for a cat) offers nothing to see.
        QTest::mouseClick(matrix, Qt::LeftButton, {}, matrix->cellCentre(2, 0));
        QCOMPARE(clicked.size(), 1);
        QVERIFY(!matrix->hoverText(matrix->cellCentre(2, 0)).contains(QStringLiteral("Click")));
        QVERIFY(matrix->hoverText(cell).contains(QStringLiteral("Click")));
    }

    void perClassTableHasARowPerClassAndSortsByNumber()
    {
        RunStore store(dir_.filePath(QStringLiteral("table.sqlite")).toStdString());
        const EvaluationReport e = threeClasses();
        const int64_t id = finishedRun(store, "three", e);
        RunDetailsDialog dialog(store, id);
        QTableWidget* table = evaluationTab(dialog)->perClassTable();
        QVERIFY(table);
        QCOMPARE(table->rowCount(), 3);
        const QLocale locale;
        for (int r = 0; r < 3; ++r) {
            const ClassScore& s = e.perClass[std::size_t(r)];
            QCOMPARE(table->item(r, 0)->text(), QString::fromStdString(s.name));
            QCOMPARE(table->item(r, 1)->text(), locale.toString(s.precision * 100, 'f', 1));
            QCOMPARE(table->item(r, 2)->text(), locale.toString(s.recall * 100, 'f', 1));
            QCOMPARE(table->item(r, 3)->text(), locale.toString(qlonglong(s.support)));
        }
        // Support 55, 50, 1235: by number, not by text ("1,235" < "50" as text).
        table->sortByColumn(3, Qt::AscendingOrder);
        QCOMPARE(table->item(0, 0)->text(), QStringLiteral("dog"));
        QCOMPARE(table->item(2, 0)->text(), QStringLiteral("a bird with a very long name"));
        table->sortByColumn(0, Qt::AscendingOrder); // the class column: label order
        QCOMPARE(table->item(0, 0)->text(), QStringLiteral("cat"));
    }

    void runWithoutEvaluationSaysSoInASentence()
    {
        RunStore store(dir_.filePath(QStringLiteral("empty.sqlite")).toStdString());
        const int64_t id = store.createRun("old", R"({"seed": 1})", "{}");
        EndEvent end;
        store.finishRun(id, RunStatus::Failed, end, {});
        RunDetailsDialog dialog(store, id);
        EvaluationTab* tab = evaluationTab(dialog);
        QVERIFY(tab);
        QVERIFY(!tab->matrix());
        QVERIFY(!tab->perClassTable());
        QVERIFY(tab->emptyNote());
        QVERIFY2(tab->emptyNote()->text().contains(QStringLiteral("no evaluation")), qPrintable(tab->emptyNote()->text()));
    }

    void wrongPicturesAreShownEnlargedAndCaptioned()
    {
        // A 4×4 picture: enlarged by a whole factor, each source pixel a sharp square.
        QImage picture(4, 4, QImage::Format_RGB32);
        picture.fill(Qt::white);
        picture.setPixel(0, 0, qRgb(255, 0, 0));
        const QString path = dir_.filePath(QStringLiteral("wrong-1.png"));
        QVERIFY(picture.save(path));
        EvaluationReport e = threeClasses();
        e.wrong.push_back({7, 1, 0, 0.973, path.toStdString()});
        e.wrong.push_back({9, 2, 1, 0.91, dir_.filePath(QStringLiteral("gone.png")).toStdString()});
        EvaluationTab tab(e);
        QCOMPARE(tab.wrongShown(), 2);
        QStringList captions;
        QList<QPixmap> pixmaps;
        for (QLabel* l : tab.findChildren<QLabel*>())
            if (l->objectName() == QLatin1String("wrongCaption"))
                captions << l->text();
        QCOMPARE(tab.wrongButtons().size(), 2);
        for (QAbstractButton* b : tab.wrongButtons())
            if (!b->icon().isNull())
                pixmaps << b->icon().pixmap(QSize(96, 96));
        QVERIFY2(captions.first().contains(QStringLiteral("dog → cat")), qPrintable(captions.join(QLatin1Char('|'))));
        QVERIFY(captions.first().contains(QLocale().toString(97.3, 'f', 1)));
        QCOMPARE(pixmaps.size(), 1); // the missing file shows a word, not an empty square
        const QImage shown = pixmaps.first().toImage();
        QCOMPARE(shown.size(), QSize(96, 96));
        QCOMPARE(shown.pixel(23, 23), qRgb(255, 0, 0)); // nearest neighbour: no blur into the white
        QCOMPARE(shown.pixel(24, 24), qRgb(255, 255, 255));
        // A picture clicked asks for its pair's samples, with that sample to select.
        QSignalSpy wanted(&tab, &EvaluationTab::samplesWanted);
        QTest::mouseClick(tab.wrongButtons().first(), Qt::LeftButton);
        QCOMPARE(wanted.size(), 1);
        QCOMPARE(wanted.first().value(0).toInt(), 1);
        QCOMPARE(wanted.first().value(1).toInt(), 0);
        QCOMPARE(wanted.first().value(2).toLongLong(), qint64(7));
    }

    void compareShowsPerClassRecallOfTheSharedClasses()
    {
        const QString db = dir_.filePath(QStringLiteral("compare.sqlite"));
        RunStore store(db.toStdString());
        const EvaluationReport a = threeClasses();
        EvaluationReport b = a; // another run: better at dogs, and a fourth class
        b.classes.push_back("fish");
        b.confusion = {{40, 10, 5, 0}, {2, 47, 1, 0}, {0, 0, 1235, 0}, {0, 0, 0, 9}};
        b.perClass = {{"cat", 0.95, 40.0 / 55.0, 55},
                      {"dog", 0.8, 47.0 / 50.0, 50},
                      {"a bird with a very long name", 0.99, 1.0, 1235},
                      {"fish", 1.0, 1.0, 9}};
        const int64_t first = finishedRun(store, "a", a), second = finishedRun(store, "b", b);
        const int64_t none = store.createRun("unfinished", R"({"seed": 1})", "{}");

        CompareView view(db, {first, second, none});
        QTRY_VERIFY_WITH_TIMEOUT(view.isLoaded(), 30000);
        PerClassComparison* page = view.perClassPage();
        QTableWidget* table = page->table();
        QCOMPARE(table->rowCount(), 3); // fish is not in the first run
        QCOMPARE(table->columnCount(), 4);
        QCOMPARE(table->item(1, 0)->text(), QStringLiteral("dog"));
        const QLocale locale;
        QCOMPARE(table->item(1, 1)->text(), locale.toString(35.0 / 50.0 * 100, 'f', 1));
        QCOMPARE(table->item(1, 2)->text(), locale.toString(47.0 / 50.0 * 100, 'f', 1));
        QCOMPARE(table->item(1, 3)->text(), QStringLiteral("–"));
        // The best of each row is marked as the summary marks it.
        QVERIFY(table->item(0, 1)->data(Qt::UserRole).toBool()); // cat: a's 90.9 > b's 72.7
        QVERIFY(!table->item(0, 2)->data(Qt::UserRole).toBool());
        QVERIFY(table->item(1, 2)->data(Qt::UserRole).toBool()); // dog: b
        QVERIFY(table->item(1, 2)->font().bold());
        QVERIFY2(page->note().contains(QStringLiteral("different classes")), qPrintable(page->note()));
        QVERIFY2(page->note().contains(QStringLiteral("unfinished")), qPrintable(page->note()));
    }
};

QTEST_MAIN(TestEvaluation)
#include "tst_evaluation.moc"
