#pragma once

#include "experiment/SweepKeys.h"

#include <QWidget>
#include <vector>

class QComboBox;
class QLineEdit;
class QPushButton;
class QTableWidget;
class QToolButton;

namespace entrena::ui {

/// The rows of a search space: per row a configuration key, its distribution (uniform,
/// log-uniform, whole numbers, or a choice), the range's ends or the values to choose from.
/// It writes the space file's JSON (docs/experiments.md) from them, in the rows' order.
class SweepSpaceEditor : public QWidget {
    Q_OBJECT
public:
    explicit SweepSpaceEditor(QWidget* parent = nullptr);

    /// The keys rows may choose from (the base configuration's); rows keep their key.
    void setKeys(const std::vector<SweepKey>& keys);
    /// A row for `key`, its distribution started around the base's value; -1 for an unknown key.
    int addParameter(const QString& key);
    void setRange(int row, Distribution::Kind kind, double low, double high);
    /// A choice of `values`: JSON values separated by commas ("64, 128", "[256, 128], [512, 256]").
    void setChoices(int row, const QString& values);
    void removeParameter(int row);
    int count() const { return int(rows_.size()); }
    QString keyAt(int row) const;
    QTableWidget* table() const { return table_; }

    /// The space as JSON; "" with `problem` set when a row cannot be written (a range end that is
    /// not a number, values that are not JSON, a key twice, no row at all).
    QString spaceJson(QString* problem = nullptr) const;

Q_SIGNALS:
    void changed();

protected:
    void changeEvent(QEvent* event) override;

private:
    struct Row {
        QComboBox* key;
        QComboBox* kind;
        QLineEdit* low;
        QLineEdit* high;
        QLineEdit* values;
        QToolButton* remove;
    };
    void retranslate();
    void fillKeys(QComboBox* box, const QString& selected) const;
    void startRow(int row);
    void showKind(int row);
    int rowOf(QObject* widget) const;
    const SweepKey* keyInfo(const QString& key) const;
    static QString numberText(double v);
    static bool parseNumber(const QString& text, double* v);

    std::vector<SweepKey> keys_;
    std::vector<Row> rows_;
    QTableWidget* table_;
    QPushButton* add_;
};

} // namespace entrena::ui
