#pragma once
// A dismissable strip above the live charts for what a person should act on while a run trains:
// the model is not learning (the first epoch ended where guessing would), or files of the data set
// could not be read. In the reader's language, with the engine's message; the status bar's few
// seconds are too short for these.

#include "entrena/train/Events.h"

#include <QFrame>
#include <vector>

class QLabel;
class QToolButton;

namespace entrena::ui {

class NoticeBanner : public QFrame {
    Q_OBJECT
public:
    explicit NoticeBanner(QWidget* parent = nullptr);

    /// Whether notices of `kind` are shown here (not_learning, data_warning).
    static bool shows(const std::string& kind);
    /// Adds the notice to the banner and shows it; other kinds are ignored.
    void add(const NoticeEvent& notice);
    /// Empties and hides the banner (a new run starts; the user dismissed it).
    void clear();
    QString text() const;
    QToolButton* dismissButton() const { return dismiss_; }

protected:
    void changeEvent(QEvent* event) override;

private:
    void refresh();

    std::vector<NoticeEvent> notices_;
    QLabel* text_;
    QToolButton* dismiss_;
};

} // namespace entrena::ui
