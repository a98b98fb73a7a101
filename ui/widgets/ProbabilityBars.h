#pragma once
// A model's answer for one input: its most probable classes as horizontal bars, most probable first,
// each with its name and probability.

#include <QWidget>

namespace entrena::ui {

class ProbabilityBars : public QWidget {
    Q_OBJECT
public:
    explicit ProbabilityBars(QWidget* parent = nullptr);

    struct Bar {
        QString name;
        double probability = 0;
    };
    void setBars(const QList<Bar>& bars);
    const QList<Bar>& bars() const { return bars_; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent*) override;

private:
    int rowHeight() const;

    QList<Bar> bars_;
};

} // namespace entrena::ui
