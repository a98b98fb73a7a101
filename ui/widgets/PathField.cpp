#include "widgets/PathField.h"

#include <QEvent>
#include <QFocusEvent>
#include <QLineEdit>

namespace entrena::ui {

namespace {

class ShowStartOnLeave : public QObject {
public:
    using QObject::QObject;
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        // Not for a popup (its context menu, a completer): the person is still editing.
        if (event->type() == QEvent::FocusOut && static_cast<QFocusEvent*>(event)->reason() != Qt::PopupFocusReason)
            static_cast<QLineEdit*>(watched)->setCursorPosition(0);
        return false;
    }
};

} // namespace

void makePathField(QLineEdit* edit)
{
    edit->installEventFilter(new ShowStartOnLeave(edit));
    QObject::connect(edit, &QLineEdit::textChanged, edit, &QLineEdit::setToolTip);
}

void setPath(QLineEdit* edit, const QString& path)
{
    edit->setText(path); // the cursor at the end, even when the text was already this
    if (!edit->hasFocus())
        edit->setCursorPosition(0);
}

} // namespace entrena::ui
