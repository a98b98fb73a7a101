#pragma once

#include <QObject>
#include <QString>
#include <QStringList>

class QTranslator;

namespace entrena::ui {

/// Installs Qt's and Entrena's translators for the chosen language; widgets retranslate
/// themselves on QEvent::LanguageChange.
class LanguageManager : public QObject {
    Q_OBJECT
public:
    explicit LanguageManager(QObject* parent = nullptr);

    /// Language codes Entrena is translated into ("en" is the source language).
    static QStringList available();
    /// "" follows the system locale.
    void apply(const QString& code);
    /// The language in effect ("en", "es").
    QString current() const { return current_; }

private:
    QTranslator* qt_;
    QTranslator* ours_;
    QString current_ = QStringLiteral("en");
};

} // namespace entrena::ui
