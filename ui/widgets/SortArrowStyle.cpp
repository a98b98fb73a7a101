#include "widgets/SortArrowStyle.h"

#include <QApplication>
#include <QHeaderView>
#include <QStyleFactory>
#include <QStyleOptionHeader>

namespace entrena::ui {

void SortArrowStyle::install(QHeaderView* header)
{
    // The proxy wraps its own copy of the application's style (a proxy takes ownership of its base).
    auto* style = new SortArrowStyle(QStyleFactory::create(QApplication::style()->name()));
    style->setParent(header);
    header->setStyle(style);
}

void SortArrowStyle::drawPrimitive(PrimitiveElement element, const QStyleOption* option, QPainter* painter,
                                   const QWidget* widget) const
{
    const auto* header = qobject_cast<const QHeaderView*>(widget);
    const auto* headerOption = qstyleoption_cast<const QStyleOptionHeader*>(option);
    if (element != PE_IndicatorHeaderArrow || !header || !headerOption ||
        headerOption->sortIndicator == QStyleOptionHeader::None) {
        QProxyStyle::drawPrimitive(element, option, painter, widget);
        return;
    }
    QStyleOptionHeader readable(*headerOption);
    readable.sortIndicator = header->sortIndicatorOrder() == Qt::AscendingOrder ? QStyleOptionHeader::SortUp
                                                                                 : QStyleOptionHeader::SortDown;
    QProxyStyle::drawPrimitive(element, &readable, painter, widget);
}

} // namespace entrena::ui
