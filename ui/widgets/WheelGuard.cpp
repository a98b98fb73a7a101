#include "widgets/WheelGuard.h"

#include <QAbstractScrollArea>
#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QApplication>
#include <QChildEvent>
#include <QComboBox>
#include <QWheelEvent>
#include <QWidget>
#include <qcustomplot.h>

namespace entrena::ui {

namespace {

bool takesWheel(const QObject* o)
{
    return qobject_cast<const QComboBox*>(o) || qobject_cast<const QAbstractSpinBox*>(o) ||
           qobject_cast<const QAbstractSlider*>(o);
}

/// A chart that neither zooms nor pans (the schedule's preview): it does nothing with the wheel, but
/// QCustomPlot accepts every wheel event and keeps it from its parents, so the form stopped scrolling
/// under the pointer. It never has focus: the wheel always scrolls the form.
bool stillChart(const QObject* o)
{
    const auto* plot = qobject_cast<const QCustomPlot*>(o);
    return plot && !plot->interactions().testFlag(QCP::iRangeZoom) && !plot->interactions().testFlag(QCP::iRangeDrag);
}

} // namespace

void WheelGuard::install(QWidget* form)
{
    auto* guard = new WheelGuard(form);
    form->installEventFilter(guard); // for widgets added later (ChildPolished)
    for (QWidget* w : form->findChildren<QWidget*>())
        guard->guard(w);
}

void WheelGuard::guard(QWidget* widget)
{
    if (takesWheel(widget)) {
        widget->setFocusPolicy(Qt::StrongFocus); // no focus from the wheel itself
        widget->installEventFilter(this);
    } else if (widget->isWidgetType()) {
        widget->installEventFilter(this); // a container: watch for children added to it
    }
}

bool WheelGuard::eventFilter(QObject* watched, QEvent* event)
{
    // ChildPolished, not ChildAdded: when a child is added it is still in QWidget's constructor,
    // and a combo box is not yet a QComboBox to qobject_cast.
    if (event->type() == QEvent::ChildPolished) {
        if (auto* child = qobject_cast<QWidget*>(static_cast<QChildEvent*>(event)->child())) {
            guard(child);
            for (QWidget* w : child->findChildren<QWidget*>())
                guard(w);
        }
        return false;
    }
    if (event->type() != QEvent::Wheel || !(takesWheel(watched) || stillChart(watched)))
        return false;
    auto* widget = static_cast<QWidget*>(watched);
    if (widget->hasFocus())
        return false;
    // Not this widget's: it scrolls the form the widget sits in.
    for (QWidget* w = widget->parentWidget(); w; w = w->parentWidget()) {
        if (auto* area = qobject_cast<QAbstractScrollArea*>(w)) {
            QApplication::sendEvent(area->viewport(), event);
            return true;
        }
    }
    event->ignore();
    return true;
}

} // namespace entrena::ui
