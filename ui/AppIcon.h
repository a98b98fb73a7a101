#pragma once

#include <QIcon>

namespace entrena::ui {

/// The application's reverse-DNS id: the desktop entry, the icon and the AppStream metainfo are
/// named after it (packaging/), and Wayland compositors match windows to the entry by it.
inline constexpr const char* kAppId = "io.github.entrena.Entrena";

/// Entrena's icon: the installed theme icon where there is one (so a theme may restyle it), the
/// built-in SVG otherwise (a build run from its folder).
QIcon applicationIcon();

} // namespace entrena::ui
