#pragma once

#include <QProxyStyle>

class QHeaderView;

namespace entrena::ui {

/// Draws a header's sort indicator the way its order reads: ▲ ascending (the smallest first),
/// ▼ descending. QHeaderView hands the style SortDown for ascending and SortUp for descending (a
/// convention from other platforms), so under Fusion the runs list, newest first, showed ▲ on its
/// ID column. This style sets the indicator from the header's own order, whatever the mapping.
class SortArrowStyle : public QProxyStyle {
    Q_OBJECT
public:
    /// Gives `header` this style (owned by the header).
    static void install(QHeaderView* header);

    void drawPrimitive(PrimitiveElement element, const QStyleOption* option, QPainter* painter,
                       const QWidget* widget = nullptr) const override;

private:
    using QProxyStyle::QProxyStyle;
};

} // namespace entrena::ui
