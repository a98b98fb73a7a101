#include "widgets/DiskUseBar.h"

#include "entrena/store/RunStore.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QMessageBox>
#include <QToolButton>

#include <set>

namespace entrena::ui {
namespace {

QString bytesText(qint64 bytes)
{
    return QLocale().formattedDataSize(bytes, 1, QLocale::DataSizeSIFormat);
}

} // namespace

DiskUseBar::DiskUseBar(QWidget* parent)
    : QWidget(parent)
    , label_(new QLabel(this))
    , free_(new QToolButton(this))
{
    label_->setObjectName(QStringLiteral("diskUseLabel"));
    free_->setObjectName(QStringLiteral("freeSpaceButton"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(label_);
    layout->addWidget(free_);
    connect(free_, &QToolButton::clicked, this, &DiskUseBar::freeArchivedAndPruned);
    retranslate();
}

void DiskUseBar::update(RunStore* store)
{
    store_ = store;
    files_ = storeFile_ = 0;
    if (store) {
        try {
            for (const auto& [run, bytes] : store->diskUse())
                files_ += bytes;
            storeFile_ = store->storeFileBytes();
        } catch (const std::exception&) {
            // Shown as nothing rather than as a wrong figure; the runs list says when the store fails.
        }
    }
    retranslate();
}

QString DiskUseBar::text() const
{
    return label_->text();
}

void DiskUseBar::retranslate()
{
    label_->setText(tr("On disk: %1").arg(bytesText(files_ + storeFile_)));
    label_->setToolTip(tr("Checkpoints and evaluation images of every run, archived ones included: %1. The store file: %2.")
                           .arg(bytesText(files_), bytesText(storeFile_)));
    free_->setText(tr("Free space…"));
    free_->setToolTip(tr("Delete the checkpoints of archived and pruned runs; their metrics stay."));
    free_->setEnabled(store_ != nullptr);
}

void DiskUseBar::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

bool DiskUseBar::freeCheckpoints(QWidget* parent, RunStore& store, const QList<RunRecord>& runs)
{
    qint64 bytes = 0;
    for (const RunRecord& r : runs)
        bytes += store.checkpointBytes(r.id);
    if (bytes == 0) {
        QMessageBox::information(parent, tr("Free disk space"),
                                 runs.size() == 1 ? tr("Run %1 has no checkpoint files to delete.").arg(runs.first().id)
                                                  : tr("None of these runs has checkpoint files to delete."));
        return false;
    }
    const QString what = runs.size() == 1 ? tr("run %1 “%2”").arg(runs.first().id).arg(QString::fromStdString(runs.first().name))
                                          : tr("%n run(s)", nullptr, int(runs.size()));
    const auto answer = QMessageBox::question(
        parent, tr("Free disk space"),
        tr("Delete the checkpoints of %1, freeing %2?\n\nTheir metrics, charts and evaluation stay; they can no longer be "
           "resumed or their weights exported.")
            .arg(what, bytesText(bytes)));
    if (answer != QMessageBox::Yes)
        return false;
    qint64 freed = 0;
    try {
        for (const RunRecord& r : runs)
            freed += store.freeCheckpoints(r.id);
    } catch (const std::exception& e) {
        QMessageBox::warning(parent, tr("Free disk space"), QString::fromStdString(e.what()));
    }
    // A sentence, not two words: the box is as wide as its text, and a window manager elided its title
    // ("Fre…ce") over a box as narrow as "Freed 1.9 MB.".
    QMessageBox::information(parent, tr("Free disk space"),
                             tr("Freed %1. The runs' metrics, charts and evaluation are kept.").arg(bytesText(freed)));
    return true;
}

void DiskUseBar::freeArchivedAndPruned()
{
    if (!store_)
        return;
    QList<RunRecord> runs;
    try {
        std::set<int64_t> shown;
        for (const RunRecord& r : store_->listRuns())
            shown.insert(r.id);
        RunFilter all;
        all.includeArchived = true;
        for (const RunRecord& r : store_->listRuns(all))
            if ((!shown.count(r.id) || r.status == RunStatus::Pruned) && r.status != RunStatus::Running &&
                store_->checkpointBytes(r.id) > 0)
                runs << r;
    } catch (const std::exception& e) {
        QMessageBox::warning(this, tr("Free disk space"), QString::fromStdString(e.what()));
        return;
    }
    if (runs.isEmpty()) {
        QMessageBox::information(this, tr("Free disk space"),
                                 tr("No archived or pruned run has checkpoints to delete. Archive the runs you no longer "
                                    "need (right-click → Archive), or delete one run's checkpoints from its right-click "
                                    "menu."));
        return;
    }
    if (freeCheckpoints(this, *store_, runs))
        Q_EMIT freed();
}

} // namespace entrena::ui
