#include "panels/RunConfigPanel.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QStackedWidget>
#include <QToolButton>
#include <QVBoxLayout>

#include <cmath>

namespace entrena::ui {
namespace {

QDoubleSpinBox* doubleBox(double lo, double hi, int decimals, double step)
{
    auto* b = new QDoubleSpinBox;
    b->setRange(lo, hi);
    b->setDecimals(decimals);
    b->setSingleStep(step);
    return b;
}

QSpinBox* intBox(int lo, int hi)
{
    auto* b = new QSpinBox;
    b->setRange(lo, hi);
    return b;
}

void select(QComboBox* box, const std::string& value)
{
    const int i = box->findData(QString::fromStdString(value));
    if (i >= 0)
        box->setCurrentIndex(i);
}

std::string selected(const QComboBox* box) { return box->currentData().toString().toStdString(); }

// Scheduler pages of the stacked parameter widget, in this order.
const char* const kSchedulers[] = {"constant", "step", "exponential", "cosine", "reduce_on_plateau"};

QWidget* page(std::initializer_list<std::pair<QLabel*, QWidget*>> rows)
{
    auto* w = new QWidget;
    auto* f = new QFormLayout(w);
    f->setContentsMargins(0, 0, 0, 0);
    for (const auto& [label, field] : rows)
        f->addRow(label, field);
    return w;
}

} // namespace

RunConfigPanel::RunConfigPanel(QWidget* parent) : QWidget(parent)
{
    name_ = new QLineEdit;
    dataset_ = new QComboBox;
    dataset_->addItem(QString(), QStringLiteral("fashion-mnist"));
    dataset_->addItem(QString(), QStringLiteral("mnist"));
    dataset_->addItem(QString(), QStringLiteral("synthetic"));
    dataPath_ = new QLineEdit;
    browse_ = new QToolButton;
    auto* pathRow = new QHBoxLayout;
    pathRow->addWidget(dataPath_);
    pathRow->addWidget(browse_);

    arch_ = new QComboBox;
    arch_->addItem(QString(), QStringLiteral("mlp"));
    arch_->addItem(QString(), QStringLiteral("cnn"));

    optimizer_ = new QComboBox;
    optimizer_->addItem(QStringLiteral("SGD"), QStringLiteral("sgd"));
    optimizer_->addItem(QStringLiteral("Adam"), QStringLiteral("adam"));
    lr_ = doubleBox(0.000001, 10.0, 6, 0.001);
    momentum_ = doubleBox(0.0, 0.999, 3, 0.05);
    weightDecay_ = doubleBox(0.0, 1.0, 6, 0.0001);

    scheduler_ = new QComboBox;
    for (const char* s : kSchedulers)
        scheduler_->addItem(QString(), QString::fromLatin1(s));
    stepSize_ = intBox(1, 100000);
    stepGamma_ = doubleBox(0.0, 1.0, 4, 0.05);
    expGamma_ = doubleBox(0.0, 1.0, 4, 0.01);
    tMax_ = intBox(0, 100000);
    etaMin_ = doubleBox(0.0, 10.0, 6, 0.0001);
    factor_ = doubleBox(0.01, 0.99, 3, 0.05);
    patience_ = intBox(0, 1000);
    constantNote_ = new QLabel;
    stepSizeLabel_ = new QLabel;
    stepGammaLabel_ = new QLabel;
    expGammaLabel_ = new QLabel;
    tMaxLabel_ = new QLabel;
    etaMinLabel_ = new QLabel;
    factorLabel_ = new QLabel;
    patienceLabel_ = new QLabel;
    schedParams_ = new QStackedWidget;
    schedParams_->addWidget(page({{nullptr, constantNote_}}));
    schedParams_->addWidget(page({{stepSizeLabel_, stepSize_}, {stepGammaLabel_, stepGamma_}}));
    schedParams_->addWidget(page({{expGammaLabel_, expGamma_}}));
    schedParams_->addWidget(page({{tMaxLabel_, tMax_}, {etaMinLabel_, etaMin_}}));
    schedParams_->addWidget(page({{factorLabel_, factor_}, {patienceLabel_, patience_}}));

    batchSize_ = intBox(1, 65536);
    epochs_ = intBox(1, 100000);
    device_ = new QComboBox;
    threads_ = intBox(0, 1024);

    dataBox_ = new QGroupBox;
    dataForm_ = new QFormLayout(dataBox_);
    dataForm_->addRow(new QLabel, name_);
    dataForm_->addRow(new QLabel, dataset_);
    dataForm_->addRow(new QLabel, pathRow);
    dataForm_->addRow(new QLabel, batchSize_);

    modelBox_ = new QGroupBox;
    modelForm_ = new QFormLayout(modelBox_);
    modelForm_->addRow(new QLabel, arch_);

    optimBox_ = new QGroupBox;
    optimForm_ = new QFormLayout(optimBox_);
    optimForm_->addRow(new QLabel, optimizer_);
    optimForm_->addRow(new QLabel, lr_);
    optimForm_->addRow(new QLabel, momentum_);
    optimForm_->addRow(new QLabel, weightDecay_);

    schedBox_ = new QGroupBox;
    schedForm_ = new QFormLayout(schedBox_);
    schedForm_->addRow(new QLabel, scheduler_);
    schedForm_->addRow(schedParams_);

    trainBox_ = new QGroupBox;
    trainForm_ = new QFormLayout(trainBox_);
    trainForm_->addRow(new QLabel, epochs_);
    trainForm_->addRow(new QLabel, device_);
    trainForm_->addRow(new QLabel, threads_);

    start_ = new QPushButton;
    start_->setObjectName(QStringLiteral("startButton"));
    start_->setDefault(true);
    stop_ = new QPushButton;
    stop_->setObjectName(QStringLiteral("stopButton"));
    stop_->setEnabled(false);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(start_);
    buttons->addWidget(stop_);

    auto* layout = new QVBoxLayout(this);
    for (QWidget* w : {static_cast<QWidget*>(dataBox_), static_cast<QWidget*>(modelBox_),
                       static_cast<QWidget*>(optimBox_), static_cast<QWidget*>(schedBox_),
                       static_cast<QWidget*>(trainBox_)})
        layout->addWidget(w);
    layout->addStretch(1);
    layout->addLayout(buttons);

    connect(start_, &QPushButton::clicked, this, &RunConfigPanel::startRequested);
    connect(stop_, &QPushButton::clicked, this, &RunConfigPanel::stopRequested);
    connect(browse_, &QToolButton::clicked, this, &RunConfigPanel::browseDataFolder);
    connect(scheduler_, &QComboBox::currentIndexChanged, this, &RunConfigPanel::updateVisibility);
    connect(optimizer_, &QComboBox::currentIndexChanged, this, &RunConfigPanel::updateVisibility);
    connect(dataset_, &QComboBox::currentIndexChanged, this, &RunConfigPanel::updateVisibility);

    setDevices({ComputeDevice{"cpu", 0, {}, 0, {}}});
    retranslate();
    setConfig(RunConfig{});
}

void RunConfigPanel::retranslate()
{
    dataBox_->setTitle(tr("Data"));
    modelBox_->setTitle(tr("Model"));
    optimBox_->setTitle(tr("Optimizer"));
    schedBox_->setTitle(tr("Learning-rate schedule"));
    trainBox_->setTitle(tr("Training"));
    auto label = [](QFormLayout* form, QWidget* field, const QString& text) {
        if (auto* l = qobject_cast<QLabel*>(form->labelForField(field)))
            l->setText(text);
    };
    label(dataForm_, name_, tr("Run name:"));
    label(dataForm_, dataset_, tr("Data set:"));
    if (auto* l = qobject_cast<QLabel*>(dataForm_->itemAt(2, QFormLayout::LabelRole)->widget()))
        l->setText(tr("Folder:"));
    label(dataForm_, batchSize_, tr("Batch size:"));
    label(modelForm_, arch_, tr("Architecture:"));
    label(optimForm_, optimizer_, tr("Algorithm:"));
    label(optimForm_, lr_, tr("Learning rate:"));
    label(optimForm_, momentum_, tr("Momentum:"));
    label(optimForm_, weightDecay_, tr("Weight decay:"));
    label(schedForm_, scheduler_, tr("Schedule:"));
    label(trainForm_, epochs_, tr("Epochs:"));
    label(trainForm_, device_, tr("Device:"));
    label(trainForm_, threads_, tr("CPU threads:"));
    dataset_->setItemText(0, tr("Fashion-MNIST"));
    dataset_->setItemText(1, tr("MNIST"));
    dataset_->setItemText(2, tr("Synthetic (no files)"));
    arch_->setItemText(0, tr("MLP (fully connected)"));
    arch_->setItemText(1, tr("CNN (convolutional)"));
    scheduler_->setItemText(0, tr("Constant"));
    scheduler_->setItemText(1, tr("Step"));
    scheduler_->setItemText(2, tr("Exponential"));
    scheduler_->setItemText(3, tr("Cosine"));
    scheduler_->setItemText(4, tr("Reduce on plateau"));
    constantNote_->setText(tr("The learning rate stays as set."));
    stepSizeLabel_->setText(tr("Every (epochs):"));
    stepGammaLabel_->setText(tr("Multiply by:"));
    expGammaLabel_->setText(tr("Per epoch multiply by:"));
    tMaxLabel_->setText(tr("Period (epochs):"));
    etaMinLabel_->setText(tr("Minimum rate:"));
    factorLabel_->setText(tr("Multiply by:"));
    patienceLabel_->setText(tr("Patience (epochs):"));
    tMax_->setSpecialValueText(tr("whole run"));
    threads_->setSpecialValueText(tr("automatic"));
    browse_->setText(tr("Browse…"));
    browse_->setToolTip(tr("Choose the folder holding the data set's files"));
    start_->setText(tr("Start"));
    stop_->setText(tr("Stop"));
    for (int i = 0; i < device_->count(); ++i) {
        const QString id = device_->itemData(i).toString();
        if (id == QStringLiteral("cpu"))
            device_->setItemText(i, tr("CPU"));
    }
}

void RunConfigPanel::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

void RunConfigPanel::setDevices(const std::vector<ComputeDevice>& devices)
{
    device_->clear();
    for (const auto& d : devices) {
        if (d.type == "cpu")
            device_->addItem(tr("CPU"), QStringLiteral("cpu"));
        else
            device_->addItem(QStringLiteral("cuda:%1 — %2").arg(d.index).arg(QString::fromStdString(d.name)),
                             QStringLiteral("cuda:%1").arg(d.index));
    }
}

void RunConfigPanel::updateVisibility()
{
    schedParams_->setCurrentIndex(scheduler_->currentIndex());
    const bool sgd = selected(optimizer_) == "sgd";
    momentum_->setEnabled(sgd);
    const bool files = selected(dataset_) != "synthetic";
    dataPath_->setEnabled(files);
    browse_->setEnabled(files);
}

void RunConfigPanel::browseDataFolder()
{
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Data set folder"), dataPath_->text());
    if (!dir.isEmpty())
        dataPath_->setText(dir);
}

void RunConfigPanel::setConfig(const RunConfig& c)
{
    base_ = c;
    name_->setText(QString::fromStdString(c.name));
    select(dataset_, c.data.dataset);
    dataPath_->setText(QString::fromStdString(c.data.path));
    batchSize_->setValue(int(c.data.batchSize));
    select(arch_, c.model.arch);
    select(optimizer_, c.optimizer.name);
    lr_->setValue(c.optimizer.lr);
    momentum_->setValue(c.optimizer.momentum);
    weightDecay_->setValue(c.optimizer.weightDecay);
    select(scheduler_, c.scheduler.name);
    stepSize_->setValue(int(c.scheduler.stepSize));
    stepGamma_->setValue(c.scheduler.gamma);
    expGamma_->setValue(c.scheduler.name == "exponential" ? c.scheduler.gamma : 0.95);
    tMax_->setValue(int(c.scheduler.tMax));
    etaMin_->setValue(c.scheduler.etaMin);
    factor_->setValue(c.scheduler.factor);
    patience_->setValue(int(c.scheduler.patience));
    epochs_->setValue(c.train.epochs);
    threads_->setValue(c.devices.threads);
    const QString device = c.devices.type == "cuda"
                               ? QStringLiteral("cuda:%1").arg(c.devices.ids.empty() ? 0 : c.devices.ids.front())
                               : QStringLiteral("cpu");
    const int di = device_->findData(device);
    device_->setCurrentIndex(di >= 0 ? di : 0);
    updateVisibility();
}

RunConfig RunConfigPanel::config() const
{
    RunConfig c = base_;
    c.name = name_->text().trimmed().toStdString();
    c.data.dataset = selected(dataset_);
    c.data.path = dataPath_->text().trimmed().toStdString();
    c.data.batchSize = batchSize_->value();
    c.model.arch = selected(arch_);
    const std::string optimizer = selected(optimizer_);
    if (optimizer != c.optimizer.name && optimizer == "sgd")
        c.optimizer.nesterov = false; // switched from Adam: plain momentum unless the user asks
    c.optimizer.name = optimizer;
    c.optimizer.lr = lr_->value();
    c.optimizer.momentum = momentum_->value();
    c.optimizer.weightDecay = weightDecay_->value();
    if (c.optimizer.nesterov && c.optimizer.momentum <= 0)
        c.optimizer.nesterov = false;
    c.scheduler.name = selected(scheduler_);
    if (c.scheduler.name == "step") {
        c.scheduler.stepSize = stepSize_->value();
        c.scheduler.gamma = stepGamma_->value();
    } else if (c.scheduler.name == "exponential") {
        c.scheduler.gamma = expGamma_->value();
    } else if (c.scheduler.name == "cosine") {
        c.scheduler.tMax = tMax_->value();
        c.scheduler.etaMin = etaMin_->value();
    } else if (c.scheduler.name == "reduce_on_plateau") {
        c.scheduler.factor = factor_->value();
        c.scheduler.patience = patience_->value();
    }
    c.train.epochs = epochs_->value();
    c.devices.threads = threads_->value();
    const QString device = device_->currentData().toString();
    if (device.startsWith(QStringLiteral("cuda:"))) {
        c.devices.type = "cuda";
        c.devices.ids = {device.mid(5).toLongLong()};
    } else {
        c.devices.type = "cpu";
        c.devices.ids.clear();
    }
    return c;
}

void RunConfigPanel::setRunning(bool running)
{
    for (QWidget* w : {static_cast<QWidget*>(dataBox_), static_cast<QWidget*>(modelBox_),
                       static_cast<QWidget*>(optimBox_), static_cast<QWidget*>(schedBox_),
                       static_cast<QWidget*>(trainBox_)})
        w->setEnabled(!running);
    start_->setEnabled(!running);
    stop_->setEnabled(running);
}

} // namespace entrena::ui
