// entrena-cli's command line as docs/cli.md gives it, read from the commands' declarations: every
// command's own help, every declared option accepted, the documentation's example lines parsed, and
// a mistake answered with that command's usage and exit status 2. (tst_cli_manners: the progress
// bar, the terminal and the other manners of a running command.)
#include "../../tools/CliProcess.h"
#include "CliOptions.h"
#include "entrena/search/BatchSizeFinder.h"
#include "entrena/search/LrFinder.h"

#include <QDir>
#include <QProcess>
#include <QRegularExpression>
#include <QtTest>
#include <algorithm>
#include <map>
#include <string>
#include <vector>

using fixtures::cli;
using fixtures::Result;

class TestCliGrammar : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // The finders' defaults are the engine's (LrFinderOptions, BatchSizeOptions): the help states
    // the values a command line without the option gets.
    void theFindersHelpStatesTheEnginesDefaults()
    {
        const std::vector<std::pair<const char*, double>> defaults = {
            {"--start-lr", entrena::LrFinderOptions{}.startLr},
            {"--end-lr", entrena::LrFinderOptions{}.endLr},
            {"--steps", double(entrena::LrFinderOptions{}.steps)},
            {"--start", double(entrena::BatchSizeOptions{}.start)},
            {"--trial-steps", double(entrena::BatchSizeOptions{}.trialSteps)}};
        int found = 0;
        for (const char* command : {"lr-find", "batch-find"})
            for (const auto& option : entrena::cli::optionsOf(*entrena::cli::findCommand(command)))
                for (const auto& [name, value] : defaults) {
                    if (option.name != name)
                        continue;
                    const auto m = QRegularExpression(QStringLiteral("\\(default ([0-9.e+-]+)\\)"))
                                       .match(QString::fromStdString(option.help));
                    QVERIFY2(m.hasMatch(), option.help.c_str());
                    QCOMPARE(m.captured(1).toDouble(), value);
                    ++found;
                }
        QCOMPARE(found, int(defaults.size()));
    }

    void everyCommandHasItsOwnHelp_data()
    {
        QTest::addColumn<QString>("command");
        for (const auto& c : entrena::cli::commands())
            QTest::newRow(c.name) << QString::fromLatin1(c.name);
    }

    void everyCommandHasItsOwnHelp()
    {
        QFETCH(QString, command);
        const auto* info = entrena::cli::findCommand(command.toStdString());
        QVERIFY(info);
        for (const QStringList& args :
             {QStringList{command, QStringLiteral("--help")}, QStringList{command, QStringLiteral("-h")},
              QStringList{QStringLiteral("help"), command}}) {
            const Result r = cli(args);
            QCOMPARE(r.exitCode, 0);
            QVERIFY2(r.out.startsWith("Usage: entrena-cli " + command.toLatin1()), r.out.constData());
            for (const auto& option : entrena::cli::optionsOf(*info))
                QVERIFY2(r.out.contains(QByteArray("  ") + option.name.c_str()),
                         qPrintable(QStringLiteral("%1 lacks %2").arg(command, QString::fromStdString(option.name))));
            // Only this command: one usage line, no list of the others.
            QCOMPARE(r.out.count("Usage:"), 1);
            QVERIFY2(!r.out.contains("\n  entrena-cli ") && !r.out.contains("Commands:"), r.out.constData());
            for (const QByteArray& line : r.out.split('\n'))
                if (!line.startsWith("Usage:"))
                    QVERIFY2(line.size() <= 79, line.constData());
        }
    }

    void everyOptionInTheTableIsAccepted()
    {
        // What --help lists, the parser takes: each option, with a value where it needs one, added
        // to the least a command needs.
        const std::map<std::string, std::vector<std::string>> least = {
            {"train", {"--config", "c.json"}},
            {"lr-find", {"--config", "c.json"}},
            {"batch-find", {"--config", "c.json"}},
            {"cluster-script", {"--config", "c.json"}},
            {"baseline", {"--run", "1"}},
            {"export", {"--run", "1", "--checkpoint", "last", "--out", "x.pt"}},
            {"sweep", {"--config", "c.json", "--space", "s.json"}},
            {"cv", {"--config", "c.json", "--folds", "3"}},
            {"import", {"other.sqlite"}},
            {"clean", {"--run", "1"}},
            {"predict", {"x.png", "--run", "1"}}};
        const std::map<std::string, std::string> values = {
            {"--status", "finished"}, {"--start-lr", "1e-5"}, {"--end-lr", "1"},       {"--set", "train.epochs=2"},
            {"--shard", "1/4"},       {"--quantile", "0.25"}, {"--checkpoint", "last"}};
        int checked = 0;
        for (const auto& c : entrena::cli::commands()) {
            for (const auto& o : entrena::cli::optionsOf(c)) {
                const std::string name = o.name;
                if (name == "-h, --help")
                    continue;
                if (name == "--metrics" || name == "--true" || name == "--predicted")
                    continue; // instead of --checkpoint: aMistakeShows… and the cell's own test cover them
                std::vector<std::string> words = {"entrena-cli", c.name};
                const auto base = least.find(c.name);
                if (base != least.end())
                    words.insert(words.end(), base->second.begin(), base->second.end());
                if (c.name == std::string("predict") && name == "--model") {
                    words.resize(3); // a model file instead of the run, not beside it
                    words.insert(words.end(), {"--model", "m.pt"});
                }
                if (std::find(words.begin(), words.end(), name) == words.end()) {
                    words.push_back(name);
                    if (!o.value.empty())
                        words.push_back(values.count(name) ? values.at(name) : std::string("32"));
                }
                std::vector<char*> argv;
                for (auto& w : words)
                    argv.push_back(w.data());
                try {
                    const auto parsed = entrena::cli::parseCommandLine(int(argv.size()), argv.data());
                    QCOMPARE(QString::fromStdString(parsed.command), QString::fromLatin1(c.name));
                    ++checked;
                } catch (const entrena::cli::UsageError& e) {
                    QFAIL(qPrintable(QStringLiteral("%1 %2: %3").arg(c.name, QString::fromStdString(o.name), e.what())));
                }
            }
        }
        QVERIFY(checked > 30);
    }

    // Every example command line of the documentation (docs/*.md, README.md) is one the parser
    // takes: a flag renamed or dropped fails here, not in a user's script. A synopsis (capitals
    // such as FILE, brackets, "...") is not an example.
    void theDocumentedExamplesParse()
    {
        QDir docs(QStringLiteral(ENTRENA_SOURCE_DIR "/docs"));
        QStringList files;
        for (const QString& name : docs.entryList({QStringLiteral("*.md")}))
            files << docs.filePath(name);
        files << QStringLiteral(ENTRENA_SOURCE_DIR "/README.md");
        const QRegularExpression synopsis(QStringLiteral("[\\[\\]|()]|\\.\\.\\.|\\b[A-Z][A-Z_.]{2,}\\b"));
        int parsed = 0;
        for (const QString& path : files) {
            QFile file(path);
            QVERIFY(file.open(QIODevice::ReadOnly));
            const QStringList lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'));
            for (int i = 0; i < lines.size(); ++i) {
                QString line = lines[i].trimmed();
                if (!line.startsWith(QStringLiteral("entrena-cli ")))
                    continue;
                while (line.endsWith(QLatin1Char('\\')) && i + 1 < lines.size())
                    line = line.chopped(1) + QLatin1Char(' ') + lines[++i].trimmed();
                line = line.section(QStringLiteral("  #"), 0, 0).section(QStringLiteral(" # "), 0, 0).trimmed();
                if (synopsis.match(line).hasMatch() || line.contains(QLatin1Char('$')) || line.contains(QLatin1Char('<')))
                    continue;
                std::vector<std::string> words;
                for (const QString& w : QProcess::splitCommand(line))
                    words.push_back(w.toStdString());
                std::vector<char*> argv;
                for (auto& w : words)
                    argv.push_back(w.data());
                try {
                    entrena::cli::parseCommandLine(int(argv.size()), argv.data());
                    ++parsed;
                } catch (const entrena::cli::UsageError& e) {
                    QFAIL(qPrintable(QStringLiteral("%1:%2: '%3': %4").arg(path).arg(i + 1).arg(line, e.what())));
                }
            }
        }
        QVERIFY2(parsed >= 20, qPrintable(QString::number(parsed)));
    }

    void aMistakeShowsTheUsageOfThatCommandOnly_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("command");
        QTest::addColumn<QString>("problem");
        QTest::newRow("unknown option") << QStringList{QStringLiteral("train"), QStringLiteral("--bogus")}
                                        << QStringLiteral("train") << QStringLiteral("'--bogus' is not an option of 'train'");
        QTest::newRow("missing value") << QStringList{QStringLiteral("runs"), QStringLiteral("--status")}
                                       << QStringLiteral("runs") << QStringLiteral("--status needs a value");
        QTest::newRow("bad number") << QStringList{QStringLiteral("lr-find"), QStringLiteral("--config"),
                                                   QStringLiteral("c.json"), QStringLiteral("--steps"), QStringLiteral("two")}
                                    << QStringLiteral("lr-find") << QStringLiteral("--steps needs a whole number");
        QTest::newRow("missing --run") << QStringList{QStringLiteral("export"), QStringLiteral("--metrics"),
                                                      QStringLiteral("csv")}
                                       << QStringLiteral("export") << QStringLiteral("export needs --run RUN");
        QTest::newRow("half a cell") << QStringList{QStringLiteral("export"), QStringLiteral("--run"), QStringLiteral("1"),
                                                    QStringLiteral("--true"), QStringLiteral("cat"),   QStringLiteral("--out"),
                                                    QStringLiteral("c.csv")}
                                     << QStringLiteral("export")
                                     << QStringLiteral("a cell is --true CLASS and --predicted CLASS together");
        QTest::newRow("a cell and weights") << QStringList{QStringLiteral("export"), QStringLiteral("--run"),
                                                           QStringLiteral("1"),      QStringLiteral("--true"),
                                                           QStringLiteral("cat"),    QStringLiteral("--predicted"),
                                                           QStringLiteral("dog"),    QStringLiteral("--checkpoint"),
                                                           QStringLiteral("last"),   QStringLiteral("--out"),
                                                           QStringLiteral("c.csv")}
                                            << QStringLiteral("export") << QStringLiteral("export needs one of");
        QTest::newRow("a cell to a .pt") << QStringList{QStringLiteral("export"), QStringLiteral("--run"),
                                                        QStringLiteral("1"),      QStringLiteral("--true"),
                                                        QStringLiteral("cat"),    QStringLiteral("--predicted"),
                                                        QStringLiteral("dog"),    QStringLiteral("--out"),
                                                        QStringLiteral("c.pt")}
                                         << QStringLiteral("export")
                                         << QStringLiteral("--out for a cell's samples must end in .csv or .json");
    }

    void aMistakeShowsTheUsageOfThatCommandOnly()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, command);
        QFETCH(QString, problem);
        const Result r = cli(args);
        QCOMPARE(r.exitCode, 2);
        const QString err = QString::fromUtf8(r.err);
        QVERIFY2(err.startsWith(QStringLiteral("entrena-cli: ") + problem), r.err.constData());
        QVERIFY2(err.contains(QStringLiteral("usage: entrena-cli ") + command + QLatin1Char(' ')), r.err.constData());
        QVERIFY2(err.contains(QStringLiteral("entrena-cli %1 --help").arg(command)), r.err.constData());
        QCOMPARE(r.err.trimmed().count('\n'), 2); // three lines: the message, the usage line, the pointer to --help
        QVERIFY(r.out.isEmpty());
    }

    void anUnknownCommandPointsToTheOverview()
    {
        const Result r = cli({QStringLiteral("trian")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("unknown command 'trian'") && r.err.contains("entrena-cli --help"), r.err.constData());
        QVERIFY2(!r.err.contains("cluster-script"), r.err.constData());
        QCOMPARE(cli({QStringLiteral("help"), QStringLiteral("trian")}).exitCode, 2);
    }
};

QTEST_GUILESS_MAIN(TestCliGrammar)
#include "tst_cli_grammar.moc"
