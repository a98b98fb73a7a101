#include "settings/LanguageManager.h"

#include <QApplication>
#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QTranslator>
#include <QWidget>

namespace entrena::ui {

LanguageManager::LanguageManager(QObject* parent)
    : QObject(parent)
    , qt_(new QTranslator(this))
    , ours_(new QTranslator(this))
{
}

QStringList LanguageManager::available() { return {QStringLiteral("en"), QStringLiteral("es")}; }

void LanguageManager::apply(const QString& code)
{
    QString lang = code;
    if (lang.isEmpty()) {
        lang = QStringLiteral("en");
        for (const QString& ui : QLocale::system().uiLanguages()) {
            const QString prefix = ui.left(2).toLower();
            if (available().contains(prefix)) {
                lang = prefix;
                break;
            }
        }
    }
    // The locale first: removing a translator already tells every widget the language changed, and
    // what reacts to that (the charts' number format) reads the default locale.
    QLocale::setDefault(QLocale(lang));
    QCoreApplication::removeTranslator(qt_);
    QCoreApplication::removeTranslator(ours_);
    current_ = lang;
    // Widgets that exist already keep the locale they were made with: a spin box made in Spanish
    // went on reading "0.05" as 5 (a '.' groups thousands there) after a switch to English.
    // Setting the windows' locale reaches every widget in them, and spin boxes redraw their value.
    for (QWidget* window : QApplication::topLevelWidgets())
        window->setLocale(QLocale(lang));
    if (lang == QStringLiteral("en"))
        return; // the source strings are English
    if (qt_->load(QLocale(lang), QStringLiteral("qtbase"), QStringLiteral("_"),
                  QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QCoreApplication::installTranslator(qt_);
    if (ours_->load(QStringLiteral(":/i18n/entrena_%1.qm").arg(lang)))
        QCoreApplication::installTranslator(ours_);
}

} // namespace entrena::ui
