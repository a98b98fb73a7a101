#pragma once
// The data before training: each class with its name, how many training samples it has and a
// row of its pictures, the total, and what deserves a look (classes far apart in size, files that
// could not be read). Read by the engine's previewData as a job of the bridge's runner; what it
// cannot read is shown as the engine's message.

#include "JobHandle.h"
#include "entrena/config/Config.h"
#include "entrena/data/DataPreview.h"

#include <QDialog>

class QGridLayout;
class QLabel;
class QPushButton;
class QScrollArea;

namespace entrena::ui {

class DataPreviewDialog : public QDialog {
    Q_OBJECT
public:
    /// Starts reading at once; ready() follows (also on failure).
    explicit DataPreviewDialog(const DataSpec& spec, QWidget* parent = nullptr);
    ~DataPreviewDialog() override;

    /// Images shown per class.
    static constexpr int kPerClass = 8;

    bool isReady() const { return ready_; }
    /// The classes listed, in label order, and each one's count as shown.
    QStringList classNames() const;
    QStringList countTexts() const;
    /// Pictures shown in a class's row.
    int imagesShown(int row) const;
    QLabel* totalLabel() const { return total_; }
    QLabel* imbalanceLabel() const { return imbalance_; }
    /// Shown with the imbalance warning (when the form's data.balance is none): balanceRequested().
    QPushButton* balanceButton() const { return balance_; }
    QLabel* skippedLabel() const { return skipped_; }
    QLabel* errorLabel() const { return error_; }

Q_SIGNALS:
    void ready();
    /// The person took the offer: train with data.balance = weights.
    void balanceRequested();

private:
    void load();
    void showPreview(const DataPreview& preview);
    void addClassRow(const DataPreview& preview, int k);
    void fail(const QString& message);
    void clearRows();
    QString imbalanceText(const DataPreview& preview) const;

    DataSpec spec_;
    uint64_t seed_ = 1;
    bool ready_ = false;
    app::JobHandle<DataPreview> job_;
    QLabel* status_;
    QLabel* total_;
    QLabel* imbalance_;
    QLabel* skipped_;
    QLabel* error_;
    QScrollArea* scroll_;
    QWidget* rows_ = nullptr;
    QGridLayout* grid_ = nullptr;
    QPushButton* others_;
    QPushButton* balance_;
    QList<QLabel*> names_, counts_;
    QList<int> shown_;
};

} // namespace entrena::ui
