#include "widgets/FocusRing.h"

#include <QApplication>
#include <QEvent>
#include <QFocusEvent>
#include <QPainter>
#include <QScrollArea>
#include <QTimer>
#include <cmath>

namespace entrena::ui {
namespace {

constexpr int kWidth = 2; ///< the ring's line
constexpr int kGap = 1;   ///< between the control and the ring

double luminance(const QColor& c)
{
    auto channel = [](double v) { return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
}

/// The scroll area whose viewport holds `w`, if any (the form, the settings' pages).
QScrollArea* scrollAreaOf(QWidget* w)
{
    for (QWidget* p = w ? w->parentWidget() : nullptr; p; p = p->parentWidget())
        if (auto* area = qobject_cast<QScrollArea*>(p); area && area->widget() && area->widget()->isAncestorOf(w))
            return area;
    return nullptr;
}

/// The ring itself: a masked child of the window, transparent to the mouse, that only paints.
class RingWidget : public QWidget {
public:
    explicit RingWidget(QWidget* window)
        : QWidget(window)
    {
        setObjectName(QStringLiteral("focusRing"));
        setAttribute(Qt::WA_TransparentForMouseEvents);
        setAttribute(Qt::WA_NoSystemBackground);
        setFocusPolicy(Qt::NoFocus);
    }

protected:
    void paintEvent(QPaintEvent*) override
    {
        QPainter p(this);
        p.setRenderHint(QPainter::Antialiasing);
        p.setPen(QPen(FocusRing::ringColour(palette()), kWidth));
        p.drawRoundedRect(QRectF(rect()).adjusted(kWidth / 2.0, kWidth / 2.0, -kWidth / 2.0, -kWidth / 2.0), 3, 3);
    }
};

QPointer<FocusRing> g_ring;

} // namespace

FocusRing* FocusRing::install()
{
    if (!g_ring) {
        g_ring = new FocusRing(qApp);
        connect(qApp, &QApplication::focusChanged, g_ring, &FocusRing::focusChanged);
        // Every widget's events pass here: a focus event's reason (a click shows no ring), and the
        // moves of the control and its ancestors (a scrolled form).
        qApp->installEventFilter(g_ring);
    }
    return g_ring;
}

FocusRing* FocusRing::instance()
{
    return g_ring;
}

FocusRing::FocusRing(QObject* parent)
    : QObject(parent)
{
}

double FocusRing::contrast(const QColor& a, const QColor& b)
{
    const double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

QColor FocusRing::ringColour(const QPalette& palette)
{
    const QColor highlight = palette.color(QPalette::Active, QPalette::Highlight);
    const QColor window = palette.color(QPalette::Active, QPalette::Window);
    return contrast(highlight, window) >= 3.0 ? highlight : palette.color(QPalette::Active, QPalette::WindowText);
}

void FocusRing::focusChanged(QWidget*, QWidget* now)
{
    if (QScrollArea* area = scrollAreaOf(now))
        area->ensureWidgetVisible(now, 8, 8);
    follow(now && !byMouse_ && now->window()->windowType() != Qt::Popup ? now : nullptr);
}

void FocusRing::follow(QWidget* widget)
{
    watched_.clear();
    target_ = widget;
    if (!widget) {
        if (ring_)
            ring_->hide();
        return;
    }
    for (QWidget* w = widget; w; w = w->isWindow() ? nullptr : w->parentWidget())
        watched_ << w; // the application's filter sees their moves
    placeSoon(); // not inside the focus change: a window being shown is not given a child meanwhile
}

void FocusRing::placeSoon()
{
    // Once the event loop is back: a move seen while a layout lays out the window is followed after it,
    // never inside it (moving the ring there re-entered the layout, which then kept a page's old height).
    if (!placing_) {
        placing_ = true;
        QTimer::singleShot(0, this, [this] {
            placing_ = false;
            place();
        });
    }
}

void FocusRing::place()
{
    if (!target_ || !target_->isVisible()) {
        if (ring_)
            ring_->hide();
        return;
    }
    if (!ring_)
        ring_ = new RingWidget(target_->window());
    else if (ring_->parentWidget() != target_->window())
        ring_->setParent(target_->window());
    QWidget* window = target_->window();
    // Only the part of the control that shows (inside a scroll area, its visible part).
    const QRect visible = target_->visibleRegion().boundingRect();
    if (visible.isEmpty()) {
        ring_->hide();
        return;
    }
    const int out = kWidth + kGap;
    const QRect around(target_->mapTo(window, visible.topLeft()) - QPoint(out, out), visible.size() + QSize(2 * out, 2 * out));
    const QRect placed = around.intersected(window->rect());
    if (ring_->geometry() != placed) {
        ring_->setGeometry(placed);
        // Only the ring takes part in the window: the control inside stays as it is drawn, and clickable.
        const QRect inner = ring_->rect().adjusted(kWidth, kWidth, -kWidth, -kWidth);
        ring_->setMask(QRegion(ring_->rect()).subtracted(QRegion(inner)));
    }
    if (!ring_->isVisible())
        ring_->show();
    ring_->raise();
    ring_->update();
}

bool FocusRing::eventFilter(QObject* watched, QEvent* event)
{
    switch (event->type()) {
    case QEvent::FocusIn:
        if (watched->isWidgetType())
            byMouse_ = static_cast<QFocusEvent*>(event)->reason() == Qt::MouseFocusReason;
        break;
    case QEvent::MouseButtonPress:
        // A click in the focused control (or a part of it): the ring goes, as a click's focus shows none.
        if (target_ && watched->isWidgetType() && (watched == target_ || target_->isAncestorOf(static_cast<QWidget*>(watched))))
            follow(nullptr);
        break;
    case QEvent::Hide:
        // The ring's window closes (a dialog about to be deleted): the ring leaves it, and is made
        // anew in the next window that has the focus.
        if (ring_ && watched == ring_->parentWidget()) {
            ring_->hide();
            ring_->setParent(nullptr);
        } else if (target_ && watched->isWidgetType() && watched_.contains(static_cast<QWidget*>(watched))) {
            placeSoon();
        }
        break;
    case QEvent::Move:
    case QEvent::Resize:
    case QEvent::Show:
        if (target_ && watched->isWidgetType() && watched_.contains(static_cast<QWidget*>(watched)))
            placeSoon();
        break;
    default:
        break;
    }
    return QObject::eventFilter(watched, event);
}

} // namespace entrena::ui
