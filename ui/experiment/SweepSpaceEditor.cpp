#include "experiment/SweepSpaceEditor.h"

#include "form/KeyLabels.h"

#include <QAbstractItemView>
#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QSet>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>
#include <cmath>

namespace entrena::ui {

namespace {
enum Column { KeyColumn, KindColumn, LowColumn, HighColumn, ValuesColumn, RemoveColumn, ColumnCount };
using Kind = Distribution::Kind;
} // namespace

SweepSpaceEditor::SweepSpaceEditor(QWidget* parent)
    : QWidget(parent)
    , table_(new QTableWidget(0, ColumnCount))
    , add_(new QPushButton)
{
    table_->setObjectName(QStringLiteral("sweepParameters"));
    table_->verticalHeader()->hide();
    table_->setSelectionMode(QAbstractItemView::NoSelection);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setFocusPolicy(Qt::NoFocus); // the rows' own fields take the focus
    QHeaderView* header = table_->horizontalHeader();
    for (int c : {KeyColumn, KindColumn, LowColumn, HighColumn, RemoveColumn})
        header->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    // A range's ends are short numbers; the values of a choice take the room left.
    const int number = QFontMetrics(font()).horizontalAdvance(QStringLiteral("0.000001")) + 24;
    for (int c : {LowColumn, HighColumn}) {
        header->setSectionResizeMode(c, QHeaderView::Fixed);
        table_->setColumnWidth(c, number);
    }
    header->setSectionResizeMode(ValuesColumn, QHeaderView::Stretch);
    table_->verticalHeader()->setDefaultSectionSize(QComboBox().sizeHint().height() + 6);
    add_->setObjectName(QStringLiteral("addParameterButton"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(table_, 1);
    auto* bar = new QHBoxLayout;
    bar->addWidget(add_);
    bar->addStretch(1);
    layout->addLayout(bar);
    connect(add_, &QPushButton::clicked, this, [this] {
        // The first key no row has yet.
        for (const SweepKey& k : keys_) {
            bool used = false;
            for (int r = 0; r < count(); ++r)
                used = used || keyAt(r) == k.key;
            if (!used) {
                addParameter(k.key);
                return;
            }
        }
    });
    retranslate();
}

void SweepSpaceEditor::setKeys(const std::vector<SweepKey>& keys)
{
    keys_ = keys;
    for (const Row& r : rows_) {
        const QSignalBlocker block(r.key);
        fillKeys(r.key, r.key->currentData().toString());
    }
    Q_EMIT changed();
}

const SweepKey* SweepSpaceEditor::keyInfo(const QString& key) const
{
    for (const SweepKey& k : keys_)
        if (k.key == key)
            return &k;
    return nullptr;
}

void SweepSpaceEditor::fillKeys(QComboBox* box, const QString& selected) const
{
    box->clear();
    // In the form's words ("Learning rate"), the key and its documentation in the tooltip.
    for (const SweepKey& k : keys_) {
        box->addItem(keyLabel(k.key), k.key);
        box->setItemData(box->count() - 1, k.key + QStringLiteral(": ") + k.doc, Qt::ToolTipRole);
    }
    int i = box->findData(selected);
    if (i < 0 && !selected.isEmpty()) { // a key this configuration does not offer: kept, and the check names it
        box->addItem(selected, selected);
        i = box->count() - 1;
    }
    box->setCurrentIndex(std::max(0, i));
}

int SweepSpaceEditor::addParameter(const QString& key)
{
    if (!keyInfo(key))
        return -1;
    const int row = count();
    Row r{new QComboBox, new QComboBox, new QLineEdit, new QLineEdit, new QLineEdit, new QToolButton};
    fillKeys(r.key, key);
    // As wide as a usual name, not the longest of the ~40 (the values' column was cut in Spanish);
    // the list opens as wide as its items.
    r.key->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    r.key->setMinimumContentsLength(18);
    r.key->view()->setMinimumWidth(r.key->view()->sizeHintForColumn(0) + 24);
    for (Kind k : {Kind::Uniform, Kind::LogUniform, Kind::IntUniform, Kind::Choice})
        r.kind->addItem(QString(), int(k));
    r.values->setMinimumWidth(120);
    r.remove->setText(QStringLiteral("✕"));
    rows_.push_back(r);
    table_->insertRow(row);
    table_->setCellWidget(row, KeyColumn, r.key);
    table_->setCellWidget(row, KindColumn, r.kind);
    table_->setCellWidget(row, LowColumn, r.low);
    table_->setCellWidget(row, HighColumn, r.high);
    table_->setCellWidget(row, ValuesColumn, r.values);
    table_->setCellWidget(row, RemoveColumn, r.remove);
    retranslate();
    startRow(row);
    connect(r.key, &QComboBox::currentIndexChanged, this, [this, w = r.key] {
        startRow(rowOf(w)); // another key: its own range around the base's value
    });
    connect(r.kind, &QComboBox::currentIndexChanged, this, [this, w = r.kind] {
        const int row = rowOf(w);
        const Row& edited = rows_[size_t(row)];
        // A range turned into a choice starts from the base's value, to add others to.
        if (Kind(w->currentData().toInt()) == Kind::Choice && edited.values->text().trimmed().isEmpty())
            if (const SweepKey* k = keyInfo(edited.key->currentData().toString())) {
                const QSignalBlocker block(edited.values);
                edited.values->setText(k->value);
            }
        showKind(row);
        Q_EMIT changed();
    });
    for (QLineEdit* e : {r.low, r.high, r.values})
        connect(e, &QLineEdit::textChanged, this, &SweepSpaceEditor::changed);
    connect(r.remove, &QToolButton::clicked, this, [this, w = r.remove] { removeParameter(rowOf(w)); });
    Q_EMIT changed();
    return row;
}

void SweepSpaceEditor::startRow(int row)
{
    if (row < 0 || row >= count())
        return;
    const Row& r = rows_[size_t(row)];
    const SweepKey* k = keyInfo(r.key->currentData().toString());
    if (!k)
        return;
    const SweepRowStart s = startFor(*k);
    const QSignalBlocker b1(r.kind), b2(r.low), b3(r.high), b4(r.values);
    r.kind->setCurrentIndex(r.kind->findData(int(s.kind)));
    r.low->setText(s.kind == Kind::Choice ? QString() : numberText(s.low));
    r.high->setText(s.kind == Kind::Choice ? QString() : numberText(s.high));
    r.values->setText(s.kind == Kind::Choice ? s.choices : QString());
    r.key->setToolTip(k->doc);
    showKind(row);
    Q_EMIT changed();
}

void SweepSpaceEditor::showKind(int row)
{
    if (row < 0 || row >= count())
        return;
    const Row& r = rows_[size_t(row)];
    const bool choice = Kind(r.kind->currentData().toInt()) == Kind::Choice;
    r.low->setEnabled(!choice);
    r.high->setEnabled(!choice);
    r.values->setEnabled(choice);
    r.values->setPlaceholderText(choice ? tr("e.g. 64, 128, 256") : QString());
}

void SweepSpaceEditor::setRange(int row, Kind kind, double low, double high)
{
    if (row < 0 || row >= count())
        return;
    const Row& r = rows_[size_t(row)];
    {
        const QSignalBlocker b1(r.kind), b2(r.low), b3(r.high);
        r.kind->setCurrentIndex(r.kind->findData(int(kind)));
        r.low->setText(numberText(low));
        r.high->setText(numberText(high));
    }
    showKind(row);
    Q_EMIT changed();
}

void SweepSpaceEditor::setChoices(int row, const QString& values)
{
    if (row < 0 || row >= count())
        return;
    const Row& r = rows_[size_t(row)];
    {
        const QSignalBlocker b1(r.kind), b2(r.values);
        r.kind->setCurrentIndex(r.kind->findData(int(Kind::Choice)));
        r.values->setText(values);
    }
    showKind(row);
    Q_EMIT changed();
}

void SweepSpaceEditor::removeParameter(int row)
{
    if (row < 0 || row >= count())
        return;
    rows_.erase(rows_.begin() + row);
    table_->removeRow(row);
    Q_EMIT changed();
}

QString SweepSpaceEditor::keyAt(int row) const
{
    return row >= 0 && row < count() ? rows_[size_t(row)].key->currentData().toString() : QString();
}

int SweepSpaceEditor::rowOf(QObject* widget) const
{
    for (int i = 0; i < count(); ++i) {
        const Row& r = rows_[size_t(i)];
        if (widget == r.key || widget == r.kind || widget == r.low || widget == r.high || widget == r.values ||
            widget == r.remove)
            return i;
    }
    return -1;
}

QString SweepSpaceEditor::numberText(double v)
{
    QLocale locale;
    locale.setNumberOptions(QLocale::OmitGroupSeparator);
    return locale.toString(v, 'g', 12);
}

bool SweepSpaceEditor::parseNumber(const QString& text, double* v)
{
    // The reader's own decimal comma, or the point every file uses.
    QLocale locale;
    bool ok = false;
    *v = locale.toDouble(text.trimmed(), &ok);
    if (!ok)
        *v = QLocale::c().toDouble(text.trimmed(), &ok);
    return ok && std::isfinite(*v);
}

QString SweepSpaceEditor::spaceJson(QString* problem) const
{
    const auto fail = [problem](const QString& why) {
        if (problem)
            *problem = why;
        return QString();
    };
    if (rows_.empty())
        return fail(tr("Add a parameter to search."));
    QStringList entries;
    QSet<QString> seen;
    for (const Row& r : rows_) {
        const QString key = r.key->currentData().toString();
        if (seen.contains(key))
            return fail(tr("%1 is in the space twice; remove one of its rows.").arg(keyLabel(key)));
        seen.insert(key);
        const Kind kind = Kind(r.kind->currentData().toInt());
        QString spec;
        if (kind == Kind::Choice) {
            const QString text = r.values->text().trimmed();
            QJsonParseError error;
            QJsonDocument doc = QJsonDocument::fromJson((QLatin1Char('[') + text + QLatin1Char(']')).toUtf8(), &error);
            const SweepKey* info = keyInfo(key);
            if (!doc.isArray() && info && (info->kind == ValueKind::Choice || info->kind == ValueKind::Boolean)) {
                // Names may be written bare: sgd, adam.
                QJsonArray words;
                for (const QString& w : text.split(QLatin1Char(','), Qt::SkipEmptyParts))
                    words.append(w.trimmed() == QLatin1String("true")    ? QJsonValue(true)
                                 : w.trimmed() == QLatin1String("false") ? QJsonValue(false)
                                                                         : QJsonValue(w.trimmed().remove(QLatin1Char('"'))));
                doc = QJsonDocument(words);
            }
            if (!doc.isArray())
                return fail(tr("%1: the values must be JSON values separated by commas, e.g. 64, 128 or [256, 128], [512, 256].")
                                .arg(key));
            spec = QStringLiteral("{\"choice\": %1}").arg(QString::fromUtf8(doc.toJson(QJsonDocument::Compact)));
        } else {
            double low = 0, high = 0;
            if (!parseNumber(r.low->text(), &low))
                return fail(tr("%1: the range's start “%2” is not a number.").arg(key, r.low->text()));
            if (!parseNumber(r.high->text(), &high))
                return fail(tr("%1: the range's end “%2” is not a number.").arg(key, r.high->text()));
            const char* name = kind == Kind::LogUniform ? "log_uniform" : kind == Kind::IntUniform ? "int_uniform" : "uniform";
            const auto json = [](double v) { return QString::number(v, 'g', 12); }; // 0.0001, not 1e-04
            spec = QStringLiteral("{\"%1\": [%2, %3]}").arg(QLatin1String(name), json(low), json(high));
        }
        entries << QStringLiteral("\"%1\": %2").arg(key, spec);
    }
    if (problem)
        problem->clear();
    return QLatin1Char('{') + entries.join(QStringLiteral(", ")) + QLatin1Char('}');
}

void SweepSpaceEditor::retranslate()
{
    table_->setHorizontalHeaderLabels(
        {tr("Parameter"), tr("Distribution"), tr("From"), tr("To"), tr("Values (for a choice)"), QString()});
    table_->setAccessibleName(tr("Parameters to search"));
    add_->setText(tr("Add parameter"));
    for (const Row& r : rows_) {
        r.kind->setItemText(0, tr("uniform"));
        r.kind->setItemText(1, tr("log-uniform"));
        r.kind->setItemText(2, tr("whole numbers"));
        r.kind->setItemText(3, tr("choice"));
        for (int i = 0; i < r.key->count(); ++i) // the form's words in the new language
            r.key->setItemText(i, keyLabel(r.key->itemData(i).toString()));
        r.key->setAccessibleName(tr("Parameter"));
        r.kind->setAccessibleName(tr("Distribution"));
        r.low->setAccessibleName(tr("From"));
        r.high->setAccessibleName(tr("To"));
        r.values->setAccessibleName(tr("Values"));
        r.remove->setToolTip(tr("Remove this parameter"));
        r.remove->setAccessibleName(tr("Remove this parameter"));
    }
}

void SweepSpaceEditor::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

} // namespace entrena::ui
