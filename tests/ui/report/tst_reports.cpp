// Reports (PDF and HTML, headless through `entrena --export-report`), chart exports and the
// GUI's weight export, on a store filled by two short real runs.
#include "charts/ChartMenu.h"
#include "charts/LiveCharts.h"
#include "dialogs/RunDetailsDialog.h"
#include "entrena/data/Csv.h"
#include "entrena/store/RunStore.h"
#include "panels/RunsPanel.h"
#include "report/Report.h"
#include "report/ReportCharts.h"

#include <QDir>
#include <QImage>
#include <QLocale>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>
#include <qcustomplot.h>

using namespace entrena;
using namespace entrena::ui;

namespace {

struct Result {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

Result run(const QString& program, const QStringList& args, bool headless = false)
{
    QProcess p;
    if (headless) {
        // As on a server: no display, no platform chosen; --export-report must manage alone.
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("QT_QPA_PLATFORM"));
        env.remove(QStringLiteral("DISPLAY"));
        env.remove(QStringLiteral("WAYLAND_DISPLAY"));
        env.insert(QStringLiteral("LC_ALL"), QStringLiteral("C.UTF-8"));
        p.setProcessEnvironment(env);
    }
    p.start(program, args);
    p.waitForFinished(240000);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(), p.readAllStandardError()};
}

Result report(const QStringList& args)
{
    return run(QStringLiteral(ENTRENA_GUI_EXE), QStringList{QStringLiteral("--export-report")} + args, true);
}

// Names and notes a person might type, with everything HTML must escape.
const QString kHostileName = QStringLiteral("alpha <script>alert(1)</script> & co");
const QString kNotes = QStringLiteral("lr too high? <b>check</b> & \"compare\"\nsecond line");

QByteArray runConfig(const QString& name, double lr)
{
    return QStringLiteral(R"({"name": "%1", "seed": 5,
        "data": {"path": "%2", "train_limit": 2000, "test_limit": 1000, "val_fraction": 0.1, "batch_size": 64},
        "model": {"arch": "mlp", "hidden": [32]},
        "optimizer": {"name": "sgd", "lr": %3, "momentum": 0.9}, "scheduler": {"name": "constant"},
        "train": {"epochs": 2, "log_every": 5, "checkpoint_every": 1}})")
        .arg(QString(name).replace(QLatin1Char('"'), QStringLiteral("\\\"")), QStringLiteral(ENTRENA_FMNIST_DIR))
        .arg(lr)
        .toUtf8();
}

} // namespace

class TestReports : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;
    QString db_;
    qint64 alpha_ = 0;
    qint64 beta_ = 0;

    QString path(const QString& name) const { return dir_.filePath(name); }

    qint64 train(const QString& name, double lr)
    {
        QFile f(path(QStringLiteral("config-%1.json").arg(lr)));
        if (!f.open(QIODevice::WriteOnly))
            return 0;
        f.write(runConfig(name, lr));
        f.close();
        const Result r = run(QStringLiteral(ENTRENA_CLI), {QStringLiteral("train"), QStringLiteral("--config"), f.fileName(),
                                                           QStringLiteral("--db"), db_, QStringLiteral("--json")});
        if (r.exitCode != 0)
            qWarning() << r.err;
        return QJsonDocument::fromJson(r.out.split('\n').first()).object().value(QStringLiteral("run_id")).toInteger();
    }

    RunRecord record(qint64 id)
    {
        RunStore store(db_.toStdString());
        return *store.findRun(std::to_string(id));
    }

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        db_ = path(QStringLiteral("runs.sqlite"));
        alpha_ = train(kHostileName, 0.05);
        beta_ = train(QStringLiteral("beta"), 0.02);
        QVERIFY(alpha_ > 0 && beta_ > 0);
        RunStore store(db_.toStdString());
        store.setNotes(alpha_, kNotes.toStdString());
        store.setTags(alpha_, {"<tag>"});
    }

    void pdfReportRendersWithTheRunNamesAndSummaryNumbers()
    {
        const QString pdf = path(QStringLiteral("comparison.pdf"));
        const Result r = report({QStringLiteral("--db"), db_, QStringLiteral("--runs"),
                                 QStringLiteral("%1,%2").arg(alpha_).arg(beta_), QStringLiteral("--out"), pdf});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.out.contains("comparison.pdf"));

        const Result text = run(QStringLiteral("pdftotext"), {QStringLiteral("-layout"), pdf, QStringLiteral("-")});
        QCOMPARE(text.exitCode, 0);
        const QString t = QString::fromUtf8(text.out);
        QVERIFY(t.contains(QStringLiteral("Comparison of 2 runs")));
        QVERIFY2(t.contains(kHostileName), "a PDF shows the name as typed");
        QVERIFY(t.contains(QStringLiteral("#%1 beta").arg(beta_)));
        const QLocale c = QLocale::c();
        for (qint64 id : {alpha_, beta_}) {
            const RunRecord rec = record(id);
            QVERIFY(t.contains(c.toString(*rec.testAccuracy * 100.0, 'f', 2)));
            QVERIFY(t.contains(c.toString(*rec.bestValAccuracy * 100.0, 'f', 2)));
            QVERIFY(t.contains(c.toString(*rec.finalTrainLoss, 'f', 4)));
        }
        QVERIFY2(t.contains(QStringLiteral("optimizer.lr")), "the differences table names the setting that differs");
        QVERIFY(t.contains(QStringLiteral("second line")));
        QVERIFY(t.contains(QStringLiteral("OpenBLAS")));
        // Each run's confusion matrix and per-class table, as text: the classes named down the rows.
        QVERIFY2(t.contains(QStringLiteral("Confusion matrices")), "the report holds the evaluation");
        QVERIFY(t.count(QStringLiteral("10 Ankle boot")) == 2); // one matrix per run
        QVERIFY(t.contains(QStringLiteral("Recall (%)")));

        // It renders, and the charts are vector drawings, not pictures.
        const Result render = run(QStringLiteral("pdftoppm"), {QStringLiteral("-r"), QStringLiteral("40"), QStringLiteral("-png"),
                                                               pdf, path(QStringLiteral("page"))});
        QCOMPARE(render.exitCode, 0);
        const QStringList pages = QDir(dir_.path()).entryList({QStringLiteral("page-*.png")});
        QVERIFY(pages.size() >= 2);
        const QImage first(path(pages.first()));
        QVERIFY(!first.isNull());
        int ink = 0;
        for (int y = 0; y < first.height(); ++y)
            for (int x = 0; x < first.width(); ++x)
                ink += qGray(first.pixel(x, y)) < 128;
        QVERIFY2(ink > 500, "page 1 has text and tables on it");
        const Result images = run(QStringLiteral("pdfimages"), {QStringLiteral("-list"), pdf});
        QCOMPARE(images.exitCode, 0);
        QCOMPARE(images.out.trimmed().split('\n').size(), 2); // the header lines only: no raster images
    }

    void aRunReportLeadsWithItsResults()
    {
        // Page 1 is the outcome: the figures, the confusion matrix and per-class scores. How the run
        // was set up (configuration, environment) comes after the curves.
        const QString pdf = path(QStringLiteral("one.pdf"));
        const Result r =
            report({QStringLiteral("--db"), db_, QStringLiteral("--runs"), QString::number(beta_), QStringLiteral("--out"), pdf});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const Result first =
            run(QStringLiteral("pdftotext"), {QStringLiteral("-layout"), QStringLiteral("-f"), QStringLiteral("1"),
                                              QStringLiteral("-l"), QStringLiteral("1"), pdf, QStringLiteral("-")});
        QCOMPARE(first.exitCode, 0);
        const QString page = QString::fromUtf8(first.out);
        const RunRecord rec = record(beta_);
        QVERIFY2(page.contains(QLocale::c().toString(*rec.testAccuracy * 100.0, 'f', 2)), qPrintable(page));
        QVERIFY2(page.contains(QStringLiteral("10 Ankle boot")), "the confusion matrix is on page 1");
        QVERIFY2(!page.contains(QStringLiteral("OpenBLAS")) && !page.contains(QStringLiteral("optimizer.lr")),
                 "the environment and configuration are not on page 1");
        const Result all = run(QStringLiteral("pdftotext"), {QStringLiteral("-layout"), pdf, QStringLiteral("-")});
        const QString t = QString::fromUtf8(all.out);
        const qsizetype summary = t.indexOf(QStringLiteral("Summary")), matrix = t.indexOf(QStringLiteral("Confusion matri")),
                        charts = t.indexOf(QStringLiteral("Charts")), config = t.indexOf(QStringLiteral("optimizer.lr")),
                        environment = t.indexOf(QStringLiteral("OpenBLAS")); // headings' "fi" comes out as a ligature
        QVERIFY(summary >= 0 && matrix >= 0 && charts >= 0 && config >= 0 && environment >= 0);
        QVERIFY(summary < matrix && matrix < charts && charts < config && config < environment);
    }

    // Issue 53, item 3: a constant learning rate was drawn on an axis from 0.00196 to 0.00204, and the
    // validation accuracy ticked at epochs 1.5 and 2.5.
    void reportChartsDrawRatesFromZeroAndWholeEpochs()
    {
        RunStore store(db_.toStdString());
        const Report r = Report::load(store, {alpha_});
        bool sawRate = false, sawEpochs = false;
        for (const ChartSpec& spec : Report::charts()) {
            std::unique_ptr<QCustomPlot> plot(buildReportChart(r, spec, 600, 300));
            plot->replot();
            if (spec.metric == QStringLiteral("lr")) {
                sawRate = true;
                QCOMPARE(plot->yAxis->range().lower, 0.0);
                QVERIFY(plot->yAxis->range().upper > 0.05); // the constant 0.05 lies inside, below the top
            }
            if (spec.byEpoch) {
                sawEpochs = true;
                for (double t : plot->xAxis->tickVector())
                    QVERIFY2(std::floor(t) == t, qPrintable(spec.metric + QStringLiteral(": ") + QString::number(t)));
            }
        }
        QVERIFY(sawRate && sawEpochs);
    }

    void htmlReportIsSelfContainedAndEscapesUserText()
    {
        const QString html = path(QStringLiteral("report.html"));
        const Result r = report(
            {QStringLiteral("--db"), db_, QStringLiteral("--runs"), QString::number(alpha_), QStringLiteral("--out"), html});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QFile f(html);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString h = QString::fromUtf8(f.readAll());
        QVERIFY(h.startsWith(QStringLiteral("<!DOCTYPE html>")));
        QVERIFY(!h.contains(QStringLiteral("<script"), Qt::CaseInsensitive));
        QVERIFY(!h.contains(QStringLiteral("<b>check")));
        QVERIFY(!h.contains(QStringLiteral("<tag>")));
        QVERIFY(h.contains(QStringLiteral("alpha &lt;script&gt;alert(1)&lt;/script&gt; &amp; co")));
        QVERIFY(h.contains(QStringLiteral("&lt;b&gt;check&lt;/b&gt; &amp; &quot;compare&quot;")));
        QVERIFY(h.contains(QStringLiteral("&lt;tag&gt;")));
        // Five charts, each a PNG that decodes.
        static const QRegularExpression image(QStringLiteral("src=\"data:image/png;base64,([A-Za-z0-9+/=]+)\""));
        // No network: outside the embedded images, no URL and nothing that would fetch one.
        const QString text = QString(h).remove(image);
        for (const char* url : {"http:", "https:", "//", "url(", "@import", "src=", "href="})
            QVERIFY2(!text.contains(QLatin1String(url)), url);
        int charts = 0;
        for (auto it = image.globalMatch(h); it.hasNext(); ++charts) {
            const QImage png = QImage::fromData(QByteArray::fromBase64(it.next().captured(1).toLatin1()), "PNG");
            QVERIFY(!png.isNull());
            QVERIFY(png.width() >= 900);
        }
        QCOMPARE(charts, 5);
        QVERIFY(h.contains(QStringLiteral("Run report: #%1").arg(alpha_)));
        QVERIFY2(h.contains(QStringLiteral("<td>optimizer.lr</td><td>0.05</td>")), "one run: the whole configuration");

        // The confusion matrix, as stored with the run: a row per class, each count in its cell.
        const EvaluationReport e = evaluationFromJson(record(alpha_).evaluationJson);
        QCOMPARE(e.classes.size(), std::size_t(10));
        const qsizetype at = h.indexOf(QStringLiteral("<table class=\"confusion\""));
        QVERIFY2(at >= 0, "the report holds the confusion matrix");
        const QString matrix = h.mid(at, h.indexOf(QStringLiteral("</table>"), at) - at);
        QCOMPARE(matrix.count(QStringLiteral("<tr>")), 11);
        static const QRegularExpression count(QStringLiteral("<font color=\"#[0-9a-f]{6}\">(\\d+)</font>"));
        QStringList counts, stored;
        for (auto it = count.globalMatch(matrix); it.hasNext();)
            counts << it.next().captured(1);
        for (const auto& row : e.confusion)
            for (int64_t c : row)
                stored << QString::number(c);
        QCOMPARE(counts, stored);
        for (const std::string& name : e.classes)
            QVERIFY(matrix.contains(QString::fromStdString(name).toHtmlEscaped()));
    }

    void comparisonShowsOnlyTheDifferencesAndMarksTheBest()
    {
        RunStore store(db_.toStdString());
        const Report rep = Report::load(store, {alpha_, beta_});
        QStringList keys;
        for (const auto& row : rep.configuration)
            keys << row.first;
        QCOMPARE(keys, QStringList({QStringLiteral("name"), QStringLiteral("optimizer.lr")}));
        QVERIFY(rep.sameSettings > 10);
        QCOMPARE(rep.configuration[1].second, QStringList({QStringLiteral("0.05"), QStringLiteral("0.02")}));
        const RunRecord a = *store.findRun(std::to_string(alpha_)), b = *store.findRun(std::to_string(beta_));
        const SummaryRow& test = rep.summary[1];
        QCOMPARE(test.values.size(), std::size_t(2));
        QCOMPARE(*test.values[0], *a.testAccuracy * 100.0);
        QCOMPARE(test.best, *a.testAccuracy >= *b.testAccuracy ? 0 : 1);
        const SummaryRow& loss = rep.summary[2]; // lower is better
        QCOMPARE(loss.best, *a.finalTrainLoss <= *b.finalTrainLoss ? 0 : 1);
        // Charts draw the stored series.
        QCOMPARE(rep.runs[0].series.at(QStringLiteral("train_loss")).size(), store.metrics(alpha_, "train_loss").size());
    }

    void reportBadInputIsRefusedAndLeavesNoFile_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("message");
        QTest::addColumn<QString>("out");
        const QString out = QDir::temp().filePath(QStringLiteral("entrena-bad-report.pdf"));
        QTest::newRow("unknown run") << QStringList{QStringLiteral("--runs"), QStringLiteral("1,999")} << 2
                                     << QStringLiteral("There is no run 999") << out;
        QTest::newRow("not a number") << QStringList{QStringLiteral("--runs"), QStringLiteral("1,x")} << 2
                                      << QStringLiteral("“x” is not a run ID") << out;
        QTest::newRow("no runs") << QStringList{} << 2 << QStringLiteral("needs --runs") << out;
        QTest::newRow("bad format") << QStringList{QStringLiteral("--runs"), QStringLiteral("1")} << 2
                                    << QStringLiteral("name the file .pdf or .html")
                                    << QDir::temp().filePath(QStringLiteral("entrena-bad-report.docx"));
        QTest::newRow("unwritable") << QStringList{QStringLiteral("--runs"), QStringLiteral("1")} << 1
                                    << QStringLiteral("Cannot write") << QStringLiteral("/proc/entrena-report.pdf");
        QTest::newRow("folder missing") << QStringList{QStringLiteral("--runs"), QStringLiteral("1")} << 1
                                        << QStringLiteral("Cannot write")
                                        << QDir::temp().filePath(QStringLiteral("no-such-folder/report.html"));
    }

    void reportBadInputIsRefusedAndLeavesNoFile()
    {
        QFETCH(QStringList, args);
        QFETCH(int, status);
        QFETCH(QString, message);
        QFETCH(QString, out);
        QFile::remove(out);
        const QByteArray before = [&] {
            QFile f(db_);
            return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
        }();
        const Result r = report(args + QStringList{QStringLiteral("--db"), db_, QStringLiteral("--out"), out});
        QCOMPARE(r.exitCode, status);
        QVERIFY2(QString::fromUtf8(r.err).contains(message), r.err.constData());
        QVERIFY(!r.err.contains("Aborted") && !r.err.contains("terminate"));
        QVERIFY(!QFile::exists(out));
        QFile f(db_);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), before);
    }

    void missingStoreIsNotCreated()
    {
        const QString db = path(QStringLiteral("absent.sqlite"));
        const Result r = report({QStringLiteral("--db"), db, QStringLiteral("--runs"), QStringLiteral("1"),
                                 QStringLiteral("--out"), path(QStringLiteral("x.pdf"))});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("no run store"));
        QVERIFY(!QFile::exists(db));
    }

    void chartCsvHoldsExactlyThePlottedSeries()
    {
        LiveCharts charts;
        QVector<StepEvent> steps;
        for (int i = 1; i <= 7; ++i) {
            StepEvent s;
            s.step = i * 10;
            s.epoch = 1;
            s.loss = 2.0 / i + 1e-9 * i; // full precision must survive
            s.lr = 0.1;
            s.memoryBytes = 1 << 20;
            steps << s;
        }
        charts.addSteps(steps);
        EpochEvent e;
        e.epoch = 1;
        e.trainLoss = 0.75;
        e.valLoss = 0.8;
        e.valAccuracy = 0.7;
        charts.addEpoch(e, 70);
        auto* loss = charts.findChild<QCustomPlot*>(QStringLiteral("lossPlot"));
        QVERIFY(loss);
        const QStringList lines = ChartMenu::csv(loss).trimmed().split(QLatin1Char('\n'));
        QCOMPARE(lines.first(), QStringLiteral("series,step,value"));
        QCOMPARE(lines.size(), 1 + 7 + 1);
        for (int i = 1; i <= 7; ++i) {
            const QStringList cells = lines[i].split(QLatin1Char(','));
            QCOMPARE(cells[0], QStringLiteral("per step"));
            QCOMPARE(cells[1].toDouble(), double(i * 10));
            QCOMPARE(cells[2].toDouble(), steps[i - 1].loss); // exact, not rounded
        }
        QCOMPARE(lines.last(), QStringLiteral("epoch mean,70,0.75"));
        // A series named with a comma, quotes and a line break (a run's name can hold them) reads
        // back whole through Entrena's CSV reader, as a file of predictions does.
        const QString odd = QStringLiteral("run \"a, b\"\nsecond line");
        loss->graph(0)->setName(odd);
        entrena::csv::Reader in(ChartMenu::csv(loss).toStdString(), "chart");
        entrena::csv::Record r;
        QVERIFY(in.next(r) && r.cells == (std::vector<std::string>{"series", "step", "value"}));
        for (int i = 1; i <= 7; ++i) {
            QVERIFY(in.next(r) && r.cells.size() == 3);
            QCOMPARE(QString::fromStdString(r.cells[0]), odd);
            QCOMPARE(std::stod(r.cells[2]), steps[i - 1].loss);
        }
        // Hidden graphs are not plotted, so not copied.
        loss->graph(1)->setVisible(false);
        entrena::csv::Reader shown(ChartMenu::csv(loss).toStdString(), "chart");
        int records = 0;
        while (shown.next(r))
            ++records;
        QCOMPARE(records, 1 + 7);
    }

    void chartExportsAsPngSvgAndPdf()
    {
        LiveCharts charts;
        charts.resize(800, 600);
        StepEvent s;
        s.step = 1;
        s.loss = 1.0;
        charts.addSteps({s});
        auto* plot = charts.findChild<QCustomPlot*>(QStringLiteral("learningRatePlot"));
        QVERIFY(plot);
        plot->resize(400, 250);
        const QString png = path(QStringLiteral("chart.png")), svg = path(QStringLiteral("chart.svg")),
                      pdf = path(QStringLiteral("chart.pdf"));
        QCOMPARE(ChartMenu::save(plot, png), QString());
        QCOMPARE(ChartMenu::save(plot, svg), QString());
        QCOMPARE(ChartMenu::save(plot, pdf), QString());
        QCOMPARE(QImage(png).size(), QSize(800, 500)); // twice the size on screen, for print
        QFile fs(svg), fp(pdf);
        QVERIFY(fs.open(QIODevice::ReadOnly) && fp.open(QIODevice::ReadOnly));
        const QByteArray svgText = fs.readAll();
        QVERIFY(svgText.contains("<svg") && svgText.contains("Learning rate"));
        QVERIFY(fp.readAll().startsWith("%PDF"));
        QVERIFY(ChartMenu::save(plot, path(QStringLiteral("chart.bmp"))).contains(QStringLiteral(".png, .svg or .pdf")));
        QVERIFY(!ChartMenu::save(plot, QStringLiteral("/proc/chart.png")).isEmpty());
        QVERIFY(!QFile::exists(QStringLiteral("/proc/chart.png")));
        QVERIFY(QDir(dir_.path()).entryList({QStringLiteral(".*.part")}, QDir::Files | QDir::Hidden).isEmpty());
    }

    void runsPanelReportsOnTheSelectedRuns()
    {
        RunsPanel panel;
        QCOMPARE(panel.open(db_), QString());
        QVERIFY(panel.selectedRunIds().isEmpty());
        panel.selectRuns({beta_, alpha_});
        QCOMPARE(panel.selectedRunIds().size(), 2); // in the order shown (newest first)
        QVERIFY(panel.selectedRunIds().contains(alpha_) && panel.selectedRunIds().contains(beta_));
        const QString html = path(QStringLiteral("from-panel.html"));
        QCOMPARE(panel.exportReport(panel.selectedRunIds(), html), QString());
        QFile f(html);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(f.readAll().contains("Comparison of 2 runs"));
        QVERIFY(panel.exportReport({4242}, path(QStringLiteral("x.html"))).contains(QStringLiteral("no run 4242")));
        QVERIFY(!QFile::exists(path(QStringLiteral("x.html"))));
    }

    void runViewExportsWeightsOffTheGuiThread()
    {
        RunStore store(db_.toStdString());
        RunDetailsDialog dialog(store, beta_);
        QSignalSpy done(&dialog, &RunDetailsDialog::exportFinished);
        const QString out = path(QStringLiteral("beta.safetensors"));
        dialog.exportCheckpoint(QStringLiteral("best"), out);
        QVERIFY2(done.isEmpty(), "the export runs on a worker thread, not inside the call");
        QVERIFY(done.wait(120000));
        QVERIFY2(done[0][0].toBool(), qPrintable(done[0][1].toString()));
        QVERIFY(done[0][1].toString().contains(QStringLiteral("Test accuracy of these weights")));
        QVERIFY(QFile::exists(out) && QFile::exists(out + QStringLiteral(".json")));

        // A run with no checkpoint: a message, no file.
        const int64_t empty = store.createRun("no checkpoints", runConfig(QStringLiteral("x"), 0.1).toStdString(), "{}");
        RunDetailsDialog emptyDialog(store, empty);
        QSignalSpy failed(&emptyDialog, &RunDetailsDialog::exportFinished);
        const QString none = path(QStringLiteral("none.pt"));
        emptyDialog.exportCheckpoint(QStringLiteral("last"), none);
        QVERIFY(failed.wait(60000));
        QVERIFY(!failed[0][0].toBool());
        QVERIFY(failed[0][1].toString().contains(QStringLiteral("checkpoint")));
        QVERIFY(!QFile::exists(none));
        const auto windows = QApplication::topLevelWidgets();
        for (QWidget* w : windows)
            if (auto* box = qobject_cast<QMessageBox*>(w))
                box->close();
    }
};

QTEST_MAIN(TestReports)
#include "tst_reports.moc"
