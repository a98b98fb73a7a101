// entrena-cli's manners on a command line: a help per command, errors that show the usage of the
// command concerned, a progress bar that fits the terminal and stays out of redirected output,
// configuration keys for completion, torchrun's error file, and a Slurm script that survives any
// run name. The command table and the bar's layout are linked in and checked directly too.
#include "CliOptions.h"
#include "ProgressBar.h"

#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QtTest>
#include <chrono>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

struct Result {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

Result cli(const QStringList& args, const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment())
{
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(ENTRENA_CLI), args);
    p.waitForFinished(240000);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(), p.readAllStandardError()};
}

/// entrena-cli run on a pseudo-terminal `columns` wide, as in a terminal window: what the
/// terminal received, and the exit status. With `stdoutFile`, stdout goes there instead (`> log`).
Result inTerminal(const QStringList& args, int columns, const QString& stdoutFile = {})
{
    winsize size{};
    size.ws_col = static_cast<unsigned short>(columns);
    size.ws_row = 24;
    std::vector<QByteArray> owned{QByteArray(ENTRENA_CLI)};
    for (const QString& a : args)
        owned.push_back(a.toLocal8Bit());
    std::vector<char*> argv;
    for (auto& a : owned)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    const QByteArray file = stdoutFile.toLocal8Bit();

    int master = -1;
    const pid_t pid = forkpty(&master, nullptr, nullptr, &size);
    if (pid < 0)
        return {};
    if (pid == 0) {
        if (!file.isEmpty()) {
            const int fd = ::open(file.constData(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
            ::dup2(fd, STDOUT_FILENO);
            ::close(fd);
        }
        ::unsetenv("COLUMNS"); // the terminal's own width must be what counts
        ::execv(argv[0], argv.data());
        ::_exit(127);
    }
    Result r;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(4);
    char buffer[4096];
    while (std::chrono::steady_clock::now() < deadline) {
        pollfd p{master, POLLIN, 0};
        if (::poll(&p, 1, 500) <= 0)
            continue;
        const ssize_t n = ::read(master, buffer, sizeof buffer);
        if (n <= 0)
            break; // EIO: the child closed the terminal
        r.out.append(buffer, int(n));
    }
    ::close(master);
    int status = 0;
    ::waitpid(pid, &status, 0);
    r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

/// The lines a terminal `columns` wide shows after `output`: carriage return, line feed, erase to
/// the end of the line, and wrapping at the right edge, which is what makes a too-wide bar pile up
/// (its first rows stay when the last is erased). Rows continued by wrapping are joined again.
QStringList screen(const QByteArray& output, int columns)
{
    QStringList rows{QString()};
    QSet<int> continued; // rows a wrap started
    int row = 0, column = 0;
    const QString text = QString::fromUtf8(output);
    for (int i = 0; i < text.size(); ++i) {
        const QChar ch = text.at(i);
        if (ch == QLatin1Char('\r')) {
            column = 0;
        } else if (ch == QLatin1Char('\n')) {
            ++row;
            column = 0;
        } else if (ch == QLatin1Char('\033') && text.mid(i, 3) == QStringLiteral("\033[K")) {
            rows[row].truncate(column);
            i += 2;
        } else {
            if (column == columns) { // the line is full: the terminal wraps
                ++row;
                column = 0;
                continued.insert(row);
            }
            while (rows.size() <= row)
                rows.append(QString());
            QString& line = rows[row];
            if (line.size() < column)
                line.append(QString(column - line.size(), QLatin1Char(' ')));
            if (column < line.size())
                line[column] = ch;
            else
                line.append(ch);
            ++column;
        }
        while (rows.size() <= row)
            rows.append(QString());
    }
    QStringList lines;
    for (int i = 0; i < rows.size(); ++i) {
        if (continued.contains(i) && !lines.isEmpty())
            lines.last() += rows.at(i);
        else
            lines.append(rows.at(i));
    }
    while (!lines.isEmpty() && lines.last().isEmpty())
        lines.removeLast();
    return lines;
}

/// The widest line drawn in place: what follows a "\r\033[K" up to the next carriage return. (Lines
/// printed once, ended by a line feed, may wrap like any terminal output; a line redrawn in place
/// must not.)
int widestBar(const QByteArray& output)
{
    int widest = 0;
    const QList<QByteArray> pieces = output.split('\033');
    for (const QByteArray& piece : pieces) {
        if (!piece.startsWith("[K"))
            continue;
        QByteArray bar = piece.mid(2);
        const qsizetype cr = bar.indexOf('\r'), lf = bar.indexOf('\n');
        if (lf >= 0 && (cr < 0 || lf <= cr + 1))
            continue; // a line printed once after the bar was cleared (the terminal sends \r\n)
        if (cr >= 0)
            bar.truncate(int(cr));
        widest = std::max(widest, int(QString::fromUtf8(bar).size()));
    }
    return widest;
}

} // namespace

class TestCliManners : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;
    QString config_;

    QString path(const QString& name) const { return dir_.filePath(name); }

    QString writeFile(const QString& name, const QByteArray& text)
    {
        QFile f(path(name));
        f.open(QIODevice::WriteOnly);
        f.write(text);
        return f.fileName();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        // A short run that logs every step, so the bar is redrawn often.
        config_ = writeFile(QStringLiteral("short.json"),
                            "{\"name\": \"manners\", \"data\": {\"path\": \"" ENTRENA_FMNIST_DIR "\", \"train_limit\": 2000, "
                            "\"test_limit\": 500, \"batch_size\": 64, \"workers\": 1}, \"model\": {\"arch\": \"mlp\", "
                            "\"hidden\": [32]}, \"scheduler\": {\"name\": \"constant\"}, "
                            "\"train\": {\"epochs\": 2, \"log_every\": 1}}");
    }

    void barLayoutNeverReachesTheLastColumn()
    {
        using entrena::cli::ProgressBar;
        const std::vector<std::string> fields = {"epoch 12/120", "loss 0.4123", "ETA 1234s", "123456 samples/s", "lr 0.000123"};
        for (int columns = 1; columns <= 200; ++columns) {
            for (double fraction : {-1.0, 0.0, 0.37, 1.0}) {
                const std::string line = ProgressBar::layout(fraction, fields, columns);
                QVERIFY2(int(line.size()) <= std::max(columns - 1, 1),
                         qPrintable(QStringLiteral("%1 columns: '%2'").arg(columns).arg(QString::fromStdString(line))));
                if (columns >= 40)
                    QVERIFY2(line.find("epoch 12/120") != std::string::npos, line.c_str()); // the first field stays
            }
        }
        // On a wide terminal everything is there, with a full bar.
        const std::string wide = ProgressBar::layout(0.5, fields, 200);
        QVERIFY2(wide.find("lr 0.000123") != std::string::npos && wide.find("[###############...............]") == 0,
                 wide.c_str());
    }

    void progressBarFitsTheTerminalAndLeavesOneLine_data()
    {
        QTest::addColumn<int>("columns");
        QTest::newRow("80 columns") << 80;
        QTest::newRow("50 columns") << 50;
    }

    void progressBarFitsTheTerminalAndLeavesOneLine()
    {
        QFETCH(int, columns);
        const Result r = inTerminal({QStringLiteral("train"), QStringLiteral("--config"), config_, QStringLiteral("--db"),
                                     path(QStringLiteral("tty.sqlite"))},
                                    columns);
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.count("ETA") > 20, r.out.constData()); // the bar was drawn, step by step
        QVERIFY2(widestBar(r.out) < columns, qPrintable(QStringLiteral("a line of %1 columns").arg(widestBar(r.out))));
        // What stays on the screen: the start line, one per epoch, the end line; no bar.
        const QStringList rows = screen(r.out, columns);
        QStringList expected;
        for (const QString& row : rows)
            if (row.startsWith(QStringLiteral("run ")) || row.startsWith(QStringLiteral("epoch ")) ||
                row.startsWith(QStringLiteral("finished")))
                expected.append(row);
        QVERIFY2(rows.size() >= 4, qPrintable(rows.join(QLatin1Char('\n'))));
        QVERIFY2(rows == expected, qPrintable(rows.join(QLatin1Char('\n'))));
    }

    void redirectedStdoutGetsNoProgressBar()
    {
        const QString log = path(QStringLiteral("train.log"));
        const Result r = inTerminal({QStringLiteral("train"), QStringLiteral("--config"), config_, QStringLiteral("--db"),
                                     path(QStringLiteral("log.sqlite"))},
                                    80, log);
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.count("ETA") > 20, r.out.constData()); // the terminal (stderr) shows the bar
        QFile f(log);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray text = f.readAll();
        QVERIFY2(!text.contains('\r') && !text.contains('\033') && !text.contains("ETA"), text.constData());
        QCOMPARE(text.count("\nepoch "), 2);
        QVERIFY2(text.startsWith("run ") && text.contains("\nfinished after"), text.constData());
    }

    void lrFindAndBatchFindShowProgress()
    {
        const Result lr = inTerminal(
            {QStringLiteral("lr-find"), QStringLiteral("--config"), config_, QStringLiteral("--steps"), QStringLiteral("30")},
            80);
        QCOMPARE(lr.exitCode, 0);
        QVERIFY2(lr.out.contains("step 15/30") && lr.out.contains("step 30/30"), lr.out.constData());
        QVERIFY(widestBar(lr.out) < 80);
        QVERIFY2(screen(lr.out, 80).join(QLatin1Char('\n')).contains(QStringLiteral("suggested learning rate")),
                 lr.out.constData());
        QVERIFY2(!screen(lr.out, 80).join(QLatin1Char('\n')).contains(QStringLiteral("step 30/30")), lr.out.constData());

        const Result batch =
            inTerminal({QStringLiteral("batch-find"), QStringLiteral("--config"), config_, QStringLiteral("--max"),
                        QStringLiteral("64"), QStringLiteral("--trial-steps"), QStringLiteral("1")},
                       80);
        QCOMPARE(batch.exitCode, 0);
        QVERIFY2(batch.out.contains("trial 1: batch 16 on cpu") && batch.out.contains("largest that fits so far: 32"),
                 batch.out.constData());
        QVERIFY2(screen(batch.out, 80).join(QLatin1Char('\n')).contains(QStringLiteral("largest batch that fits: 64")),
                 batch.out.constData());
    }

    void registryTablesInTheDocsAreTheRegistry()
    {
        // configuration.md's tables of data sets, models, optimizers and schedules are the engine's
        // registries as `config-keys --markdown` prints them: a new entry or key changes both.
        const Result r = cli({QStringLiteral("config-keys"), QStringLiteral("--markdown")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("| `one_cycle` |") && r.out.contains("`pct_start` (`0.3`)"));
        QFile doc(QStringLiteral(ENTRENA_SOURCE_DIR "/docs/configuration.md"));
        QVERIFY(doc.open(QIODevice::ReadOnly));
        const QByteArray text = doc.readAll();
        const QByteArray begin = "<!-- registry tables: entrena-cli config-keys --markdown -->\n";
        const QByteArray end = "<!-- end of registry tables -->";
        const qsizetype from = text.indexOf(begin), to = text.indexOf(end);
        QVERIFY2(from >= 0 && to > from, "docs/configuration.md lost its registry tables' markers");
        QCOMPARE(QString::fromUtf8(text.mid(from + begin.size(), to - from - begin.size())), QString::fromUtf8(r.out));
    }

    void configKeysAreTheDocumentedKeys()
    {
        const Result r = cli({QStringLiteral("config-keys")});
        QCOMPARE(r.exitCode, 0);
        QFile doc(QStringLiteral(ENTRENA_SOURCE_DIR "/docs/configuration.md"));
        QVERIFY(doc.open(QIODevice::ReadOnly));
        const QString documented = QString::fromUtf8(doc.readAll());
        QStringList keys;
        for (const QByteArray& line : r.out.trimmed().split('\n'))
            keys.append(QString::fromUtf8(line.split(' ').first()));
        for (const QString& key : {QStringLiteral("data.batch_size"), QStringLiteral("scheduler.max_lr"),
                                   QStringLiteral("optimizer.beta1"), QStringLiteral("data.label_column"),
                                   QStringLiteral("model.path"), QStringLiteral("devices.ids"), QStringLiteral("seed")})
            QVERIFY2(keys.contains(key), qPrintable(key));
        for (const QString& key : keys) // each key the completion offers is in the documentation
            QVERIFY2(documented.contains(QLatin1Char('`') + key + QLatin1Char('`')),
                     qPrintable(key + QStringLiteral(" is not in docs/configuration.md")));
        // Every listed default is accepted back through --set (the keys that apply to the short
        // configuration: an mlp with SGD and a constant schedule on IDX data).
        QStringList sets;
        const QRegularExpression applies(
            QStringLiteral("^(name|seed|data\\.(?!test_path|label_column|header|image_size|channels|cache_mb).*|train\\..*|"
                           "devices\\..*|model\\.(hidden|dropout)|"
                           "optimizer\\.(lr|weight_decay|momentum|nesterov|dampening)|scheduler\\.warmup_steps)$"));
        for (const QByteArray& line : r.out.trimmed().split('\n')) {
            const QList<QByteArray> parts = line.simplified().split(' ');
            if (applies.match(QString::fromUtf8(parts.first())).hasMatch() && parts.first() != "name")
                sets << QStringLiteral("--set") << QString::fromUtf8(parts.first() + '=' + parts.value(1));
        }
        QVERIFY(sets.size() > 40);
        const Result back = cli(QStringList{QStringLiteral("cluster-script"), QStringLiteral("--config"), config_} + sets);
        QVERIFY2(back.exitCode == 0, back.err.constData());
    }

    void aFailingRankWritesTorchelasticsErrorFile()
    {
        const QString errorFile = path(QStringLiteral("error.json"));
        const QString bad = writeFile(QStringLiteral("bad.json"), "{\"data\": {\"batch_size\": -3}}");
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("TORCHELASTIC_ERROR_FILE"), errorFile);
        const Result r = cli(
            {QStringLiteral("train"), QStringLiteral("--config"), bad, QStringLiteral("--db"), path(QStringLiteral("e.sqlite"))},
            env);
        QCOMPARE(r.exitCode, 2);
        QFile f(errorFile);
        QVERIFY2(f.open(QIODevice::ReadOnly), "no error file written");
        const QJsonObject record = QJsonDocument::fromJson(f.readAll()).object();
        const QJsonObject message = record.value(QStringLiteral("message")).toObject();
        QVERIFY2(message.value(QStringLiteral("message")).toString().contains(QStringLiteral("data.batch_size")),
                 qPrintable(message.value(QStringLiteral("message")).toString()));
        bool number = false;
        const qint64 when = message.value(QStringLiteral("extraInfo"))
                                .toObject()
                                .value(QStringLiteral("timestamp"))
                                .toString()
                                .toLongLong(&number);
        QVERIFY(number && std::abs(when - QDateTime::currentSecsSinceEpoch()) < 600);
        // Without the variable, no file.
        QFile::remove(errorFile);
        QCOMPARE(cli({QStringLiteral("train"), QStringLiteral("--config"), bad}).exitCode, 2);
        QVERIFY(!QFile::exists(errorFile));
    }

    void clusterScriptSurvivesAnyRunName()
    {
        // A name with spaces, quotes, a percent sign (Slurm expands %j in --output) and a slash.
        const QString config = writeFile(QStringLiteral("my config.json"),
                                         "{\"name\": \"my run's \\\"best\\\" 100% a/b\", \"data\": {\"path\": \"/tmp\"}}");
        const QString script = path(QStringLiteral("job.sbatch"));
        const Result r = cli({QStringLiteral("cluster-script"), QStringLiteral("--config"), config, QStringLiteral("--nodes"),
                              QStringLiteral("2"), QStringLiteral("--out"), script});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        // Stand-ins for Slurm and torchrun that print the arguments they get, one per line.
        const QString bin = path(QStringLiteral("bin"));
        QDir().mkpath(bin);
        const auto tool = [&](const QString& name, const QByteArray& body) {
            QFile f(bin + QLatin1Char('/') + name);
            f.open(QIODevice::WriteOnly);
            f.write("#!/bin/bash\n" + body);
            f.close();
            f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        };
        tool(QStringLiteral("scontrol"), "echo node1; echo node2\n");
        tool(QStringLiteral("srun"), "exec \"$@\"\n");
        tool(QStringLiteral("torchrun"), "printf '%s\\n' \"$@\"\n");
        QProcess bash;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("PATH"), bin + QStringLiteral(":/usr/bin:/bin"));
        env.insert(QStringLiteral("SLURM_JOB_NODELIST"), QStringLiteral("node[1-2]"));
        env.insert(QStringLiteral("SLURM_NNODES"), QStringLiteral("2"));
        env.insert(QStringLiteral("SLURM_JOB_ID"), QStringLiteral("42"));
        bash.setProcessEnvironment(env);
        bash.start(QStringLiteral("/bin/bash"), {script});
        QVERIFY(bash.waitForFinished(20000));
        QVERIFY2(bash.exitCode() == 0, bash.readAllStandardError().constData());
        const QStringList words = QString::fromUtf8(bash.readAllStandardOutput()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QVERIFY2(words.contains(QStringLiteral("--rdzv_id=42")), qPrintable(words.join(QLatin1Char('|'))));
        const int at = int(words.indexOf(QStringLiteral("--config")));
        QVERIFY2(at > 0 && words.value(at + 1) == QFileInfo(config).absoluteFilePath(), qPrintable(words.join(QLatin1Char('|'))));

        QFile f(script);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(f.readAll());
        const QRegularExpression directive(QStringLiteral("^#SBATCH --(job-name|output)=(\\S+)$"),
                                           QRegularExpression::MultilineOption);
        int directives = 0;
        for (auto m = directive.globalMatch(text); m.hasNext(); ++directives) {
            const QString value = m.next().captured(2);
            QVERIFY2(QRegularExpression(QStringLiteral("^[A-Za-z0-9._%-]+$")).match(value).hasMatch(), qPrintable(value));
            QVERIFY2(!value.contains(QStringLiteral("100%")), qPrintable(value)); // the name's % is no Slurm pattern
        }
        QCOMPARE(directives, 2);

        // The one-line torchrun command, run by a shell as printed, keeps the id in one word.
        const Result printed = cli({QStringLiteral("cluster-script"), QStringLiteral("--config"), config});
        const QString line = QString::fromUtf8(printed.out).split(QLatin1Char('\n')).value(1);
        QVERIFY2(line.startsWith(QStringLiteral("torchrun ")), qPrintable(line));
        bash.start(QStringLiteral("/bin/bash"), {QStringLiteral("-c"), QStringLiteral("MASTER_ADDR=node1; ") + line});
        QVERIFY(bash.waitForFinished(20000));
        const QStringList args = QString::fromUtf8(bash.readAllStandardOutput()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QVERIFY2(args.contains(QStringLiteral("--rdzv_id=my_run_s__best__100__a_b")), qPrintable(args.join(QLatin1Char('|'))));
        QVERIFY2(args.contains(QStringLiteral("--rdzv_endpoint=node1:29500")), qPrintable(args.join(QLatin1Char('|'))));
    }
};

QTEST_GUILESS_MAIN(TestCliManners)
#include "tst_cli_manners.moc"
