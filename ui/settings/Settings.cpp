#include "settings/Settings.h"

namespace entrena::ui {

const Setting<QString> Settings::language{"ui/language", QString()};
const Setting<QString> Settings::theme{"ui/theme", QString()};
const Setting<QByteArray> Settings::windowGeometry{"ui/windowGeometry", QByteArray()};
const Setting<QByteArray> Settings::windowState{"ui/windowState", QByteArray()};
const Setting<QByteArray> Settings::mainSplitter{"ui/mainSplitter", QByteArray()};
const Setting<QByteArray> Settings::chartsSplitter{"ui/chartsSplitter", QByteArray()};
const Setting<QByteArray> Settings::runsHeader{"ui/runsHeader", QByteArray()};
const Setting<bool> Settings::formShown{"ui/formShown", true};
const Setting<bool> Settings::runsShown{"ui/runsShown", true};
const Setting<QString> Settings::lastForm{"ui/lastForm", QString()};
const Setting<QString> Settings::lastConfigFolder{"ui/lastConfigFolder", QString()};
const Setting<QString> Settings::lastExportFolder{"ui/lastExportFolder", QString()};
const Setting<QString> Settings::lastTryFolder{"ui/lastTryFolder", QString()};
const Setting<QStringList> Settings::hiddenRunColumns{"ui/hiddenRunColumns", QStringList()};
const Setting<double> Settings::baselineTolerance{"runs/baselineTolerance", 0.5};
const Setting<QStringList> Settings::runParameterColumns{"ui/runParameterColumns", QStringList()};

} // namespace entrena::ui
