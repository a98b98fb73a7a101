#include "widgets/ProbabilityBars.h"

#include <QLocale>
#include <QPainter>
#include <QPalette>
#include <algorithm>

namespace entrena::ui {

ProbabilityBars::ProbabilityBars(QWidget* parent)
    : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Minimum);
}

void ProbabilityBars::setBars(const QList<Bar>& bars)
{
    bars_ = bars;
    updateGeometry();
    update();
}

int ProbabilityBars::rowHeight() const
{
    return fontMetrics().height() * 2;
}

QSize ProbabilityBars::sizeHint() const
{
    return {fontMetrics().averageCharWidth() * 48, rowHeight() * int(std::max<qsizetype>(1, bars_.size()))};
}

QSize ProbabilityBars::minimumSizeHint() const
{
    return {fontMetrics().averageCharWidth() * 30, rowHeight() * int(std::max<qsizetype>(1, bars_.size()))};
}

void ProbabilityBars::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QFontMetrics fm = fontMetrics();
    const QLocale locale;
    // Names in a column as wide as the longest (at most 40% of the width), then the bar, then the figure.
    QFont bold = font();
    bold.setBold(true);
    const QFontMetrics boldMetrics(bold); // the most probable class is written in bold
    int nameWidth = 0;
    for (const Bar& b : bars_)
        nameWidth = std::max(nameWidth, boldMetrics.horizontalAdvance(b.name));
    nameWidth = std::min(nameWidth, width() * 2 / 5);
    const int figureWidth = fm.horizontalAdvance(locale.toString(100.0, 'f', 1) + QLatin1Char('%'));
    const int gap = fm.averageCharWidth();
    const int barLeft = nameWidth + gap, barSpan = std::max(1, width() - barLeft - figureWidth - 2 * gap);
    const int row = rowHeight();
    for (qsizetype i = 0; i < bars_.size(); ++i) {
        const Bar& b = bars_[i];
        const int y = int(i) * row;
        const QRect nameRect(0, y, nameWidth, row);
        p.setPen(palette().color(QPalette::WindowText));
        QFont font = this->font();
        font.setBold(i == 0);
        p.setFont(font);
        p.drawText(nameRect, Qt::AlignVCenter | Qt::AlignRight,
                   (i == 0 ? boldMetrics : fm).elidedText(b.name, Qt::ElideRight, nameWidth));
        const QRectF track(barLeft, y + row * 0.2, barSpan, row * 0.6);
        p.setPen(Qt::NoPen);
        p.setBrush(palette().color(QPalette::Mid).lighter(i == 0 ? 100 : 110));
        p.drawRoundedRect(track, 3, 3);
        QRectF filled = track;
        filled.setWidth(std::max(0.0, std::min(1.0, b.probability)) * track.width());
        p.setBrush(i == 0 ? palette().color(QPalette::Highlight) : palette().color(QPalette::Highlight).lighter(150));
        if (filled.width() > 0.5)
            p.drawRoundedRect(filled, 3, 3);
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(QRect(barLeft + barSpan + gap, y, figureWidth + gap, row), Qt::AlignVCenter | Qt::AlignRight,
                   locale.toString(b.probability * 100.0, 'f', 1) + QLatin1Char('%'));
    }
}

} // namespace entrena::ui
