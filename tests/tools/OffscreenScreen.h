#pragma once
// A screen of a chosen size for Qt's offscreen platform, whose own is 800×800: the tests and the
// screenshot tour open windows on a 1280×720 laptop's screen, or a 1920×1080 monitor's, as users do.

#include <QFile>
#include <QSize>
#include <QString>

/// Writes the offscreen platform's screen description to `file`; returns the QT_QPA_PLATFORM value
/// that uses it ("" when the file cannot be written).
inline QString offscreenPlatformWithScreen(const QString& file, const QSize& size)
{
    QFile f(file);
    if (!f.open(QIODevice::WriteOnly))
        return {};
    f.write(QStringLiteral(R"({"screens": [{"name": "screen", "x": 0, "y": 0, "width": %1, "height": %2,
        "logicalDpi": 96, "logicalBpi": 96, "dpr": 1}]})")
                .arg(size.width())
                .arg(size.height())
                .toUtf8());
    return QStringLiteral("offscreen:configfile=") + file;
}
