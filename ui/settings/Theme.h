#pragma once
// Light or dark, whatever the desktop says: Edit → Settings → Appearance. The charts, the confusion
// matrix and the banners already follow the application's palette; this chooses it.

#include <QPalette>
#include <QString>

namespace entrena::ui {

/// "" (the desktop's own palette), "light" or "dark". Applied to the whole application at once;
/// every open window repaints.
void applyTheme(const QString& theme);

/// The dark palette Entrena uses (the screenshot tour shows it too).
QPalette darkPalette();

} // namespace entrena::ui
