// The one helper that starts Entrena's children (trials, folds, ranks, the trial server): the
// environment it is given, the descriptors it writes to, how it ended, and a program that cannot run.
#include "system/ChildProcess.h"

#include <QtTest>
#include <csignal>
#include <fcntl.h>
#include <unistd.h>

using namespace entrena;

namespace {

struct Ran {
    std::vector<std::string> out, err;
    ChildExit exit;
};

/// Runs `spec` with its stdout and stderr read through pipes, to its end.
Ran runToEnd(ChildSpec spec)
{
    int out[2], err[2];
    if (::pipe2(out, O_CLOEXEC | O_NONBLOCK) != 0 || ::pipe2(err, O_CLOEXEC | O_NONBLOCK) != 0)
        throw std::runtime_error("no pipe");
    spec.stdoutFd = out[1];
    spec.stderrFd = err[1];
    const pid_t pid = spawnChild(spec, "cannot start the test's child");
    ::close(out[1]);
    ::close(err[1]);
    Ran r;
    std::string outPartial, errPartial;
    bool outEnded = false, errEnded = false;
    std::optional<ChildExit> end;
    for (int i = 0; i < 1000 && !(end && outEnded && errEnded); ++i) {
        for (auto& l : takeLines(out[0], outPartial, &outEnded))
            r.out.push_back(l);
        for (auto& l : takeLines(err[0], errPartial, &errEnded))
            r.err.push_back(l);
        if (!end)
            end = reapIfEnded(pid);
        ::usleep(10000);
    }
    ::close(out[0]);
    ::close(err[0]);
    if (!end)
        killAndReap(pid);
    r.exit = end.value_or(ChildExit{});
    return r;
}

} // namespace

class TestChildProcess : public QObject {
    Q_OBJECT
private slots:
    void theChildGetsItsEnvironmentAndDescriptors()
    {
        ::setenv("ENTRENA_TEST_KEPT", "kept", 1);
        ::setenv("ENTRENA_TEST_GONE", "here", 1);
        ::setenv("ENTRENA_TEST_SET", "old", 1);
        ChildSpec spec(
            "/bin/sh",
            {"-c", "echo \"$ENTRENA_TEST_KEPT ${ENTRENA_TEST_GONE:-unset} $ENTRENA_TEST_SET\"; echo oops >&2; exit 3"});
        spec.env = {{"ENTRENA_TEST_SET", "new"}};
        spec.unset = {"ENTRENA_TEST_GONE"};
        const Ran r = runToEnd(spec);
        QCOMPARE(r.out, std::vector<std::string>{"kept unset new"});
        QCOMPARE(r.err, std::vector<std::string>{"oops"});
        QCOMPARE(r.exit.exitCode, 3);
        QCOMPARE(r.exit.signal, 0);
        QCOMPARE(r.exit.shellStatus(), 3);
        // The parent's own environment is untouched.
        QCOMPARE(QByteArray(::getenv("ENTRENA_TEST_SET")), QByteArray("old"));
    }

    void aChildKilledBySignalSaysWhich()
    {
        const Ran r = runToEnd(ChildSpec("/bin/sh", {"-c", "kill -TERM $$; sleep 5"}));
        QCOMPARE(r.exit.signal, SIGTERM);
        QCOMPARE(r.exit.shellStatus(), 128 + SIGTERM);
    }

    void aProgramThatCannotRunExits127AndSaysSo()
    {
        const Ran r = runToEnd(ChildSpec("/nonexistent/entrena-cli", {"train"}));
        QCOMPARE(r.exit.exitCode, 127);
        QCOMPARE(r.err, std::vector<std::string>{"cannot run /nonexistent/entrena-cli"});
    }

    void aKeptDescriptorSurvivesExec()
    {
        int p[2];
        QVERIFY(::pipe2(p, O_CLOEXEC) == 0);
        ChildSpec spec("/bin/sh", {"-c", "echo through >&" + std::to_string(p[1])});
        spec.keepFds = {p[1]};
        const Ran r = runToEnd(spec);
        ::close(p[1]);
        QCOMPARE(r.exit.exitCode, 0);
        char buffer[32] = {};
        QVERIFY(::read(p[0], buffer, sizeof buffer - 1) > 0);
        ::close(p[0]);
        QCOMPARE(QByteArray(buffer), QByteArray("through\n"));
    }
};

QTEST_APPLESS_MAIN(TestChildProcess)
#include "tst_child_process.moc"
