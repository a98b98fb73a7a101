#pragma once

#include <QObject>
#include <QString>
#include <QTimer>

#include <functional>

class QWidget;

namespace entrena::ui {

/// Checks a form as it is edited: whenever a line edit, spin box, combo box or check box inside
/// it changes, `check` runs (coalesced: once, a moment after the last change) and problemChanged()
/// reports what it said ("" when the form is fine). Bad input is then seen beside the form,
/// before Start, instead of as a failed run afterwards.
class FormCheck : public QObject {
    Q_OBJECT
public:
    FormCheck(QWidget* form, std::function<QString()> check);
    /// Checks at once (after a programmatic change, or to read the answer in a test).
    void recheck();
    QString problem() const { return problem_; }

Q_SIGNALS:
    void problemChanged(const QString& problem);

private:
    void watch(QWidget* form);

    std::function<QString()> check_;
    QString problem_;
    QTimer delay_;
};

} // namespace entrena::ui
