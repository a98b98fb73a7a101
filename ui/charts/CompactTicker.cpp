#include "charts/CompactTicker.h"

#include <cmath>

namespace entrena::ui {

QString compactNumber(double value, const QLocale& locale)
{
    const double size = std::abs(value);
    const auto scaled = [&](double unit, QChar suffix) {
        // Up to three significant digits: 1.5M, 12.5k, 250k.
        const double v = value / unit;
        const int decimals = std::abs(v) >= 100 ? 0 : std::abs(v) >= 10 ? 1 : 2;
        QString text = locale.toString(v, 'f', decimals);
        const QString mark = locale.decimalPoint();
        if (text.contains(mark)) {
            while (text.endsWith(QLatin1Char('0')))
                text.chop(1);
            if (text.endsWith(mark))
                text.chop(mark.size());
        }
        return text + suffix;
    };
    if (size >= 1e9)
        return scaled(1e9, QLatin1Char('G'));
    if (size >= 1e6)
        return scaled(1e6, QLatin1Char('M'));
    if (size >= 1e4)
        return scaled(1e3, QLatin1Char('k'));
    return QString(); // left to QCustomPlot
}

QString CompactTicker::getTickLabel(double tick, const QLocale& locale, QChar formatChar, int precision)
{
    const QString compact = compactNumber(tick, locale);
    return compact.isEmpty() ? QCPAxisTicker::getTickLabel(tick, locale, formatChar, precision) : compact;
}

} // namespace entrena::ui
