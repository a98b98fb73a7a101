// A run's "Try it" tab: the model on the user's own image or table row gives the probabilities that
// `entrena-cli predict` gives for the same input, shows the image as the model saw it, and says
// what is wrong with an input it cannot use. A confusion-matrix cell clicked, or a wrong example,
// opens as the samples of that pair with their original files (images) or lines (tables).
#include "../../tools/FashionFolder.h"
#include "charts/ConfusionMatrixChart.h"
#include "dialogs/CellSamplesDialog.h"
#include "dialogs/EvaluationTab.h"
#include "dialogs/RunDetailsDialog.h"
#include "dialogs/TryModelTab.h"
#include "entrena/store/RunStore.h"
#include "widgets/ProbabilityBars.h"

#include <QAbstractButton>
#include <QApplication>
#include <QClipboard>
#include <QDesktopServices>
#include <QDirIterator>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

using namespace entrena;
using namespace entrena::ui;

namespace {

/// Catches what the desktop would be asked to open (QDesktopServices' handler of file URLs).
class OpenedFiles : public QObject {
    Q_OBJECT
public:
    QList<QUrl> urls;
public Q_SLOTS:
    void open(const QUrl& url) { urls << url; }
};

QByteArray cli(const QStringList& args)
{
    QProcess p;
    p.start(QStringLiteral(ENTRENA_CLI), args);
    p.waitForFinished(300000);
    if (p.exitCode() != 0)
        qWarning() << p.readAllStandardError();
    return p.readAllStandardOutput();
}

void writeFile(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(bytes);
}

/// The bars' classes and probabilities against predict --json's first prediction.
void compareWithPredict(const ProbabilityBars* bars, const QByteArray& json)
{
    const QJsonArray top = QJsonDocument::fromJson(json)
                               .object()
                               .value(QStringLiteral("predictions"))
                               .toArray()
                               .first()
                               .toObject()
                               .value(QStringLiteral("top"))
                               .toArray();
    QCOMPARE(bars->bars().size(), top.size());
    QVERIFY(!top.isEmpty());
    for (qsizetype i = 0; i < top.size(); ++i) {
        QCOMPARE(bars->bars()[i].name, top[i].toObject().value(QStringLiteral("class")).toString());
        QVERIFY(std::abs(bars->bars()[i].probability - top[i].toObject().value(QStringLiteral("probability")).toDouble()) < 1e-9);
    }
}

} // namespace

class TestTryModel : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;
    QString db_;
    qint64 imageRun_ = 0, tableRun_ = 0;

    QString path(const QString& name) const { return dir_.filePath(name); }

    qint64 train(const QString& name, const QByteArray& json)
    {
        writeFile(path(name + QStringLiteral(".json")), json);
        const QByteArray out = cli({QStringLiteral("train"), QStringLiteral("--config"), path(name + QStringLiteral(".json")),
                                    QStringLiteral("--db"), db_, QStringLiteral("--json")});
        return QJsonDocument::fromJson(out.split('\n').first()).object().value(QStringLiteral("run_id")).toInteger();
    }

    // The dialog on its Try-it tab, with the model loaded.
    TryModelTab* open(RunDetailsDialog& dialog)
    {
        dialog.showTryIt();
        TryModelTab* tab = dialog.tryIt();
        if (!tab->isReady()) {
            QSignalSpy loaded(tab, &TryModelTab::loaded);
            loaded.wait(60000);
        }
        return tab;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        db_ = path(QStringLiteral("runs.sqlite"));
        const QString images = path(QStringLiteral("clothes"));
        QVERIFY(fixtures::writeClothes(images + QStringLiteral("/train"), QStringLiteral("train"), 600));
        QVERIFY(fixtures::writeClothes(images + QStringLiteral("/test"), QStringLiteral("t10k"), 50));
        imageRun_ = train(QStringLiteral("clothes"),
                          "{\"name\": \"clothes\", \"data\": {\"dataset\": \"image-folder\", \"path\": \"" + images.toUtf8() +
                              "\", \"batch_size\": 64}, \"model\": {\"arch\": \"cnn\", \"channels\": [8, 16]}, "
                              "\"train\": {\"epochs\": 1, \"checkpoint_every\": 1}}");
        QByteArray table = "length,width,height\n";
        for (int i = 0; i < 120; ++i)
            table += QByteArray::number(i % 3 + (i * 7 % 10) / 10.0) + ',' + QByteArray::number((i * 13 % 17) / 4.0) + ',' +
                     QByteArray::number(i % 3 * 2 - (i * 5 % 7) / 7.0) + '\n';
        QByteArray labelled = "length,width,height,kind\n";
        const QList<QByteArray> rows = table.trimmed().split('\n');
        for (qsizetype i = 1; i < rows.size(); ++i)
            labelled += rows[i] + (i % 3 == 1 ? ",small\n" : i % 3 == 2 ? ",medium\n" : ",large\n");
        writeFile(path(QStringLiteral("boxes.csv")), labelled);
        tableRun_ = train(
            QStringLiteral("boxes"),
            "{\"name\": \"boxes\", \"data\": {\"dataset\": \"csv\", \"path\": \"" + path(QStringLiteral("boxes.csv")).toUtf8() +
                "\", \"label_column\": \"kind\", \"batch_size\": 16}, \"model\": {\"arch\": \"mlp\", \"hidden\": [8]}, "
                "\"train\": {\"epochs\": 2, \"checkpoint_every\": 1}}");
        QVERIFY(imageRun_ > 0 && tableRun_ > 0);
    }

    void anImageGetsWhatPredictGivesAndIsShownAsTheModelSawIt()
    {
        RunStore store(db_.toStdString());
        RunDetailsDialog dialog(store, imageRun_);
        TryModelTab* tab = open(dialog);
        QVERIFY2(tab->isReady(), qPrintable(tab->status()->text()));
        QDirIterator it(path(QStringLiteral("clothes/test")), {QStringLiteral("*.png")}, QDir::Files,
                        QDirIterator::Subdirectories);
        const QString image = it.next();
        QSignalSpy answered(tab, &TryModelTab::answered);
        tab->tryFiles({image});
        QVERIFY(answered.wait(60000));
        compareWithPredict(tab->bars(), cli({QStringLiteral("predict"), QStringLiteral("--run"), QString::number(imageRun_),
                                             QStringLiteral("--db"), db_, QStringLiteral("--top"), QStringLiteral("5"),
                                             QStringLiteral("--json"), image}));
        QCOMPARE(tab->files()->count(), 1);
        // The model's 28 × 28 grey view, enlarged by a whole factor.
        const QPixmap view = tab->modelView()->pixmap();
        QVERIFY(!view.isNull());
        QCOMPARE(view.width() % 28, 0);
        QVERIFY(view.width() >= 28 * 4);

        // A file that is not an image: named, not fatal; the good one stays listed.
        const QString broken = path(QStringLiteral("broken.png"));
        writeFile(broken, "no picture here");
        tab->tryFiles({broken});
        QVERIFY(answered.wait(60000));
        QVERIFY2(tab->status()->text().contains(QStringLiteral("broken.png")), qPrintable(tab->status()->text()));
        QVERIFY(tab->bars()->bars().isEmpty());
        QCOMPARE(tab->files()->count(), 2);
    }

    void aTypedRowGetsWhatPredictGives()
    {
        RunStore store(db_.toStdString());
        RunDetailsDialog dialog(store, tableRun_);
        dialog.show();
        TryModelTab* tab = open(dialog);
        QVERIFY2(tab->isReady(), qPrintable(tab->status()->text()));
        auto* row = tab->findChild<QLineEdit*>(QStringLiteral("tryRow"));
        QVERIFY(row && row->isVisible());
        // As a spreadsheet in a comma locale copies it (tabs between values, decimal commas), pasted.
        QSignalSpy answered(tab, &TryModelTab::answered);
        QApplication::clipboard()->setText(QStringLiteral("1,5\t2,25\t-0,5"));
        row->setFocus();
        QTest::keyClick(row, Qt::Key_V, Qt::ControlModifier);
        QCOMPARE(row->text(), QStringLiteral("1,5\t2,25\t-0,5"));
        QTest::keyClick(row, Qt::Key_Return);
        QVERIFY(answered.wait(60000));
        QVERIFY2(dialog.isVisible(), "Enter classifies; it does not press the dialog's Save and close it");
        QVERIFY2(tab->status()->text().isEmpty(), qPrintable(tab->status()->text()));
        writeFile(path(QStringLiteral("one.csv")), "height,length,width\n-0.5,1.5,2.25\n");
        compareWithPredict(tab->bars(), cli({QStringLiteral("predict"), QStringLiteral("--run"), QString::number(tableRun_),
                                             QStringLiteral("--db"), db_, QStringLiteral("--top"), QStringLiteral("5"),
                                             QStringLiteral("--json"), path(QStringLiteral("one.csv"))}));
        QCOMPARE(tab->bars()->bars().size(), 3); // all three classes, fewer than five

        // Too few values: said, with the columns it needs.
        row->clear();
        QTest::keyClicks(row, QStringLiteral("1.5, 2"));
        QTest::keyClick(row, Qt::Key_Return);
        QVERIFY(answered.wait(60000));
        QVERIFY2(tab->status()->text().contains(QStringLiteral("length, width, height")), qPrintable(tab->status()->text()));
        QVERIFY(tab->bars()->bars().isEmpty());
    }

    void aClickedCellListsItsImagesWithTheirFiles()
    {
        RunStore store(db_.toStdString());
        const EvaluationReport report = evaluationFromJson(store.findRun(std::to_string(imageRun_))->evaluationJson);
        QCOMPARE(report.split, std::string("test"));
        QVERIFY2(!report.wrong.empty(), "one epoch on 600 images gets some of the test split wrong");
        // The off-diagonal cell with the most samples: what a person clicks first.
        int t = 0, p = 1;
        for (int i = 0; i < int(report.classes.size()); ++i)
            for (int j = 0; j < int(report.classes.size()); ++j)
                if (i != j && report.confusion[size_t(i)][size_t(j)] > report.confusion[size_t(t)][size_t(p)])
                    t = i, p = j;
        QVERIFY(report.confusion[size_t(t)][size_t(p)] > 0);

        RunDetailsDialog dialog(store, imageRun_);
        dialog.show();
        dialog.findChild<QTabWidget*>()->setCurrentWidget(dialog.evaluation());
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        ConfusionMatrixChart* matrix = dialog.evaluation()->matrix();
        matrix->replot();
        QTest::mouseClick(matrix, Qt::LeftButton, {}, matrix->cellCentre(t, p));
        CellSamplesDialog* cell = dialog.cellSamples();
        QVERIFY2(cell, "clicking a cell opens its samples");
        QSignalSpy loaded(cell, &CellSamplesDialog::loaded);
        QVERIFY(loaded.wait(120000));
        QVERIFY2(loaded.first().first().toBool(), qPrintable(cell->heading()->text()));
        QCOMPARE(int64_t(cell->pictures()->count()), report.confusion[size_t(t)][size_t(p)]);
        QCOMPARE(cell->samples().size(), size_t(cell->pictures()->count()));
        for (size_t i = 0; i < cell->samples().size(); ++i) {
            const ReviewedSample& s = cell->samples()[i];
            // Its original file, in its true class's folder of the test split, most confident first.
            const QFileInfo file(QString::fromStdString(s.file));
            QVERIFY2(file.exists(), qPrintable(file.filePath()));
            QCOMPARE(file.dir().dirName().toStdString(), report.classes[size_t(t)]);
            QCOMPARE(s.predicted, int64_t(p));
            QCOMPARE(cell->pictures()->item(int(i))->toolTip(), file.filePath());
            QVERIFY(!cell->pictures()->item(int(i))->icon().isNull());
            if (i > 0)
                QVERIFY(cell->samples()[i - 1].confidence >= s.confidence);
        }
        QCOMPARE(cell->selectedFile(), QString::fromStdString(cell->samples().front().file));
        // Enter on a sample opens its file and leaves the window open (it pressed Close once).
        OpenedFiles opened;
        QDesktopServices::setUrlHandler(QStringLiteral("file"), &opened, "open");
        cell->pictures()->setFocus();
        QTest::keyClick(cell->pictures(), Qt::Key_Down);
        QTest::keyClick(cell->pictures(), Qt::Key_Return);
        QDesktopServices::unsetUrlHandler(QStringLiteral("file"));
        QVERIFY2(cell->isVisible(), "Enter opens the sample; it does not close the window");
        QCOMPARE(opened.urls.size(), 1);
        QCOMPARE(opened.urls.first().toLocalFile(), cell->selectedFile());
        QVERIFY2(cell->status()->text().contains(QFileInfo(cell->selectedFile()).fileName()), qPrintable(cell->status()->text()));
        // Copy, then Enter: the path is on the clipboard, said so, and the window stays.
        auto* copy = cell->findChild<QPushButton*>(QStringLiteral("cellCopy"));
        QVERIFY(copy && copy->isEnabled());
        QTest::mouseClick(copy, Qt::LeftButton);
        QCOMPARE(QApplication::clipboard()->text(), cell->selectedFile());
        QVERIFY(cell->status()->text().contains(cell->selectedFile()));
        QTest::keyClick(cell, Qt::Key_Return);
        QVERIFY2(cell->isVisible(), "Enter after Copy does not close the window");

        // A wrong example's picture opens its pair, with that very sample selected.
        const QList<QAbstractButton*> tiles = dialog.evaluation()->wrongButtons();
        QCOMPARE(tiles.size(), int(report.wrong.size()));
        const WrongExample& w = report.wrong.back();
        QVERIFY(tiles.back()->toolTip().contains(QString::fromStdString(w.file)));
        QTest::mouseClick(tiles.back(), Qt::LeftButton);
        CellSamplesDialog* second = dialog.cellSamples();
        QVERIFY(second && second != cell);
        QSignalSpy again(second, &CellSamplesDialog::loaded);
        QVERIFY(again.wait(60000));
        QCOMPARE(second->selectedFile(), QString::fromStdString(w.file));
        QCOMPARE(second->pictures()->selectedItems().size(), 1);
    }

    void aTableCellListsItsLines()
    {
        RunStore store(db_.toStdString());
        const EvaluationReport report = evaluationFromJson(store.findRun(std::to_string(tableRun_))->evaluationJson);
        int t = 0;
        for (int i = 1; i < int(report.classes.size()); ++i)
            if (report.confusion[size_t(i)][size_t(i)] > report.confusion[size_t(t)][size_t(t)])
                t = i;
        RunDetailsDialog dialog(store, tableRun_);
        CellSamplesDialog* cell = dialog.openCell(t, t);
        QSignalSpy loaded(cell, &CellSamplesDialog::loaded);
        QVERIFY(loaded.wait(120000));
        QVERIFY2(loaded.first().first().toBool(), qPrintable(cell->heading()->text()));
        QTableWidget* rows = cell->rows();
        QCOMPARE(int64_t(rows->rowCount()), report.confusion[size_t(t)][size_t(t)]);
        QCOMPARE(rows->horizontalHeaderItem(2)->text(), QStringLiteral("length"));
        QFile f(path(QStringLiteral("boxes.csv")));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = f.readAll().split('\n');
        const QLocale locale;
        for (int r = 0; r < rows->rowCount(); ++r) {
            // The line shown is the file's line of that row: its label is the cell's class, its values the row's.
            const int line = locale.toInt(rows->item(r, 0)->text());
            const QList<QByteArray> cells = lines.value(line - 1).split(',');
            QCOMPARE(cells.size(), 4);
            QCOMPARE(cells[3].toStdString(), report.classes[size_t(t)]);
            for (int j = 0; j < 3; ++j)
                QVERIFY(std::abs(locale.toDouble(rows->item(r, j + 2)->text()) - cells[j].toDouble()) < 1e-4);
        }
        QCOMPARE(cell->selectedFile(), path(QStringLiteral("boxes.csv")));
    }
};

QTEST_MAIN(TestTryModel)
#include "tst_try_model.moc"
