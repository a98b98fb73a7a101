#include "AppIcon.h"

namespace entrena::ui {

QIcon applicationIcon()
{
    static const QIcon icon =
        QIcon::fromTheme(QString::fromLatin1(kAppId), QIcon(QStringLiteral(":/icons/io.github.entrena.Entrena.svg")));
    return icon;
}

} // namespace entrena::ui
