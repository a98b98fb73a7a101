// A CSV table as spreadsheets and other programs write it — a byte-order mark, CRLF, quoted commas,
// doubled quotes and line breaks inside quotes, or ';' with decimal commas — trains, predicts and
// exports through entrena-cli; and what Entrena writes as CSV (predictions, metrics) reads back equal.
#include "../../tools/CliProcess.h"
#include "entrena/data/Csv.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>
#include <random>

namespace {

using fixtures::cli;
using fixtures::Result;

const char* const kClasses[] = {"big, round", "small \"square\"", "two\nlines"};

bool writeFile(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

/// Three well separated classes of three features, as `separator` and `decimalComma` write them.
QByteArray table(int rows, unsigned seed, char separator, bool decimalComma)
{
    std::mt19937 rng(seed);
    std::normal_distribution<double> noise(0.0, 0.3);
    std::string text = "\xEF\xBB\xBF" + entrena::csv::line({"width, cm", "say \"hi\"", "depth", "kind"}, separator);
    for (int i = 0; i < rows; ++i) {
        const int c = i % 3;
        std::vector<std::string> cells;
        for (const double v : {c + noise(rng), -c + noise(rng), noise(rng)}) {
            std::string number = QByteArray::number(v, 'g', 8).toStdString();
            if (decimalComma && number.find('.') != std::string::npos)
                number[number.find('.')] = ',';
            cells.push_back(number);
        }
        cells.push_back(kClasses[c]);
        text += entrena::csv::line(cells, separator);
    }
    QByteArray crlf = QByteArray::fromStdString(text);
    return crlf.replace("\n", "\r\n"); // CRLF, in the quoted class name too
}

std::vector<entrena::csv::Record> records(const QString& file)
{
    entrena::csv::Reader in = entrena::csv::Reader::fromFile(file.toStdString());
    std::vector<entrena::csv::Record> all;
    for (entrena::csv::Record r; in.next(r);)
        all.push_back(r);
    return all;
}

} // namespace

class TestCsvTables : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;
    QString db_;
    QString run_;
    QString test_; ///< the test table, its name holding a comma and quotes

    QString path(const QString& name) const { return dir_.filePath(name); }

    QJsonObject predictJson(const QStringList& args)
    {
        const Result r =
            cli(QStringList{QStringLiteral("predict"), QStringLiteral("--json"), QStringLiteral("--top"), QStringLiteral("3")} +
                args);
        if (r.exitCode != 0)
            qWarning() << r.err;
        return QJsonDocument::fromJson(r.out).object();
    }

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        db_ = path(QStringLiteral("runs.sqlite"));
        test_ = path(QStringLiteral("odd, \"name\".csv"));
        QVERIFY(writeFile(path(QStringLiteral("train.csv")), table(240, 3, ',', false)));
        QVERIFY(writeFile(test_, table(60, 4, ',', false)));
    }

    void aQuotedTableTrains()
    {
        const QByteArray config = "{\"name\": \"quoted\", \"seed\": 1, \"data\": {\"dataset\": \"csv\", \"path\": \"" +
                                  path(QStringLiteral("train.csv")).toUtf8() +
                                  "\", \"label_column\": \"kind\", \"val_fraction\": 0.2, \"batch_size\": 16}, "
                                  "\"model\": {\"arch\": \"mlp\", \"hidden\": [16]}, \"train\": {\"epochs\": 3}}";
        QVERIFY(writeFile(path(QStringLiteral("quoted.json")), config));
        const Result r = cli({QStringLiteral("train"), QStringLiteral("--config"), path(QStringLiteral("quoted.json")),
                              QStringLiteral("--db"), db_, QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QList<QByteArray> lines = r.out.trimmed().split('\n');
        run_ = QString::number(QJsonDocument::fromJson(lines.first()).object().value(QStringLiteral("run_id")).toInteger());
        // The classes are the quoted names, each whole (a split name would make more than three).
        const QJsonObject end = QJsonDocument::fromJson(lines.last()).object();
        QVERIFY2(end.value(QStringLiteral("best_val_accuracy")).toDouble() > 0.9, lines.last().constData());
        const QJsonObject p = predictJson({QStringLiteral("--run"), run_, QStringLiteral("--db"), db_, test_});
        QCOMPARE(p.value(QStringLiteral("classes")).toArray(),
                 QJsonArray({QString::fromUtf8(kClasses[0]), QString::fromUtf8(kClasses[1]), QString::fromUtf8(kClasses[2])}));
        QCOMPARE(p.value(QStringLiteral("labelled")).toInt(), 60);
        QVERIFY2(p.value(QStringLiteral("accuracy")).toDouble() > 0.9,
                 qPrintable(QString::number(p.value(QStringLiteral("accuracy")).toDouble())));
        // Each row is named by the line its record starts on: every third row's class name ("two\nlines")
        // spans two lines.
        const QJsonArray rows = p.value(QStringLiteral("predictions")).toArray();
        QCOMPARE(rows.size(), 60);
        QCOMPARE(rows[0].toObject().value(QStringLiteral("line")).toInt(), 2);
        QCOMPARE(rows[3].toObject().value(QStringLiteral("line")).toInt(), 2 + 3 + 1);
    }

    void itsPredictionsCsvReadsBackEqual()
    {
        QVERIFY(!run_.isEmpty());
        const QStringList model = {QStringLiteral("--run"), run_, QStringLiteral("--db"), db_};
        const QJsonArray json = predictJson(model + QStringList{test_}).value(QStringLiteral("predictions")).toArray();
        const Result r = cli(QStringList{QStringLiteral("predict"), QStringLiteral("--csv"), QStringLiteral("--top"),
                                         QStringLiteral("3"), QStringLiteral("--out"), path(QStringLiteral("p.csv"))} +
                             model + QStringList{test_});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const auto rows = records(path(QStringLiteral("p.csv")));
        QCOMPARE(rows.size(), size_t(1 + json.size()));
        for (qsizetype i = 0; i < json.size(); ++i) {
            const QJsonObject want = json[i].toObject();
            const std::vector<std::string>& cells = rows[size_t(i + 1)].cells;
            QCOMPARE(cells.size(), size_t(2 + 2 * 3));
            QCOMPARE(QString::fromStdString(cells[0]), want.value(QStringLiteral("input")).toString());
            QCOMPARE(QString::fromStdString(cells[1]), want.value(QStringLiteral("true")).toString());
            const QJsonArray top = want.value(QStringLiteral("top")).toArray();
            for (int k = 0; k < 3; ++k) {
                QCOMPARE(QString::fromStdString(cells[size_t(2 + 2 * k)]),
                         top[k].toObject().value(QStringLiteral("class")).toString());
                QVERIFY(std::abs(std::stod(cells[size_t(3 + 2 * k)]) -
                                 top[k].toObject().value(QStringLiteral("probability")).toDouble()) < 1e-8);
            }
        }
    }

    void aSpreadsheetsSemicolonsAndDecimalCommasPredictTheSame()
    {
        QVERIFY(!run_.isEmpty());
        const QString semicolons = path(QStringLiteral("hoja.csv"));
        QVERIFY(writeFile(semicolons, table(60, 4, ';', true)));
        const QStringList model = {QStringLiteral("--run"), run_, QStringLiteral("--db"), db_};
        const QJsonArray a = predictJson(model + QStringList{test_}).value(QStringLiteral("predictions")).toArray();
        const QJsonArray b = predictJson(model + QStringList{semicolons}).value(QStringLiteral("predictions")).toArray();
        QCOMPARE(b.size(), a.size());
        for (qsizetype i = 0; i < a.size(); ++i)
            QCOMPARE(b[i].toObject().value(QStringLiteral("top")), a[i].toObject().value(QStringLiteral("top")));
    }

    // Labels that are class numbers, written by a spreadsheet with decimal commas ("1,0"), score the
    // predictions as the training reads them.
    void numberedLabelsWithADecimalCommaAreScored()
    {
        const auto numbered = [](char separator, const char* one) {
            QByteArray text = QByteArray("a") + separator + "b" + separator + "kind\n";
            for (int i = 0; i < 90; ++i) {
                const int c = i % 2;
                text += QByteArray::number(c * 2 + (i % 7) * 0.01) + separator + QByteArray::number(-c + (i % 5) * 0.01) +
                        separator + (c ? QByteArray(one) : QByteArray("0")) + '\n';
            }
            return text;
        };
        QVERIFY(writeFile(path(QStringLiteral("numbers.csv")), numbered(',', "1")));
        QVERIFY(writeFile(path(QStringLiteral("numbers-es.csv")), numbered(';', "1,0")));
        const QByteArray config = "{\"name\": \"numbers\", \"data\": {\"dataset\": \"csv\", \"path\": \"" +
                                  path(QStringLiteral("numbers.csv")).toUtf8() +
                                  "\", \"label_column\": \"kind\", \"batch_size\": 16}, \"model\": {\"arch\": \"mlp\", "
                                  "\"hidden\": [8]}, \"train\": {\"epochs\": 2}}";
        QVERIFY(writeFile(path(QStringLiteral("numbers.json")), config));
        const Result r = cli({QStringLiteral("train"), QStringLiteral("--config"), path(QStringLiteral("numbers.json")),
                              QStringLiteral("--db"), db_, QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QString id = QString::number(
            QJsonDocument::fromJson(r.out.trimmed().split('\n').first()).object().value(QStringLiteral("run_id")).toInteger());
        const QJsonObject p =
            predictJson({QStringLiteral("--run"), id, QStringLiteral("--db"), db_, path(QStringLiteral("numbers-es.csv"))});
        QCOMPARE(p.value(QStringLiteral("predictions")).toArray().size(), 90);
        QCOMPARE(p.value(QStringLiteral("labelled")).toInt(), 90);
        QVERIFY(p.value(QStringLiteral("unknown_labels")).toArray().isEmpty());
    }

    void itsExportPredictsAsItsRunAndItsMetricsCsvReadsBack()
    {
        QVERIFY(!run_.isEmpty());
        const QString file = path(QStringLiteral("quoted.pt"));
        const Result e = cli({QStringLiteral("export"), QStringLiteral("--run"), run_, QStringLiteral("--db"), db_,
                              QStringLiteral("--checkpoint"), QStringLiteral("best"), QStringLiteral("--out"), file});
        QVERIFY2(e.exitCode == 0, e.err.constData());
        const QJsonObject fromRun = predictJson({QStringLiteral("--run"), run_, QStringLiteral("--db"), db_, test_});
        const QJsonObject fromFile = predictJson({QStringLiteral("--model"), file, test_});
        QCOMPARE(fromFile.value(QStringLiteral("classes")), fromRun.value(QStringLiteral("classes")));
        QCOMPARE(fromFile.value(QStringLiteral("accuracy")).toDouble(), fromRun.value(QStringLiteral("accuracy")).toDouble());

        const Result m =
            cli({QStringLiteral("export"), QStringLiteral("--run"), run_, QStringLiteral("--db"), db_,
                 QStringLiteral("--metrics"), QStringLiteral("csv"), QStringLiteral("--out"), path(QStringLiteral("m.csv"))});
        QVERIFY2(m.exitCode == 0, m.err.constData());
        const auto rows = records(path(QStringLiteral("m.csv")));
        QVERIFY(rows.size() > 10);
        for (const auto& r : rows)
            QVERIFY2(r.cells.size() == 5, qPrintable(QStringLiteral("line %1").arg(r.line)));
    }
};

QTEST_GUILESS_MAIN(TestCsvTables)
#include "tst_csv_tables.moc"
