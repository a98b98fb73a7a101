#include "widgets/DecimalSpinBox.h"

#include <QLocale>
#include <QRegularExpression>

namespace entrena::ui {
namespace {

/// "1e-3", "2.5E-4", "1,5e3" (a lone decimal mark, either): what a person writes for small rates.
const QRegularExpression& scientific()
{
    static const QRegularExpression e(QStringLiteral("^\\s*([+-]?)(\\d*)[.,]?(\\d*)[eE]([+-]?)(\\d*)\\s*$"));
    return e;
}

} // namespace

DecimalSpinBox::DecimalSpinBox(QWidget* parent)
    : QDoubleSpinBox(parent)
{
    setGroupSeparatorShown(false);
}

QString DecimalSpinBox::withDecimalMark(QString text) const
{
    const QString mark = locale().decimalPoint();
    const QString other = mark == QStringLiteral(",") ? QStringLiteral(".") : QStringLiteral(",");
    // Two marks ("1.000,5") are a number written with a thousands separator: left to QDoubleSpinBox.
    if (text.count(other) + text.count(mark) == 1)
        text.replace(other, mark);
    return text;
}

std::optional<double> DecimalSpinBox::scientificValue(const QString& text, bool* partial)
{
    const QRegularExpressionMatch m = scientific().match(text);
    if (partial)
        *partial = m.hasMatch();
    if (!m.hasMatch() || (m.captured(2).isEmpty() && m.captured(3).isEmpty()) || m.captured(5).isEmpty())
        return std::nullopt;
    QString c = text.trimmed();
    c.replace(QLatin1Char(','), QLatin1Char('.'));
    bool ok = false;
    const double v = QLocale::c().toDouble(c, &ok);
    return ok ? std::optional<double>(v) : std::nullopt;
}

QValidator::State DecimalSpinBox::validate(QString& input, int& pos) const
{
    // 1e-3 was read as 1 (the 'e' and what follows refused one key at a time): a learning rate 1000
    // times too high, silently. A number in that form is taken whole, and while it is being typed.
    bool partial = false;
    if (const auto v = scientificValue(input, &partial))
        return *v >= minimum() && *v <= maximum() ? QValidator::Acceptable : QValidator::Intermediate;
    if (partial)
        return QValidator::Intermediate;
    input = withDecimalMark(input); // the same length: the cursor stays where it was
    return QDoubleSpinBox::validate(input, pos);
}

double DecimalSpinBox::valueFromText(const QString& text) const
{
    if (const auto v = scientificValue(text))
        return *v;
    return QDoubleSpinBox::valueFromText(withDecimalMark(text));
}

void DecimalSpinBox::fixup(QString& input) const
{
    if (scientificValue(input))
        return;
    input = withDecimalMark(input);
    QDoubleSpinBox::fixup(input);
}

QString DecimalSpinBox::textFromValue(double value) const
{
    QString text = locale().toString(value, 'f', decimals());
    const QString mark = locale().decimalPoint();
    if (text.contains(mark)) {
        while (text.endsWith(QLatin1Char('0')))
            text.chop(1);
        if (text.endsWith(mark))
            text.chop(mark.size());
    }
    text.remove(locale().groupSeparator());
    return text;
}

} // namespace entrena::ui
