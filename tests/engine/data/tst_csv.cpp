// Entrena's one CSV codec (RFC 4180): quoted separators, doubled quotes, line breaks inside quotes, a
// byte-order mark, CRLF, a spreadsheet's ';' with decimal commas; and what it writes it reads back.
#include "entrena/data/Csv.h"

#include <QtTest>
#include <random>
#include <stdexcept>

using entrena::csv::Reader;
using entrena::csv::Record;
using Rows = std::vector<std::vector<std::string>>;

namespace {

Rows readAll(const std::string& text, std::vector<int64_t>* lines = nullptr)
{
    Reader in(text, "t.csv");
    Rows rows;
    Record r;
    while (in.next(r)) {
        rows.push_back(r.cells);
        if (lines)
            lines->push_back(r.line);
    }
    return rows;
}

QString shown(const Rows& rows)
{
    QStringList out;
    for (const auto& row : rows) {
        QStringList cells;
        for (const auto& c : row)
            cells << QLatin1Char('[') + QString::fromStdString(c) + QLatin1Char(']');
        out << cells.join(QLatin1Char(' '));
    }
    return out.join(QStringLiteral(" / "));
}

} // namespace

Q_DECLARE_METATYPE(Rows)

class TestCsv : public QObject {
    Q_OBJECT
private slots:
    void readsWhatRfc4180Allows_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<Rows>("rows");
        QTest::newRow("plain") << QByteArray("a,b\n1,2\n") << Rows{{"a", "b"}, {"1", "2"}};
        QTest::newRow("quoted comma") << QByteArray("\"width, cm\",b\n1,2") << Rows{{"width, cm", "b"}, {"1", "2"}};
        QTest::newRow("doubled quotes") << QByteArray("\"say \"\"hi\"\"\",x\n") << Rows{{"say \"hi\"", "x"}};
        QTest::newRow("quoted newline") << QByteArray("\"two\nlines\",x\n3,4\n") << Rows{{"two\nlines", "x"}, {"3", "4"}};
        QTest::newRow("bom") << QByteArray("\xEF\xBB\xBFlabel,x\n1,2\n") << Rows{{"label", "x"}, {"1", "2"}};
        QTest::newRow("crlf, in quotes too") << QByteArray("a,\"b\r\nc\"\r\n1,2\r\n") << Rows{{"a", "b\nc"}, {"1", "2"}};
        QTest::newRow("blank lines") << QByteArray("a,b\n\n  \n1,2\n\n") << Rows{{"a", "b"}, {"1", "2"}};
        QTest::newRow("spaces") << QByteArray(" a , \" b \" ,c d\n") << Rows{{"a", " b ", "c d"}};
        QTest::newRow("empty cells") << QByteArray("a,,\"\"\n,\n") << Rows{{"a", "", ""}, {"", ""}};
        QTest::newRow("semicolons") << QByteArray("a;b\n1,5;\"x;y\"\n") << Rows{{"a", "b"}, {"1,5", "x;y"}};
        QTest::newRow("tabs") << QByteArray("a\tb c\n1,5\t2\n") << Rows{{"a", "b c"}, {"1,5", "2"}};
        QTest::newRow("a stray quote kept") << QByteArray("ab\"c,1\n") << Rows{{"ab\"c", "1"}};
        QTest::newRow("no final newline") << QByteArray("1,2") << Rows{{"1", "2"}};
        QTest::newRow("blank lines before a ';' header") << QByteArray("\n \na;b\n1,5;2\n") << Rows{{"a", "b"}, {"1,5", "2"}};
        QTest::newRow("a comma file aligned with tabs")
            << QByteArray("x,\ty,\tlabel\n1,\t2,\t0\n") << Rows{{"x", "y", "label"}, {"1", "2", "0"}};
        QTest::newRow("a quote inside a ';' cell") << QByteArray("size 5\";w\n1;2\n") << Rows{{"size 5\"", "w"}, {"1", "2"}};
    }
    void readsWhatRfc4180Allows()
    {
        QFETCH(QByteArray, text);
        QFETCH(Rows, rows);
        const Rows got = readAll(text.toStdString());
        QVERIFY2(got == rows, qPrintable(shown(got) + QStringLiteral("  expected  ") + shown(rows)));
    }

    void aRecordIsNamedByTheLineItStartsOn()
    {
        std::vector<int64_t> lines;
        readAll("h,i\n\"a\nb\nc\",1\n\n2,3\n", &lines);
        QCOMPARE(lines, (std::vector<int64_t>{1, 2, 6}));
    }

    void anUnclosedQuoteIsNamedByItsLine()
    {
        try {
            readAll("a,b\n1,2\n\"open,3\n4,5\n");
            QFAIL("no error");
        } catch (const std::runtime_error& e) {
            QVERIFY2(QByteArray(e.what()).contains("line 3") && QByteArray(e.what()).contains("never closed"), e.what());
        }
    }

    void numbersInEveryLocaleAndWithADecimalComma()
    {
        double v = 0;
        QVERIFY(entrena::csv::number("+0.5", v) && v == 0.5);
        QVERIFY(entrena::csv::number("1e-3", v) && v == 1e-3);
        QVERIFY(!entrena::csv::number("0,5", v));
        QVERIFY(entrena::csv::number("0,5", v, true) && v == 0.5);
        QVERIFY(!entrena::csv::number("1,2,3", v, true));
        QVERIFY(!entrena::csv::number("", v) && !entrena::csv::number("+", v) && !entrena::csv::number("+-1", v));
        QVERIFY(!entrena::csv::number("1 2", v) && !entrena::csv::number("x", v));
        // A line typed or pasted by a user: its separator is found as a file's is.
        char sep = 0;
        QCOMPARE(entrena::csv::splitLine("1,5;2;\"a;b\"", &sep), (std::vector<std::string>{"1,5", "2", "a;b"}));
        QCOMPARE(sep, ';');
    }

    // Whatever the cells hold, what the writer writes the reader reads back unchanged.
    void whatItWritesItReadsBack_data()
    {
        QTest::addColumn<char>("separator");
        QTest::newRow("comma") << ',';
        QTest::newRow("semicolon") << ';';
        QTest::newRow("tab") << '\t';
    }
    void whatItWritesItReadsBack()
    {
        QFETCH(char, separator);
        const std::string alphabet = "ab ,;\t\"\n\r'x1.5";
        std::mt19937 rng(7);
        Rows rows;
        for (int r = 0; r < 300; ++r) {
            std::vector<std::string> row(size_t(2 + r % 4));
            for (auto& cell : row)
                for (int n = int(rng() % 7); n > 0; --n)
                    cell += alphabet[rng() % alphabet.size()];
            rows.push_back(row);
        }
        rows.push_back({""});         // a record of one empty cell is not a blank line
        rows.push_back({"only", ""}); // an empty last cell
        std::string text = "\xEF\xBB\xBF";
        for (const auto& row : rows)
            text += entrena::csv::line(row, separator);
        // The reader normalises CRLF; the writer's cells above hold lone CRs and LFs as they are.
        Rows expected = rows;
        for (auto& row : expected)
            for (auto& cell : row)
                for (size_t at = 0; (at = cell.find("\r\n", at)) != std::string::npos;)
                    cell.erase(at, 1);
        Reader in(text, "t.csv");
        const Rows got = readAll(text);
        QCOMPARE(in.separator(), separator);
        QCOMPARE(got.size(), expected.size());
        for (size_t i = 0; i < got.size(); ++i)
            QVERIFY2(got[i] == expected[i], qPrintable(QStringLiteral("row %1: ").arg(i) + shown({got[i]}) +
                                                       QStringLiteral(" vs ") + shown({expected[i]})));
    }
};

QTEST_APPLESS_MAIN(TestCsv)
#include "tst_csv.moc"
