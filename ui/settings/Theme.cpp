#include "settings/Theme.h"

#include <QApplication>
#include <QStyle>

namespace entrena::ui {

QPalette darkPalette()
{
    QPalette p;
    const QColor window(45, 45, 48), base(30, 30, 32), text(225, 225, 225), disabled(130, 130, 130);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, window);
    p.setColor(QPalette::ToolTipBase, base);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, Qt::red);
    p.setColor(QPalette::Link, QColor(110, 170, 240));
    p.setColor(QPalette::Highlight, QColor(42, 130, 218));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::PlaceholderText, disabled);
    p.setColor(QPalette::Mid, QColor(90, 90, 94));
    for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, disabled);
    // Fusion draws disabled text embossed with the Light colour: on a dark window it blurred
    // ("Resume" in a run's menu) instead of reading as greyed out.
    p.setColor(QPalette::Disabled, QPalette::Light, window);
    return p;
}

void applyTheme(const QString& theme)
{
    // The desktop's palette as the application started, to go back to.
    static const QPalette desktop = QApplication::palette();
    if (theme == QStringLiteral("dark"))
        QApplication::setPalette(darkPalette());
    else if (theme == QStringLiteral("light"))
        QApplication::setPalette(QApplication::style()->standardPalette());
    else
        QApplication::setPalette(desktop);
}

} // namespace entrena::ui
