#include "widgets/ScreenFit.h"

#include <QGuiApplication>
#include <QScreen>
#include <QWidget>
#include <algorithm>

namespace entrena::ui {

void sizeToScreen(QWidget* window, const QSize& wanted)
{
    const QWidget* parent = window->parentWidget() ? window->parentWidget()->window() : nullptr;
    const QScreen* screen = parent && parent->screen() ? parent->screen() : window->screen();
    if (!screen)
        screen = QGuiApplication::primaryScreen();
    if (!screen) {
        window->resize(wanted);
        return;
    }
    const QRect available = screen->availableGeometry();
    // The frame is known only once the window is shown: allow a title bar's worth before.
    QSize frame = window->frameGeometry().size() - window->geometry().size();
    if (frame.isEmpty())
        frame = QSize(8, 40);
    const QSize size = wanted.boundedTo(available.size() - frame).expandedTo(window->minimumSize());
    window->resize(size);
    // Centred on the parent where there is one, else on the screen; inside the screen either way.
    const QPoint centre = parent ? parent->frameGeometry().center() : available.center();
    const QSize outer = size + frame;
    const int x = std::clamp(centre.x() - outer.width() / 2, available.left(),
                             std::max(available.left(), available.right() - outer.width() + 1));
    const int y = std::clamp(centre.y() - outer.height() / 2, available.top(),
                             std::max(available.top(), available.bottom() - outer.height() + 1));
    window->move(x, y);
}

} // namespace entrena::ui
