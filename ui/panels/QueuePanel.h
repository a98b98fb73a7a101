#pragma once

#include <QWidget>

class QLabel;
class QListWidget;
class QPushButton;
class QToolButton;

namespace entrena::ui {

class RunQueue;

/// The runs waiting to start, beside the runs list: each with its name and what sets it apart;
/// reorder them (drag, or the arrows), remove one, or run one next.
class QueuePanel : public QWidget {
    Q_OBJECT
public:
    explicit QueuePanel(RunQueue* queue, QWidget* parent = nullptr);

    QListWidget* list() const { return list_; }
    /// The selected entry's index in the queue, or -1.
    int currentIndex() const;
    void setCurrentIndex(int index);

Q_SIGNALS:
    /// Start the entry at `index` now when nothing trains, else make it the next to start.
    void runNextRequested(int index);

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    void rebuild();
    /// After a drag inside the list: the queue takes the order the list shows.
    void takeOrderFromList();
    void updateButtons();

    RunQueue* queue_;
    QLabel* note_;
    QListWidget* list_;
    QToolButton* up_;
    QToolButton* down_;
    QPushButton* remove_;
    QPushButton* runNext_;
    bool rebuilding_ = false;
};

} // namespace entrena::ui
