#include "charts/ChartTheme.h"

#include "widgets/FocusRing.h"

#include <QEvent>
#include <QFontMetrics>
#include <QLocale>
#include <QObject>
#include <QPalette>
#include <qcustomplot.h>

namespace entrena::ui {

void legendAbove(QCustomPlot* plot)
{
    plot->plotLayout()->insertRow(0);
    plot->plotLayout()->addElement(0, 0, plot->legend);
    plot->plotLayout()->setRowStretchFactor(0, 0.001);
    plot->legend->setFillOrder(QCPLegend::foColumnsFirst);
    plot->legend->setBorderPen(Qt::NoPen);
    plot->legend->setBrush(Qt::NoBrush);
    plot->legend->setVisible(true);
}

QColor placeholderColor(const QPalette& palette)
{
    // Softer than the axes' text, never under WCAG's 4.5:1 against the chart (the disabled grey was
    // 1.8:1): the text's colour mixed towards the background only as far as that allows.
    const QColor text = palette.color(QPalette::WindowText), base = palette.color(QPalette::Base);
    QColor chosen = text;
    for (double t = 0.1; t <= 0.6; t += 0.05) {
        const QColor mixed = QColor::fromRgbF(text.redF() + (base.redF() - text.redF()) * t,
                                              text.greenF() + (base.greenF() - text.greenF()) * t,
                                              text.blueF() + (base.blueF() - text.blueF()) * t);
        if (FocusRing::contrast(mixed, base) < 4.5)
            break;
        chosen = mixed;
    }
    return chosen;
}

namespace {

void applyLocale(QCustomPlot* plot)
{
    QLocale locale; // the application's language (LanguageManager sets it)
    locale.setNumberOptions(QLocale::OmitGroupSeparator);
    if (plot->locale() != locale) {
        plot->setLocale(locale);
        plot->replot(QCustomPlot::rpQueuedReplot);
    }
}

void apply(QCustomPlot* plot)
{
    const QPalette palette = plot->palette();
    const QColor text = palette.color(QPalette::WindowText);
    const QColor base = palette.color(QPalette::Base);
    QColor grid = palette.color(QPalette::Mid);
    grid.setAlpha(140);
    plot->setBackground(base);
    for (QCPAxisRect* rect : plot->axisRects()) {
        for (QCPAxis* axis : rect->axes()) {
            axis->setBasePen(QPen(text, 1));
            axis->setTickPen(QPen(text, 1));
            axis->setSubTickPen(QPen(text, 1));
            axis->setTickLabelColor(text);
            axis->setLabelColor(text);
            axis->grid()->setPen(QPen(grid, 1, Qt::DotLine));
            axis->grid()->setZeroLinePen(QPen(grid, 1));
        }
    }
    QColor legendBack = base;
    legendBack.setAlpha(190); // the data stays visible behind it
    if (plot->legend->brush().style() != Qt::NoBrush)
        plot->legend->setBrush(legendBack);
    if (plot->legend->borderPen().style() != Qt::NoPen)
        plot->legend->setBorderPen(QPen(text, 1));
    plot->legend->setTextColor(text);
    for (int i = 0; i < plot->plotLayout()->elementCount(); ++i)
        if (auto* title = qobject_cast<QCPTextElement*>(plot->plotLayout()->elementAt(i)))
            title->setTextColor(text);
    for (int i = 0; i < plot->itemCount(); ++i)
        if (auto* label = qobject_cast<QCPItemText*>(plot->item(i)); label && label->property("placeholder").toBool())
            label->setColor(placeholderColor(palette));
}

/// A placeholder (the text an empty chart shows) kept inside its axis rect: where its lines are wider
/// than the rect (a longer language, a narrow chart), its font shrinks until they fit, and grows back
/// when there is room. Run after the layout, when the rect has its new size.
void fitPlaceholders(QCustomPlot* plot)
{
    QCPAxisRect* rect = plot->axisRect();
    if (!rect)
        return;
    const int room = rect->width() - 8;
    for (int i = 0; i < plot->itemCount(); ++i) {
        auto* label = qobject_cast<QCPItemText*>(plot->item(i));
        if (!label || !label->visible() || !label->property("placeholder").toBool())
            continue; // a hidden one (the chart has data) is fitted when it shows again, before it is drawn
        QFont font = label->font();
        if (!label->property("placeholderPointSize").isValid())
            label->setProperty("placeholderPointSize", font.pointSizeF());
        const qreal full = label->property("placeholderPointSize").toReal();
        const auto width = [&](qreal size) {
            font.setPointSizeF(size);
            return QFontMetrics(font).boundingRect(QRect(), Qt::AlignCenter, label->text()).width();
        };
        qreal size = full;
        while (size > 6 && width(size) > room)
            size -= 0.5;
        font.setPointSizeF(size);
        if (font != label->font())
            label->setFont(font);
    }
}

class PaletteFollower : public QObject {
public:
    using QObject::QObject;
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (event->type() == QEvent::PaletteChange || event->type() == QEvent::ApplicationPaletteChange) {
            auto* plot = static_cast<QCustomPlot*>(watched);
            apply(plot);
            plot->replot(QCustomPlot::rpQueuedReplot);
        }
        if (event->type() == QEvent::LanguageChange || event->type() == QEvent::LocaleChange)
            applyLocale(static_cast<QCustomPlot*>(watched));
        return false;
    }
};

} // namespace

void followPalette(QCustomPlot* plot)
{
    apply(plot);
    applyLocale(plot);
    plot->installEventFilter(new PaletteFollower(plot));
    QObject::connect(plot, &QCustomPlot::afterLayout, plot, [plot] { fitPlaceholders(plot); });
}

QCPItemText* addPlaceholder(QCustomPlot* plot)
{
    auto* text = new QCPItemText(plot);
    text->position->setType(QCPItemPosition::ptAxisRectRatio);
    text->position->setCoords(0.5, 0.5);
    text->setPositionAlignment(Qt::AlignCenter);
    text->setColor(placeholderColor(plot->palette()));
    text->setProperty("placeholder", true); // coloured by apply()
    text->setSelectable(false);
    return text;
}

void showPlaceholder(QCustomPlot* plot, QCPItemText* placeholder, bool empty)
{
    placeholder->setVisible(empty);
    for (QCPAxis* axis : {plot->xAxis, plot->yAxis, plot->yAxis2})
        axis->setTickLabels(!empty);
    // The grid ran through the placeholder's text.
    for (QCPAxis* axis : {plot->xAxis, plot->yAxis})
        axis->grid()->setVisible(!empty);
}

QColor markColor(const QPalette& palette, bool good)
{
    const bool dark = palette.color(QPalette::Base).lightness() < 128;
    if (good)
        return dark ? QColor(38, 84, 44) : QColor(228, 243, 228);
    return dark ? QColor(98, 40, 36) : QColor(250, 219, 216);
}

} // namespace entrena::ui
