#pragma once
// The keyboard focus, visible on every control in every window (WCAG 2.1's 2.4.7 and 1.4.11; the
// KDE and GNOME guidelines): a 2-pixel ring around the focused control in the palette's highlight
// colour (or its text colour where the highlight is under 3:1 against the window), drawn over the
// window, so it shows the same on buttons, combo boxes, lists and charts whatever the style draws
// (Fusion drew no focus on the default button: Start looked the same with and without it). It
// follows the control as the window scrolls or resizes; focus that a mouse click gave shows none,
// as on the desktop (:focus-visible). A control that takes the focus inside a scroll area is
// scrolled into view. One per application, owned by it: install() it once.

#include <QObject>
#include <QPointer>
#include <QWidget>

namespace entrena::ui {

class FocusRing : public QObject {
    Q_OBJECT
public:
    /// Installs the application's ring (idempotent) and returns it.
    static FocusRing* install();
    /// The installed ring, or nullptr.
    static FocusRing* instance();
    /// The control the ring is drawn around now (nullptr: none shown).
    QWidget* target() const { return target_; }
    /// The ring as drawn: a child of the target's window (nullptr before the first focus).
    QWidget* ring() const { return ring_; }
    /// Whether the ring shows now.
    bool isShown() const { return ring_ && ring_->isVisible(); }
    /// The ring's colour against `window`: the highlight, or the text where the highlight is too faint.
    static QColor ringColour(const QPalette& palette);
    /// WCAG's contrast ratio of two colours (1 to 21).
    static double contrast(const QColor& a, const QColor& b);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    explicit FocusRing(QObject* parent);
    void focusChanged(QWidget* old, QWidget* now);
    void follow(QWidget* widget);
    void place();
    void placeSoon();

    QPointer<QWidget> ring_; ///< made anew when the window it was in is gone
    QPointer<QWidget> target_;
    QList<QPointer<QWidget>> watched_; ///< the target and its ancestors: a move of any moves the ring
    bool byMouse_ = false;
    bool placing_ = false; ///< a place() is due once the event loop is back
};

} // namespace entrena::ui
