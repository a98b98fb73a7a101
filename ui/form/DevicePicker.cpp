#include "form/DevicePicker.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QThread>
#include <QVBoxLayout>

namespace entrena::ui {
namespace {

constexpr int kKindRole = Qt::UserRole;      // "cpu" or "cuda"
constexpr int kIndexRole = Qt::UserRole + 1; // the CUDA device's index

} // namespace

DevicePicker::DevicePicker(QWidget* parent) : QWidget(parent)
{
    list_ = new QListWidget;
    list_->setObjectName(QStringLiteral("deviceList"));
    list_->setMaximumHeight(96);
    cpuRanks_ = new QSpinBox;
    cpuRanks_->setObjectName(QStringLiteral("cpuRanks"));
    cpuRanks_->setRange(1, std::max(64, QThread::idealThreadCount()));
    cpuRanksLabel_ = new QLabel;
    cpuRanksLabel_->setBuddy(cpuRanks_);
    summary_ = new QLabel;
    summary_->setObjectName(QStringLiteral("deviceSummary"));
    summary_->setWordWrap(true);

    auto* ranksRow = new QHBoxLayout;
    ranksRow->setContentsMargins(0, 0, 0, 0);
    ranksRow->addWidget(cpuRanksLabel_);
    ranksRow->addWidget(cpuRanks_);
    ranksRow->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(list_);
    layout->addLayout(ranksRow);
    layout->addWidget(summary_);

    connect(list_, &QListWidget::itemChanged, this, &DevicePicker::onItemChanged);
    connect(cpuRanks_, &QSpinBox::valueChanged, this, [this] {
        retranslate();
        Q_EMIT changed();
    });
    setDevices({ComputeDevice{"cpu", 0, {}, 0, {}}});
}

void DevicePicker::setDevices(const std::vector<ComputeDevice>& devices)
{
    DeviceSpec before;
    apply(before);
    devices_ = devices;
    {
        const QSignalBlocker block(list_);
        list_->clear();
        for (const auto& d : devices) {
            auto* item = new QListWidgetItem(list_);
            item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
            item->setData(kKindRole, QString::fromStdString(d.type));
            item->setData(kIndexRole, d.index);
            item->setCheckState(Qt::Unchecked);
        }
    }
    load(before);
}

void DevicePicker::load(const DeviceSpec& devices)
{
    updating_ = true;
    {
        const QSignalBlocker block(list_);
        bool any = false;
        for (int i = 0; i < list_->count(); ++i) {
            QListWidgetItem* item = list_->item(i);
            const bool cuda = item->data(kKindRole).toString() == QStringLiteral("cuda");
            bool on = false;
            if (devices.type == DeviceType::Cuda && cuda) {
                const int64_t index = item->data(kIndexRole).toLongLong();
                on = devices.ids.empty() ? index == 0
                                         : std::find(devices.ids.begin(), devices.ids.end(), index) != devices.ids.end();
            }
            item->setCheckState(on ? Qt::Checked : Qt::Unchecked);
            any = any || on;
        }
        if (!any) // the CPU (also when the GPUs named are not on this machine)
            for (int i = 0; i < list_->count(); ++i)
                if (list_->item(i)->data(kKindRole).toString() == QStringLiteral("cpu"))
                    list_->item(i)->setCheckState(Qt::Checked);
    }
    updating_ = false;
    retranslate();
}

void DevicePicker::apply(DeviceSpec& devices) const
{
    devices.type = DeviceType::Cpu;
    devices.ids.clear();
    for (int i = 0; i < list_->count(); ++i) {
        const QListWidgetItem* item = list_->item(i);
        if (item->checkState() == Qt::Checked && item->data(kKindRole).toString() == QStringLiteral("cuda")) {
            devices.type = DeviceType::Cuda;
            devices.ids.push_back(item->data(kIndexRole).toLongLong());
        }
    }
}

int DevicePicker::ranks() const
{
    DeviceSpec d;
    apply(d);
    return d.type == DeviceType::Cuda ? int(d.ids.size()) : cpuRanks_->value();
}

void DevicePicker::onItemChanged(QListWidgetItem* changedItem)
{
    if (updating_)
        return;
    updating_ = true;
    {
        // The CPU or GPUs, not both: checking one kind clears the other; nothing checked means the CPU.
        const QSignalBlocker block(list_);
        const QString kind = changedItem->data(kKindRole).toString();
        if (changedItem->checkState() == Qt::Checked) {
            for (int i = 0; i < list_->count(); ++i)
                if (list_->item(i)->data(kKindRole).toString() != kind)
                    list_->item(i)->setCheckState(Qt::Unchecked);
        }
        bool any = false;
        for (int i = 0; i < list_->count(); ++i)
            any = any || list_->item(i)->checkState() == Qt::Checked;
        if (!any)
            for (int i = 0; i < list_->count(); ++i)
                if (list_->item(i)->data(kKindRole).toString() == QStringLiteral("cpu"))
                    list_->item(i)->setCheckState(Qt::Checked);
    }
    updating_ = false;
    retranslate();
    Q_EMIT changed();
}

void DevicePicker::retranslate()
{
    list_->setAccessibleName(tr("Devices to train on"));
    for (int i = 0; i < list_->count() && i < int(devices_.size()); ++i) {
        const ComputeDevice& d = devices_[size_t(i)];
        if (d.type == "cpu")
            list_->item(i)->setText(tr("CPU"));
        else
            list_->item(i)->setText(tr("cuda:%1 — %2 (%3 GiB)")
                                        .arg(d.index)
                                        .arg(QString::fromStdString(d.name))
                                        .arg(double(d.memoryBytes) / double(1LL << 30), 0, 'f', 1));
    }
    DeviceSpec spec;
    apply(spec);
    const bool cpu = spec.type == DeviceType::Cpu;
    cpuRanks_->setEnabled(cpu);
    cpuRanksLabel_->setEnabled(cpu);
    cpuRanksLabel_->setText(tr("CPU processes:"));
    cpuRanks_->setToolTip(tr("Several processes train data-parallel (Gloo), each on its share of the cores and of "
                             "every batch; the batch size is per process."));
    const int n = ranks();
    summary_->setText(n > 1 ? tr("Data-parallel: %n processes, each with its own batch of the set size.", nullptr, n)
                            : tr("One process."));
}

void DevicePicker::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

} // namespace entrena::ui
