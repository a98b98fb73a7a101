#pragma once
// Windows that fit the screen they open on. A dialog sized for a large monitor (run details were
// 1100×760, Compare 1400×860) put its buttons below the edge of a 1280×720 laptop screen, where no
// window manager lets a person reach them.

#include <QSize>

class QWidget;

namespace entrena::ui {

/// Sizes the top-level `window` to `wanted`, or to the part of it that fits the available area of
/// the screen it opens on (its parent's, else the primary screen), leaving room for the window
/// manager's frame, and places it inside that area.
void sizeToScreen(QWidget* window, const QSize& wanted);

} // namespace entrena::ui
