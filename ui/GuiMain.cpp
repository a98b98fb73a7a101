#include "GuiMain.h"

#include "AppIcon.h"
#include "MainWindow.h"
#include "WindowLayout.h"
#include "entrena/store/RunStore.h"
#include "entrena/system/Version.h"
#include "report/ReportCommand.h"
#include "settings/LanguageManager.h"
#include "settings/Settings.h"
#include "settings/Theme.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QFile>
#include <QMessageBox>
#include <QTimer>
#include <cstring>

namespace entrena::ui {

namespace {

bool hasArgument(int argc, char** argv, const char* name)
{
    for (int i = 1; i < argc; ++i)
        if (std::strcmp(argv[i], name) == 0)
            return true;
    return false;
}

/// An error that escapes an event handler (a run store that fails mid-read, say) would otherwise end
/// the program through std::terminate with the work unsaved: it is said once, and the GUI goes on.
class GuardedApplication : public QApplication {
public:
    using QApplication::QApplication;

    bool notify(QObject* receiver, QEvent* event) override
    {
        try {
            return QApplication::notify(receiver, event);
        } catch (const std::exception& e) {
            report(QString::fromUtf8(e.what()));
        } catch (...) {
            report(QStringLiteral("unknown error"));
        }
        return false;
    }

private:
    void report(const QString& what)
    {
        qWarning("entrena: an error escaped an event handler: %s", qPrintable(what));
        if (reporting_)
            return;
        reporting_ = true;
        QTimer::singleShot(0, this, [this, what] {
            QMessageBox::warning(activeWindow(), translate("main", "Something went wrong"),
                                 translate("main", "%1\n\nEntrena carried on. If the run store is named, check the disk "
                                                   "it is on; what was saved so far is kept.")
                                     .arg(what));
            reporting_ = false;
        });
    }
    bool reporting_ = false;
};

/// The form the window opens with: `file` when given, else the form left last time, else the
/// built-in defaults (also when the file cannot be used, which is said).
RunConfig startingForm(const QString& file)
{
    RunConfig config;
    try {
        if (!file.isEmpty()) {
            config = RunConfig::fromFile(file.toStdString());
        } else if (const auto remembered = WindowLayout::rememberedForm()) {
            config = *remembered;
        } else {
            QFile builtIn(QStringLiteral(":/configs/default.json"));
            if (builtIn.open(QIODevice::ReadOnly))
                config = RunConfig::fromJson(builtIn.readAll().toStdString());
        }
    } catch (const ConfigError& e) {
        QMessageBox::warning(
            nullptr, QApplication::translate("main", "Entrena"),
            QApplication::translate("main", "The configuration cannot be used: %1\nThe defaults are loaded instead.")
                .arg(QString::fromStdString(e.what())));
    }
    return config;
}

} // namespace

int runGui(int argc, char** argv)
{
    // Reports render with no display, and --help and --version answer without one (over ssh, or
    // for help2man): the platform must be chosen before QApplication exists.
    const bool headlessReport = hasArgument(argc, argv, "--export-report");
    const bool onlyText = hasArgument(argc, argv, "--help") || hasArgument(argc, argv, "-h") ||
                          hasArgument(argc, argv, "--help-all") || hasArgument(argc, argv, "--version") ||
                          hasArgument(argc, argv, "-v");
    if ((headlessReport || onlyText) && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    GuardedApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("Entrena"));
    QApplication::setApplicationName(QStringLiteral("Entrena"));
    QApplication::setApplicationVersion(QString::fromLatin1(kVersion));
    QApplication::setDesktopFileName(QString::fromLatin1(kAppId));
    QApplication::setWindowIcon(applicationIcon());

    LanguageManager languages;
    languages.apply(Settings::language.value());
    applyTheme(Settings::theme.value());

    QCommandLineParser parser;
    parser.setApplicationDescription(QApplication::translate("main", "Entrena: train neural networks faster."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption dbOption(QStringLiteral("db"), QApplication::translate("main", "The run store (SQLite file)."),
                                      QStringLiteral("FILE"), QString::fromStdString(RunStore::defaultPath()));
    const QCommandLineOption configOption(
        QStringLiteral("config"), QApplication::translate("main", "A run configuration to load (JSON)."), QStringLiteral("FILE"));
    const QCommandLineOption reportOption(
        QStringLiteral("export-report"),
        QApplication::translate("main", "Write a report of --runs to --out (.pdf or .html) and exit; no display needed."));
    const QCommandLineOption runsOption(QStringLiteral("runs"),
                                        QApplication::translate("main", "Run IDs for --export-report, comma-separated."),
                                        QStringLiteral("ID[,ID...]"));
    const QCommandLineOption outOption(
        QStringLiteral("out"), QApplication::translate("main", "The report file for --export-report."), QStringLiteral("FILE"));
    parser.addOptions({dbOption, configOption, reportOption, runsOption, outOption});
    parser.process(app);
    if (headlessReport)
        return exportReportCommand(parser.value(dbOption), parser.value(runsOption), parser.value(outOption));

    const RunConfig config = startingForm(parser.isSet(configOption) ? parser.value(configOption) : QString());
    MainWindow window(parser.value(dbOption), config, languages);
    window.show();
    return app.exec();
}

} // namespace entrena::ui
