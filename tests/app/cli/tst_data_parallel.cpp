// Data-parallel runs of entrena-cli on the CPU (Gloo), several processes each: the same weights
// as one process with the whole batch, the launcher and hand-started (torchrun-style) ranks
// agreeing, failures (a killed rank, a stalled one) stopping the others within the bound, Stop
// stopping all, and bad launches refused before training.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace {

constexpr int kBoundSeconds = 20; // devices.timeout_s in these tests

struct Result {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
    double seconds = 0;
};

QProcessEnvironment rankEnv(int rank, int world, int port, const QString& addr = QStringLiteral("127.0.0.1"))
{
    auto env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("RANK"), QString::number(rank));
    env.insert(QStringLiteral("WORLD_SIZE"), QString::number(world));
    env.insert(QStringLiteral("LOCAL_RANK"), QString::number(rank));
    env.insert(QStringLiteral("LOCAL_WORLD_SIZE"), QString::number(world));
    env.insert(QStringLiteral("MASTER_ADDR"), addr);
    env.insert(QStringLiteral("MASTER_PORT"), QString::number(port));
    return env;
}

Result finish(QProcess& p, int timeoutMs = 240000)
{
    QElapsedTimer t;
    t.start();
    if (!p.waitForFinished(timeoutMs))
        p.kill();
    p.waitForFinished();
    Result r{p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
             p.readAllStandardError(), t.elapsed() / 1000.0};
    return r;
}

Result cli(const QStringList& args, const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment())
{
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(ENTRENA_CLI), args);
    return finish(p);
}

QList<QJsonObject> events(const QByteArray& out, const QString& kind)
{
    QList<QJsonObject> list;
    for (const QByteArray& line : out.split('\n')) {
        const auto o = QJsonDocument::fromJson(line).object();
        if (o.value(QStringLiteral("event")).toString() == kind)
            list.push_back(o);
    }
    return list;
}

/// A TCP socket bound to a port of the kernel's choice (on every address, or on loopback),
/// listening when asked; its port in `port`.
int boundSocket(bool anyAddress, bool listening, int& port)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(anyAddress ? INADDR_ANY : INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || (listening && ::listen(fd, 1) != 0))
        qFatal("cannot bind a test socket");
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
    port = ntohs(a.sin_port);
    return fd;
}

/// A port nothing listens on (bound and released).
int freePort()
{
    int port = 0;
    ::close(boundSocket(false, false, port));
    return port;
}

/// The tensors of a .safetensors file as float arrays, by name.
QMap<QString, QVector<float>> readSafetensors(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    const QByteArray all = f.readAll();
    quint64 headerLen = 0;
    std::memcpy(&headerLen, all.constData(), 8);
    const QJsonObject header = QJsonDocument::fromJson(all.mid(8, int(headerLen))).object();
    const char* data = all.constData() + 8 + headerLen;
    QMap<QString, QVector<float>> out;
    for (auto it = header.begin(); it != header.end(); ++it) {
        const QJsonObject t = it.value().toObject();
        if (t.value(QStringLiteral("dtype")).toString() != QStringLiteral("F32"))
            continue;
        const auto offsets = t.value(QStringLiteral("data_offsets")).toArray();
        const qint64 begin = offsets[0].toInteger(), end = offsets[1].toInteger();
        QVector<float> v(int((end - begin) / 4));
        std::memcpy(v.data(), data + begin, size_t(end - begin));
        out.insert(it.key(), v);
    }
    return out;
}

double maxDifference(const QMap<QString, QVector<float>>& a, const QMap<QString, QVector<float>>& b)
{
    if (a.isEmpty() || a.keys() != b.keys())
        return 1e9;
    double worst = 0;
    for (auto it = a.begin(); it != a.end(); ++it) {
        const auto& other = b[it.key()];
        if (other.size() != it.value().size())
            return 1e9;
        for (int i = 0; i < other.size(); ++i)
            worst = std::max(worst, double(std::abs(other[i] - it.value()[i])));
    }
    return worst;
}

bool alive(qint64 pid)
{
    return ::kill(pid_t(pid), 0) == 0 || errno != ESRCH;
}

/// The child processes of `pid`, in the order they were started.
QList<qint64> childrenOf(qint64 pid)
{
    QFile f(QStringLiteral("/proc/%1/task/%1/children").arg(pid));
    QList<qint64> out;
    if (f.open(QIODevice::ReadOnly))
        for (const QByteArray& s : f.readAll().split(' '))
            if (!s.trimmed().isEmpty())
                out.push_back(s.trimmed().toLongLong());
    return out;
}

/// Waits until `p` has written a step event to stdout (keeping what it wrote in `seen`).
bool waitForStep(QProcess& p, QByteArray& seen, int timeoutMs = 120000)
{
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < timeoutMs) {
        p.waitForReadyRead(200);
        seen += p.readAllStandardOutput();
        if (seen.contains("\"event\":\"step\""))
            return true;
        if (p.state() == QProcess::NotRunning)
            return false;
    }
    return false;
}

} // namespace

class TestDataParallel : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;
    QString config_;
    QMap<QString, QVector<float>> launcherWeights_;

    /// A store of its own, in a folder of its own (checkpoints go beside the store).
    QString db(const QString& name) const
    {
        QDir(dir_.path()).mkpath(name);
        return dir_.filePath(name + QStringLiteral("/runs.sqlite"));
    }

    QStringList train(const QString& database, const QStringList& extra = {}) const
    {
        return QStringList{QStringLiteral("train"), QStringLiteral("--config"), config_, QStringLiteral("--db"), database,
                           QStringLiteral("--json")} +
               extra;
    }

    QMap<QString, QVector<float>> lastWeights(const QString& database, const QString& run)
    {
        const QString out = dir_.filePath(QStringLiteral("w-%1-%2.safetensors").arg(QFileInfo(database).dir().dirName(), run));
        const Result r = cli({QStringLiteral("export"), QStringLiteral("--run"), run, QStringLiteral("--db"), database,
                              QStringLiteral("--checkpoint"), QStringLiteral("last"), QStringLiteral("--out"), out});
        if (r.exitCode != 0)
            qWarning() << r.err;
        return readSafetensors(out);
    }

    QJsonArray runs(const QString& database)
    {
        const Result r = cli({QStringLiteral("runs"), QStringLiteral("--db"), database, QStringLiteral("--json")});
        return QJsonDocument::fromJson(r.out).array();
    }

    /// `--nproc 2` on a run long enough to interrupt, once it has logged a step.
    bool startLongLauncher(QProcess& launcher, const QString& database, QByteArray& seen) const
    {
        launcher.start(QStringLiteral(ENTRENA_CLI), train(database, {QStringLiteral("--nproc"), QStringLiteral("2"),
                                                                     QStringLiteral("--set"), QStringLiteral("train.epochs=500")}));
        return waitForStep(launcher, seen);
    }

    /// Two ranks started by hand with torchrun's variables.
    void startByHand(QProcess (&ranks)[2], const QString& database, const QStringList& extra = {},
                     const QStringList& rank1Extra = {})
    {
        const int port = freePort();
        for (int r = 0; r < 2; ++r) {
            ranks[r].setProcessEnvironment(rankEnv(r, 2, port));
            ranks[r].start(QStringLiteral(ENTRENA_CLI), train(database, extra + (r == 1 ? rank1Extra : QStringList())));
        }
    }

    /// Two ranks of entrena-cli `args` under Debian's torchrun, the output merged, logs in `logs`.
    void startTorchrun(QProcess& p, const QString& torchrun, const QString& logs, const QStringList& args)
    {
        p.setProcessChannelMode(QProcess::MergedChannels);
        // --redirects/--tee 1 and a log folder: Debian's torchrun 1.13 cannot parse its own "0"
        // defaults under Python 3.11 (IntFlag no longer lists Std.NONE).
        p.start(torchrun, QStringList{QStringLiteral("--nproc_per_node=2"), QStringLiteral("--master_port=%1").arg(freePort()),
                                      QStringLiteral("--redirects=1"), QStringLiteral("--tee=1"),
                                      QStringLiteral("--log_dir=%1").arg(dir_.filePath(logs)), QStringLiteral("--no_python"),
                                      QStringLiteral(ENTRENA_CLI)} +
                              args);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        config_ = dir_.filePath(QStringLiteral("dp.json"));
        QFile f(config_);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"name": "dp", "seed": 3,
            "data": {"path": ")" ENTRENA_FMNIST_DIR R"(", "train_limit": 2048, "test_limit": 1000,
                     "batch_size": 64, "workers": 0},
            "model": {"arch": "mlp"}, "optimizer": {"name": "sgd", "lr": 0.05, "momentum": 0.9},
            "scheduler": {"name": "constant"},
            "train": {"epochs": 2, "log_every": 5},
            "devices": {"type": "cpu", "timeout_s": 20}})");
    }

    // 2 ranks x 64 = 1 rank x 128: the same steps, losses, validation and weights.
    void twoRanksEqualOneWithTheWholeBatch()
    {
        const Result one = cli(train(db(QStringLiteral("one")), {QStringLiteral("--set"), QStringLiteral("data.batch_size=128")}));
        QVERIFY2(one.exitCode == 0, one.err.constData());
        const Result two = cli(train(db(QStringLiteral("two")), {QStringLiteral("--nproc"), QStringLiteral("2")}));
        QVERIFY2(two.exitCode == 0, two.err.constData());

        QCOMPARE(events(two.out, QStringLiteral("start")).value(0).value(QStringLiteral("world_size")).toInt(), 2);
        const auto a = events(one.out, QStringLiteral("step")), b = events(two.out, QStringLiteral("step"));
        QCOMPARE(a.size(), 6); // 2048 samples / 128 = 16 steps a epoch, logged every 5 and at the end
        QCOMPARE(b.size(), a.size());
        for (int i = 0; i < a.size(); ++i) {
            QCOMPARE(b[i].value(QStringLiteral("step")).toInt(), a[i].value(QStringLiteral("step")).toInt());
            const double la = a[i].value(QStringLiteral("loss")).toDouble(), lb = b[i].value(QStringLiteral("loss")).toDouble();
            QVERIFY2(std::abs(la - lb) < 1e-5, qPrintable(QStringLiteral("step loss %1 vs %2").arg(la).arg(lb)));
            QCOMPARE(b[i].value(QStringLiteral("rank_memory_bytes")).toArray().size(), 2);
            QVERIFY(b[i].value(QStringLiteral("rank_memory_bytes")).toArray()[1].toDouble() > 0);
            QVERIFY(b[i].contains(QStringLiteral("comm_busy_seconds")));
        }
        // Validation and test are split between the ranks and reduced: the same numbers.
        const auto ea = events(one.out, QStringLiteral("epoch")), eb = events(two.out, QStringLiteral("epoch"));
        QCOMPARE(eb.size(), 2);
        for (int i = 0; i < 2; ++i) {
            QVERIFY(std::abs(ea[i].value(QStringLiteral("val_accuracy")).toDouble() -
                             eb[i].value(QStringLiteral("val_accuracy")).toDouble()) < 1e-9);
            QVERIFY(std::abs(ea[i].value(QStringLiteral("train_loss")).toDouble() -
                             eb[i].value(QStringLiteral("train_loss")).toDouble()) < 1e-5);
        }
        const auto enda = events(one.out, QStringLiteral("end")).value(0), endb = events(two.out, QStringLiteral("end")).value(0);
        QCOMPARE(endb.value(QStringLiteral("test_accuracy")).toDouble(), enda.value(QStringLiteral("test_accuracy")).toDouble());

        const auto wa = lastWeights(db(QStringLiteral("one")), QStringLiteral("1"));
        launcherWeights_ = lastWeights(db(QStringLiteral("two")), QStringLiteral("1"));
        QCOMPARE(wa.size(), 6); // three linear layers
        const double diff = maxDifference(wa, launcherWeights_);
        QVERIFY2(diff < 1e-5, qPrintable(QStringLiteral("weights differ by %1").arg(diff)));
        QCOMPARE(runs(db(QStringLiteral("two"))).size(), 1); // rank 0 alone recorded it
    }

    // torchrun's way: two processes given RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT.
    void handStartedRanksEqualTheLauncher()
    {
        QVERIFY(!launcherWeights_.isEmpty());
        QProcess ranks[2];
        startByHand(ranks, db(QStringLiteral("hand")));
        const Result r0 = finish(ranks[0]), r1 = finish(ranks[1]);
        QVERIFY2(r0.exitCode == 0, r0.err.constData());
        QVERIFY2(r1.exitCode == 0, r1.err.constData());
        QVERIFY(r1.out.isEmpty()); // rank 1 reports nothing: rank 0's stream is the run's
        QCOMPARE(events(r0.out, QStringLiteral("end")).value(0).value(QStringLiteral("status")).toString(),
                 QStringLiteral("finished"));
        QCOMPARE(runs(db(QStringLiteral("hand"))).size(), 1);
        const double diff = maxDifference(lastWeights(db(QStringLiteral("hand")), QStringLiteral("1")), launcherWeights_);
        QVERIFY2(diff < 1e-6, qPrintable(QStringLiteral("weights differ by %1").arg(diff)));
    }

    // torchrun itself (Debian's, PyTorch 1.13): its agent serves the store on MASTER_PORT.
    void torchrunRanksEqualTheLauncher()
    {
        QVERIFY(!launcherWeights_.isEmpty());
        const QString torchrun = QStandardPaths::findExecutable(QStringLiteral("torchrun"));
        if (torchrun.isEmpty())
            QSKIP("torchrun (python3-torch) is not installed");
        const QString database = db(QStringLiteral("torchrun"));
        QProcess p;
        startTorchrun(p, torchrun, QStringLiteral("torchrun-logs"), train(database));
        const Result r = finish(p);
        QVERIFY2(r.exitCode == 0, r.out.right(3000).constData());
        QCOMPARE(runs(database).size(), 1);
        const double diff = maxDifference(lastWeights(database, QStringLiteral("1")), launcherWeights_);
        QVERIFY2(diff < 1e-6, qPrintable(QStringLiteral("weights differ by %1").arg(diff)));
    }

    // torchrun's failure summary shows what a rank wrote to TORCHELASTIC_ERROR_FILE; without it,
    // every rank's "traceback" was torchrun's "To enable traceback see: …".
    void torchrunSummaryNamesTheRanksError()
    {
        const QString torchrun = QStandardPaths::findExecutable(QStringLiteral("torchrun"));
        if (torchrun.isEmpty())
            QSKIP("torchrun (python3-torch) is not installed");
        QProcess p;
        startTorchrun(p, torchrun, QStringLiteral("torchrun-fail-logs"),
                      train(db(QStringLiteral("torchrun-fail"))) +
                          QStringList{QStringLiteral("--set"), QStringLiteral("data.path=/nonexistent-entrena")});
        const Result r = finish(p);
        QVERIFY(r.exitCode != 0);
        const QByteArray summary = r.out.mid(r.out.indexOf("Root Cause"));
        QVERIFY2(summary.contains("traceback : entrena-cli:") && summary.contains("data.path '/nonexistent-entrena' is not a folder"),
                 r.out.right(3000).constData());
        QVERIFY2(!r.out.contains("To enable traceback see"), r.out.right(3000).constData());
        QVERIFY2(!r.out.contains("rank 1: run 0"), r.out.right(3000).constData()); // a rank that records no run says so
    }

    void killedRankStopsTheOther()
    {
        QProcess ranks[2];
        startByHand(ranks, db(QStringLiteral("kill")), {QStringLiteral("--set"), QStringLiteral("train.epochs=500")});
        QByteArray seen;
        QVERIFY(waitForStep(ranks[0], seen));
        ::kill(pid_t(ranks[1].processId()), SIGKILL);
        const Result r0 = finish(ranks[0], 60000);
        finish(ranks[1]);
        QCOMPARE(r0.exitCode, 1);
        QVERIFY2(r0.seconds < kBoundSeconds, qPrintable(QString::number(r0.seconds)));
        QVERIFY2(r0.err.contains("rank 1 exited or was killed"), r0.err.constData());
        QCOMPARE(runs(db(QStringLiteral("kill")))[0].toObject().value(QStringLiteral("status")).toString(),
                 QStringLiteral("failed"));
    }

    void stalledRankTimesOut()
    {
        QProcess ranks[2];
        startByHand(ranks, db(QStringLiteral("stall")),
                    {QStringLiteral("--set"), QStringLiteral("train.epochs=500"), QStringLiteral("--set"),
                     QStringLiteral("devices.timeout_s=3")});
        QByteArray seen;
        QVERIFY(waitForStep(ranks[0], seen));
        ::kill(pid_t(ranks[1].processId()), SIGSTOP);
        const Result r0 = finish(ranks[0], 60000);
        ::kill(pid_t(ranks[1].processId()), SIGKILL);
        finish(ranks[1]);
        QCOMPARE(r0.exitCode, 1);
        QVERIFY2(r0.seconds >= 2.5 && r0.seconds < 3 + 10, qPrintable(QString::number(r0.seconds)));
        QVERIFY2(r0.err.contains("rank 1 stopped answering"), r0.err.constData());
    }

    void launcherStopsEveryRankWhenOneDies_data()
    {
        QTest::addColumn<int>("victim");
        QTest::newRow("rank 1") << 1;
        QTest::newRow("rank 0, the master") << 0;
    }
    void launcherStopsEveryRankWhenOneDies()
    {
        QFETCH(int, victim);
        const QString database = db(QStringLiteral("launch-kill-%1").arg(victim));
        QProcess launcher;
        QByteArray seen;
        QVERIFY(startLongLauncher(launcher, database, seen));
        const auto ranks = childrenOf(launcher.processId());
        QCOMPARE(ranks.size(), 2);
        ::kill(pid_t(ranks[victim]), SIGKILL);
        const Result r = finish(launcher, 60000);
        seen += r.out;
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.seconds < kBoundSeconds, qPrintable(QString::number(r.seconds)));
        QVERIFY2(r.err.contains(qPrintable(QStringLiteral("rank %1 was killed by signal 9").arg(victim))), r.err.constData());
        for (qint64 pid : ranks)
            QVERIFY2(!alive(pid), "a rank was left behind");
        QCOMPARE(runs(database)[0].toObject().value(QStringLiteral("status")).toString(), QStringLiteral("failed"));
        QCOMPARE(events(seen, QStringLiteral("end")).value(0).value(QStringLiteral("status")).toString(),
                 QStringLiteral("failed"));
    }

    void stopStopsEveryRank()
    {
        const QString database = db(QStringLiteral("stop"));
        QProcess launcher;
        QByteArray seen;
        QVERIFY(startLongLauncher(launcher, database, seen));
        const auto ranks = childrenOf(launcher.processId());
        ::kill(pid_t(launcher.processId()), SIGTERM);
        const Result r = finish(launcher, 60000);
        seen += r.out;
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(events(seen, QStringLiteral("end")).value(0).value(QStringLiteral("status")).toString(),
                 QStringLiteral("stopped"));
        QCOMPARE(runs(database)[0].toObject().value(QStringLiteral("status")).toString(), QStringLiteral("stopped"));
        for (qint64 pid : ranks)
            QVERIFY(!alive(pid));
        // Its checkpoint is rank 0's one-model file, but resuming it in one process is refused.
        const Result resumed = cli({QStringLiteral("train"), QStringLiteral("--resume"), QStringLiteral("1"),
                                    QStringLiteral("--db"), database});
        QCOMPARE(resumed.exitCode, 2);
        QVERIFY2(resumed.err.contains("trained on 2 data-parallel ranks"), resumed.err.constData());
    }

    void portInUseIsRefused()
    {
        int port = 0;
        const int fd = boundSocket(true, true, port); // another program's server
        const Result r = cli(train(db(QStringLiteral("port"))), rankEnv(0, 2, port));
        ::close(fd);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("is in use"), r.err.constData());
        QVERIFY(!r.err.contains("Exception raised"));
        QCOMPARE(runs(db(QStringLiteral("port"))).size(), 0);
    }

    void unreachableMasterIsRefused()
    {
        const Result r = cli(train(db(QStringLiteral("unreachable")), {QStringLiteral("--set"), QStringLiteral("devices.timeout_s=2")}),
                             rankEnv(1, 2, freePort()));
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("cannot reach the master at 127.0.0.1:"), r.err.constData());
        QVERIFY(r.seconds < 15);
    }

    void differentConfigurationsAreRefused()
    {
        QProcess ranks[2];
        startByHand(ranks, db(QStringLiteral("mismatch")), {}, {QStringLiteral("--set"), QStringLiteral("seed=4")});
        const Result r0 = finish(ranks[0], 60000), r1 = finish(ranks[1], 60000);
        QCOMPARE(r0.exitCode, 2);
        QCOMPARE(r1.exitCode, 2);
        QVERIFY2(r0.err.contains("rank 1 was started with a different configuration"), r0.err.constData());
        QVERIFY2(r1.err.contains("rank 0 was started with a different configuration"), r1.err.constData());
        QCOMPARE(runs(db(QStringLiteral("mismatch"))).size(), 0);
    }

    void differentPathSettingsAreRefused()
    {
        // One rank told to take ATen's update, the other measuring: their trials would differ and
        // their collectives wait on each other, so they are refused at the start, as for a config.
        QProcess ranks[2];
        const int port = freePort();
        for (int r = 0; r < 2; ++r) {
            auto env = rankEnv(r, 2, port);
            if (r == 1)
                env.insert(QStringLiteral("ENTRENA_PATHS"), QStringLiteral("fused_sgd=aten"));
            ranks[r].setProcessEnvironment(env);
            ranks[r].start(QStringLiteral(ENTRENA_CLI), train(db(QStringLiteral("paths"))));
        }
        const Result r0 = finish(ranks[0], 60000), r1 = finish(ranks[1], 60000);
        QCOMPARE(r0.exitCode, 2);
        QCOMPARE(r1.exitCode, 2);
        QVERIFY2(r0.err.contains("rank 1 was started with a different configuration") && r0.err.contains("ENTRENA_PATHS"),
                 r0.err.constData());
        QVERIFY2(r1.err.contains("rank 0 was started with a different configuration"), r1.err.constData());
        QCOMPARE(runs(db(QStringLiteral("paths"))).size(), 0);
    }

    void badLaunchesAreRefused_data()
    {
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<int>("rank"); // -1: no launcher environment
        QTest::addColumn<QString>("expected");
        QTest::newRow("more ranks than GPUs") << QStringList{QStringLiteral("--nproc"), QStringLiteral("2"), QStringLiteral("--set"),
                                                            QStringLiteral("devices.type=cuda"), QStringLiteral("--set"),
                                                            QStringLiteral("devices.ids=[0]")}
                                              << -1 << QStringLiteral("names only 1 device");
        QTest::newRow("--nproc under torchrun") << QStringList{QStringLiteral("--nproc"), QStringLiteral("2")} << 0
                                                << QStringLiteral("leave it out");
        QTest::newRow("--nproc with --resume") << QStringList{QStringLiteral("--nproc"), QStringLiteral("2")} << -2
                                               << QStringLiteral("leave out --nproc");
    }
    void badLaunchesAreRefused()
    {
        QFETCH(QStringList, extra);
        QFETCH(int, rank);
        QFETCH(QString, expected);
        QStringList args = train(db(QStringLiteral("bad")), extra);
        if (rank == -2)
            args = QStringList{QStringLiteral("train"), QStringLiteral("--resume"), QStringLiteral("1")} + extra;
        const Result r = rank >= 0 ? cli(args, rankEnv(rank, 2, freePort())) : cli(args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(expected.toUtf8()), r.err.constData());
    }

    void clusterScriptIsWritten()
    {
        const QString out = dir_.filePath(QStringLiteral("job.sbatch"));
        const Result r = cli({QStringLiteral("cluster-script"), QStringLiteral("--config"), config_, QStringLiteral("--nodes"),
                              QStringLiteral("2"), QStringLiteral("--nproc"), QStringLiteral("3"), QStringLiteral("--out"), out});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.out.contains("torchrun --nnodes=2 --nproc_per_node=3"));
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray script = f.readAll();
        QVERIFY(script.contains("#SBATCH --nodes=2"));
        QVERIFY(script.contains(config_.toUtf8()));
        QVERIFY(QFileInfo(out).isExecutable());
        const Result bad = cli({QStringLiteral("cluster-script"), QStringLiteral("--config"), config_, QStringLiteral("--set"),
                                QStringLiteral("optimizer.lr=-1"), QStringLiteral("--out"), dir_.filePath(QStringLiteral("no.sbatch"))});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY(!QFileInfo::exists(dir_.filePath(QStringLiteral("no.sbatch"))));
    }
};

QTEST_GUILESS_MAIN(TestDataParallel)
#include "tst_data_parallel.moc"
