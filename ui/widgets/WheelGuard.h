#pragma once

#include <QObject>

class QWidget;

namespace entrena::ui {

/// Keeps the mouse wheel from changing a combo box, spin box or slider that the user is only
/// scrolling past: such a widget takes the wheel only once it has focus (a click or Tab), and
/// otherwise hands it on, so the form scrolls. (Scrolling the configuration form had silently
/// turned Schedule from "Reduce on plateau" into "Constant".) A chart in the form that neither zooms
/// nor pans (the schedule's preview) hands the wheel on too.
class WheelGuard : public QObject {
    Q_OBJECT
public:
    /// Guards every combo box, spin box and slider inside `form`, now and added later.
    static void install(QWidget* form);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    using QObject::QObject;
    void guard(QWidget* widget);
};

} // namespace entrena::ui
