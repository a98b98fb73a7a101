#include "finders/BatchSizeAnswer.h"

#include "entrena/search/BatchSizeFinder.h"

#include <QLocale>
#include <QMessageBox>
#include <QPushButton>

namespace entrena::ui {

QMessageBox* BatchSizeAnswer::open(QWidget* parent, const BatchSizeResult& r, int64_t current,
                                   const std::function<void(int64_t)>& apply)
{
    // The answer with what it means, for the user to apply: the largest batch that fits in memory
    // is often the whole training set (one step an epoch), which is no batch to train with.
    const QLocale locale;
    const int64_t suggested = suggestedBatchSize(r.batchSize, r.trainSamples);
    const auto steps = [&](int64_t batch) {
        const qlonglong n = r.trainSamples > 0 ? (r.trainSamples + batch - 1) / batch : 0;
        return n == 1 ? tr("one step an epoch") : tr("%1 steps an epoch").arg(locale.toString(n));
    };
    const auto mib = [&](int64_t bytes) { return locale.toString(double(bytes) / 1048576.0, 'f', 1); };
    int64_t suggestedPeak = -1;
    for (const BatchTrial& t : r.trials)
        if (t.batchSize == suggested && t.fits)
            suggestedPeak = t.peakBytes;
    const QString budget = r.budgetSource == "train.memory_budget_mb" ? tr("the memory budget")
                           : r.budgetSource == "device memory"        ? tr("the device's memory")
                                                                      : tr("the memory available");
    // Without a budget on a GPU there is no figure to compare with: only what limited it.
    QString text =
        r.budgetBytes > 0
            ? tr("The largest batch that fits is %1: %2, a peak of %3 MiB of %4 MiB (%5).")
                  .arg(locale.toString(qlonglong(r.batchSize)), steps(r.batchSize), mib(r.peakBytes), mib(r.budgetBytes), budget)
            : tr("The largest batch that fits is %1: %2, a peak of %3 MiB (within %4).")
                  .arg(locale.toString(qlonglong(r.batchSize)), steps(r.batchSize), mib(r.peakBytes), budget);
    if (r.hitMax)
        text +=
            QLatin1Char(' ') + tr("Every size tried fitted, up to the whole training set: memory does not limit the batch here.");
    if (suggested != r.batchSize)
        text += QStringLiteral("\n\n") +
                (suggestedPeak >= 0 ? tr("For training, %1 is the better choice: %2, a peak of %3 MiB. It is the largest power "
                                         "of two up to 4,096 that leaves at least 50 steps an epoch: larger batches take "
                                         "fewer steps and need a retuned learning rate.")
                                          .arg(locale.toString(qlonglong(suggested)), steps(suggested), mib(suggestedPeak))
                                    : tr("For training, %1 is the better choice: %2. It is the largest power of two up to "
                                         "4,096 that leaves at least 50 steps an epoch: larger batches take fewer steps and "
                                         "need a retuned learning rate.")
                                          .arg(locale.toString(qlonglong(suggested)), steps(suggested)));
    auto* box = new QMessageBox(QMessageBox::Information, tr("Batch size"), text, QMessageBox::NoButton, parent);
    box->setObjectName(QStringLiteral("batchSizeAnswer"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    if (suggested != r.batchSize) {
        auto* useSuggested = box->addButton(tr("Use %1").arg(locale.toString(qlonglong(suggested))), QMessageBox::AcceptRole);
        useSuggested->setObjectName(QStringLiteral("useSuggestedBatch"));
        QObject::connect(useSuggested, &QAbstractButton::clicked, box, [apply, suggested] { apply(suggested); });
        box->setDefaultButton(qobject_cast<QPushButton*>(useSuggested));
    }
    auto* useLargest = box->addButton(tr("Use %1").arg(locale.toString(qlonglong(r.batchSize))), QMessageBox::AcceptRole);
    useLargest->setObjectName(QStringLiteral("useLargestBatch"));
    const int64_t largest = r.batchSize;
    QObject::connect(useLargest, &QAbstractButton::clicked, box, [apply, largest] { apply(largest); });
    box->addButton(tr("Keep %1").arg(locale.toString(qlonglong(current))), QMessageBox::RejectRole);
    box->open();
    return box;
}

} // namespace entrena::ui
