#pragma once
// A spin box for decimal numbers that reads both decimal marks. People type and paste "0.05" whatever
// their language; QDoubleSpinBox in Spanish takes the '.' for a thousands separator and makes it 5
// (a learning rate 100 times too high, silently). A spin box shows no thousands separators, so a
// single '.' or ',' can only be the decimal mark: it is read as one, and shown in the reader's
// language. Scientific notation ("1e-3") is read too. Values are shown without trailing zeros
// ("0,05", not "0,050000").

#include <QDoubleSpinBox>
#include <optional>

namespace entrena::ui {

class DecimalSpinBox : public QDoubleSpinBox {
    Q_OBJECT
public:
    explicit DecimalSpinBox(QWidget* parent = nullptr);

    QValidator::State validate(QString& input, int& pos) const override;
    double valueFromText(const QString& text) const override;
    QString textFromValue(double value) const override;
    void fixup(QString& input) const override;

    /// `text` with a lone '.' or ',' turned into this box's decimal mark.
    QString withDecimalMark(QString text) const;
    /// The value of "1e-3" or "2,5E-4" (nothing for other text); `partial`: the text is such a number,
    /// or the start of one ("1e", "1e-").
    static std::optional<double> scientificValue(const QString& text, bool* partial = nullptr);
};

} // namespace entrena::ui
