#include "report/ReportCommand.h"

#include "report/Report.h"
#include "report/ReportWriter.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QStringList>
#include <cstdio>

namespace entrena::ui {
namespace {

int fail(int status, const QString& message)
{
    std::fprintf(stderr, "entrena: %s\n", message.toLocal8Bit().constData());
    return status;
}

} // namespace

int exportReportCommand(const QString& dbPath, const QString& runs, const QString& out)
{
    if (out.isEmpty())
        return fail(2, Report::tr("--export-report needs --out FILE.pdf or --out FILE.html."));
    const QString suffix = QFileInfo(out).suffix().toLower();
    if (suffix != QLatin1String("pdf") && suffix != QLatin1String("html") && suffix != QLatin1String("htm"))
        return fail(2, Report::tr("Cannot tell the report's format from “%1”: name the file .pdf or .html.").arg(out));
    QList<qint64> ids;
    for (const QString& part : runs.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        bool ok = false;
        const qint64 id = part.trimmed().toLongLong(&ok);
        if (!ok || id <= 0)
            return fail(2, Report::tr("“%1” is not a run ID: --runs takes numbers such as 3,5,8.").arg(part));
        ids << id;
    }
    if (ids.isEmpty())
        return fail(2, Report::tr("--export-report needs --runs ID[,ID...]; `entrena-cli runs` lists the IDs."));
    if (!QFileInfo::exists(dbPath))
        return fail(2, Report::tr("There is no run store at %1; give the database with --db FILE.").arg(dbPath));

    try {
        RunStore store(dbPath.toStdString());
        const Report report = Report::load(store, ids);
        const QString error = writeReport(report, out);
        if (!error.isEmpty())
            return fail(1, error);
    } catch (const ReportError& e) {
        return fail(2, QString::fromStdString(e.what()));
    } catch (const std::exception& e) {
        return fail(1, QString::fromStdString(e.what()));
    }
    std::printf("%s\n", Report::tr("Wrote %1").arg(out).toLocal8Bit().constData());
    return 0;
}

} // namespace entrena::ui
