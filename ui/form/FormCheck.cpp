#include "form/FormCheck.h"

#include <QAbstractButton>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QSpinBox>
#include <QWidget>

namespace entrena::ui {

FormCheck::FormCheck(QWidget* form, std::function<QString()> check) : QObject(form), check_(std::move(check))
{
    delay_.setSingleShot(true);
    delay_.setInterval(150); // after typing stops, not on every key
    connect(&delay_, &QTimer::timeout, this, &FormCheck::recheck);
    watch(form);
}

void FormCheck::watch(QWidget* form)
{
    const auto later = [this] { delay_.start(); };
    for (auto* w : form->findChildren<QLineEdit*>())
        connect(w, &QLineEdit::textChanged, this, later);
    for (auto* w : form->findChildren<QSpinBox*>())
        connect(w, &QSpinBox::valueChanged, this, later);
    for (auto* w : form->findChildren<QDoubleSpinBox*>())
        connect(w, &QDoubleSpinBox::valueChanged, this, later);
    for (auto* w : form->findChildren<QComboBox*>())
        connect(w, &QComboBox::currentIndexChanged, this, later);
    for (auto* w : form->findChildren<QAbstractButton*>())
        if (w->isCheckable())
            connect(w, &QAbstractButton::toggled, this, later);
}

void FormCheck::recheck()
{
    delay_.stop();
    const QString problem = check_();
    if (problem != problem_) {
        problem_ = problem;
        Q_EMIT problemChanged(problem_);
    }
}

} // namespace entrena::ui
