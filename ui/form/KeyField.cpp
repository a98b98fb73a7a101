#include "form/KeyField.h"

#include "widgets/DecimalSpinBox.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLineEdit>
#include <QSpinBox>
#include <algorithm>
#include <climits>

namespace entrena::ui {
namespace {

// Spin boxes show what a person types; a key's "1e12" upper bound is no use there.
constexpr double kFormMax = 1e6;

} // namespace

QString numberListText(const std::vector<int64_t>& values)
{
    QStringList parts;
    for (int64_t v : values)
        parts << QString::number(v);
    return parts.join(QStringLiteral(", "));
}

// "256, 128" → {256, 128}; anything unreadable is dropped, and the check names the key.
std::vector<int64_t> numberListValues(const QString& text)
{
    std::vector<int64_t> out;
    for (const QString& part : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        bool ok = false;
        const qlonglong v = part.trimmed().toLongLong(&ok);
        if (ok)
            out.push_back(v);
    }
    return out;
}

// A Json key's text as typed: JSON when it reads as JSON (an object, a number, a quoted string),
// else the words as a string, as --set reads a value.
JsonText jsonTextOf(const QString& typed)
{
    const QString text = typed.trimmed();
    QJsonParseError error{};
    const QJsonDocument wrapped = QJsonDocument::fromJson(QByteArray("[") + text.toUtf8() + "]", &error);
    QJsonArray one;
    if (error.error == QJsonParseError::NoError && wrapped.array().size() == 1)
        one = wrapped.array();
    else
        one.append(text);
    const QByteArray compact = QJsonDocument(one).toJson(QJsonDocument::Compact);
    return {compact.mid(1, compact.size() - 2).toStdString()};
}

namespace {

// The words for a choice's name in the form ("cos" reads "cosine").
QString choiceText(const std::string& name)
{
    if (name == "cos")
        return QCoreApplication::translate("Registry", "cosine");
    if (name == "linear")
        return QCoreApplication::translate("Registry", "linear");
    // data.balance
    if (name == "none")
        return QCoreApplication::translate("Registry", "no");
    if (name == "weights")
        return QCoreApplication::translate("Registry", "weight the loss by class");
    if (name == "sampler")
        return QCoreApplication::translate("Registry", "draw classes evenly");
    return QString::fromStdString(name);
}

} // namespace

QString registryText(const char* english)
{
    return QCoreApplication::translate("Registry", english);
}

QWidget* makeKeyWidget(ValueKind kind, double lo, double hi, const std::vector<std::string>& choices, const FormHint& hint)
{
    if (hint.formLo != 0 || hint.formHi != 0) {
        lo = hint.formLo;
        hi = hint.formHi;
    }
    hi = std::min(hi, kFormMax);
    switch (kind) {
    case ValueKind::Number: {
        auto* box = new DecimalSpinBox;
        box->setDecimals(hint.decimals);
        box->setRange(lo, hi);
        box->setSingleStep(hint.step > 0 ? hint.step : (hi - lo) / 10);
        retranslateKeyWidget(box, hint);
        return box;
    }
    case ValueKind::Integer: {
        auto* box = new QSpinBox;
        box->setRange(int(std::max<double>(lo, INT_MIN)), int(std::min<double>(hi, INT_MAX)));
        box->setSingleStep(hint.step > 0 ? int(hint.step) : 1);
        retranslateKeyWidget(box, hint);
        return box;
    }
    case ValueKind::Boolean: return new QCheckBox;
    case ValueKind::Choice: {
        auto* box = new QComboBox;
        for (const auto& c : choices)
            box->addItem(choiceText(c), QString::fromStdString(c));
        return box;
    }
    case ValueKind::Text:
    case ValueKind::IntegerList:
    case ValueKind::Json: return new QLineEdit;
    }
    return nullptr;
}

void retranslateKeyWidget(QWidget* widget, const FormHint& hint)
{
    if (auto* spin = qobject_cast<QAbstractSpinBox*>(widget))
        spin->setSpecialValueText(hint.zeroText ? registryText(hint.zeroText) : QString());
    if (auto* box = qobject_cast<QComboBox*>(widget))
        for (int i = 0; i < box->count(); ++i)
            box->setItemText(i, choiceText(box->itemData(i).toString().toStdString()));
}

void showKeyValue(QWidget* widget, const OptionValue& value)
{
    if (auto* d = qobject_cast<QDoubleSpinBox*>(widget))
        d->setValue(std::get<double>(value));
    else if (auto* i = qobject_cast<QSpinBox*>(widget))
        i->setValue(int(std::get<int64_t>(value)));
    else if (auto* c = qobject_cast<QCheckBox*>(widget))
        c->setChecked(std::get<bool>(value));
    else if (auto* box = qobject_cast<QComboBox*>(widget)) {
        const int at = box->findData(QString::fromStdString(std::get<std::string>(value)));
        if (at >= 0)
            box->setCurrentIndex(at);
    } else if (auto* line = qobject_cast<QLineEdit*>(widget)) {
        if (const auto* list = std::get_if<std::vector<int64_t>>(&value))
            line->setText(numberListText(*list));
        else if (const auto* any = std::get_if<JsonText>(&value))
            line->setText(QString::fromStdString(any->text));
        else
            line->setText(QString::fromStdString(std::get<std::string>(value)));
    }
}

OptionValue keyValue(const QWidget* widget, ValueKind kind)
{
    switch (kind) {
    case ValueKind::Number: return qobject_cast<const QDoubleSpinBox*>(widget)->value();
    case ValueKind::Integer: return int64_t(qobject_cast<const QSpinBox*>(widget)->value());
    case ValueKind::Boolean: return qobject_cast<const QCheckBox*>(widget)->isChecked();
    case ValueKind::Choice: return qobject_cast<const QComboBox*>(widget)->currentData().toString().toStdString();
    case ValueKind::Text: return qobject_cast<const QLineEdit*>(widget)->text().trimmed().toStdString();
    case ValueKind::IntegerList: return numberListValues(qobject_cast<const QLineEdit*>(widget)->text());
    case ValueKind::Json: return jsonTextOf(qobject_cast<const QLineEdit*>(widget)->text());
    }
    return 0.0;
}

void onKeyValueChanged(QWidget* widget, QObject* context, const std::function<void()>& changed)
{
    if (auto* d = qobject_cast<QDoubleSpinBox*>(widget))
        QObject::connect(d, &QDoubleSpinBox::valueChanged, context, changed);
    else if (auto* i = qobject_cast<QSpinBox*>(widget))
        QObject::connect(i, &QSpinBox::valueChanged, context, changed);
    else if (auto* c = qobject_cast<QCheckBox*>(widget))
        QObject::connect(c, &QCheckBox::toggled, context, changed);
    else if (auto* box = qobject_cast<QComboBox*>(widget))
        QObject::connect(box, &QComboBox::currentIndexChanged, context, changed);
    else if (auto* line = qobject_cast<QLineEdit*>(widget))
        QObject::connect(line, &QLineEdit::editingFinished, context, changed);
}

} // namespace entrena::ui
