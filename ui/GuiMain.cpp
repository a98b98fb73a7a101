#include "GuiMain.h"

#include "MainWindow.h"
#include "entrena/RunStore.h"
#include "entrena/Version.h"
#include "settings/LanguageManager.h"
#include "settings/Settings.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QFile>
#include <QMessageBox>

namespace entrena::ui {

int runGui(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("Entrena"));
    QApplication::setApplicationName(QStringLiteral("Entrena"));
    QApplication::setApplicationVersion(QString::fromLatin1(kVersion));
    QApplication::setDesktopFileName(QStringLiteral("io.github.entrena.Entrena"));

    LanguageManager languages;
    languages.apply(Settings::language.value());

    QCommandLineParser parser;
    parser.setApplicationDescription(QApplication::translate("main", "Entrena: train neural networks faster."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption dbOption(QStringLiteral("db"), QApplication::translate("main", "The run store (SQLite file)."),
                                      QStringLiteral("FILE"), QString::fromStdString(RunStore::defaultPath()));
    const QCommandLineOption configOption(QStringLiteral("config"),
                                          QApplication::translate("main", "A run configuration to load (JSON)."),
                                          QStringLiteral("FILE"));
    parser.addOption(dbOption);
    parser.addOption(configOption);
    parser.process(app);

    RunConfig config;
    try {
        if (parser.isSet(configOption)) {
            config = RunConfig::fromFile(parser.value(configOption).toStdString());
        } else {
            QFile builtIn(QStringLiteral(":/configs/default.json"));
            if (builtIn.open(QIODevice::ReadOnly))
                config = RunConfig::fromJson(builtIn.readAll().toStdString());
        }
    } catch (const ConfigError& e) {
        QMessageBox::warning(nullptr, QApplication::translate("main", "Entrena"),
                             QApplication::translate("main", "The configuration cannot be used: %1\nThe defaults are loaded instead.")
                                 .arg(QString::fromStdString(e.what())));
    }

    MainWindow window(parser.value(dbOption), config, languages);
    window.show();
    return app.exec();
}

} // namespace entrena::ui
