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

double wholeTickStep(double step)
{
    if (step >= 1 && std::floor(step) == step)
        return step;
    for (double decade = 1;; decade *= 10)
        for (const double nice : {1.0, 2.0, 5.0})
            if (nice * decade >= step)
                return nice * decade;
}

double CompactTicker::getTickStep(const QCPRange& range)
{
    return wholeTickStep(QCPAxisTicker::getTickStep(range));
}

QString CompactTicker::getTickLabel(double tick, const QLocale& locale, QChar formatChar, int precision)
{
    const QString compact = compactNumber(tick, locale);
    return compact.isEmpty() ? QCPAxisTicker::getTickLabel(tick, locale, formatChar, precision) : compact;
}

} // namespace entrena::ui
