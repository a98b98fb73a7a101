#pragma once
// Running a program the way the CLI tests run entrena-cli: its exit status (-1 when it crashed or
// hung past five minutes), its stdout and its stderr.

#include <QProcess>
#include <QString>
#include <QStringList>

namespace fixtures {

struct Result {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

inline Result run(const QString& program, const QStringList& args)
{
    QProcess p;
    p.start(program, args);
    p.waitForFinished(300000);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(), p.readAllStandardError()};
}

#ifdef ENTRENA_CLI
/// entrena-cli, as built beside the test.
inline Result cli(const QStringList& args)
{
    return run(QStringLiteral(ENTRENA_CLI), args);
}
#endif

} // namespace fixtures
