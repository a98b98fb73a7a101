#include "experiment/SweepDialog.h"

#include "RunTableModel.h"
#include "entrena/experiment/CrossValidation.h"
#include "entrena/store/RunStore.h"
#include "entrena/system/Runtime.h"
#include "experiment/CrossValidationDialog.h"
#include "experiment/ExperimentView.h"
#include "experiment/SweepKeys.h"
#include "experiment/SweepRunner.h"
#include "experiment/SweepSpaceEditor.h"
#include "widgets/ScreenFit.h"
#include "entrena/experiment/MetricRegistry.h"

#include <QComboBox>
#include <QEvent>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>
#include <algorithm>

namespace entrena::ui {

void SweepDialog::setUpFields()
{
    intro_->setWordWrap(true);
    const SweepSettings defaults;
    for (const SweepMethodEntry& m : sweepMethodRegistry())
        method_->addItem(QString(), QString::fromLatin1(m.name));
    method_->setCurrentIndex(std::max(0, method_->findData(QString::fromStdString(defaults.method))));
    method_->setObjectName(QStringLiteral("sweepMethod"));
    methodNote_->setWordWrap(true);
    methodNote_->setObjectName(QStringLiteral("sweepMethodNote"));
    trials_->setRange(1, 10000);
    trials_->setValue(10);
    trials_->setObjectName(QStringLiteral("sweepTrials"));
    parallel_->setRange(1, cores_);
    parallel_->setObjectName(QStringLiteral("sweepParallel"));
    for (const MetricEntry& m : metricRegistry())
        metric_->addItem(QString(), QString::fromLatin1(m.name));
    metric_->setObjectName(QStringLiteral("sweepMetric"));
    seed_->setRange(0, 1'000'000'000);
    seed_->setValue(int(defaults.seed));
    for (const int folds : {0, 2, 3, 5, 10})
        cv_->addItem(QString(), folds);
    cv_->setObjectName(QStringLiteral("sweepCv"));
}

// The space's rows beside the method and its settings.
QHBoxLayout* SweepDialog::methodAndSpace()
{
    methodBox_->setLayout(methodForm_);
    methodBox_->setMaximumWidth(400); // the rows of the space take the rest
    for (QWidget* w : std::initializer_list<QWidget*>{method_, methodNote_, trials_, parallel_, metric_, name_, seed_, cv_})
        methodForm_->addRow(w == methodNote_ ? nullptr : new QLabel, w);
    addMethodRows();
    auto* spaceLayout = new QVBoxLayout(spaceBox_);
    spaceLayout->addWidget(space_);
    auto* middle = new QHBoxLayout;
    middle->addWidget(spaceBox_, 1);
    middle->addWidget(methodBox_);
    return middle;
}

void SweepDialog::setUpProgress()
{
    problemLabel_->setObjectName(QStringLiteral("sweepProblem"));
    problemLabel_->setWordWrap(true);
    problemLabel_->setStyleSheet(QStringLiteral("color: #d33f3f; font-weight: bold;"));
    problemLabel_->setVisible(false);

    progress_->setObjectName(QStringLiteral("sweepProgress"));
    log_->setObjectName(QStringLiteral("sweepLog"));
    log_->setReadOnly(true);
    log_->setMaximumBlockCount(2000);
    log_->setFixedHeight(log_->fontMetrics().lineSpacing() * 5 + 12);
    auto* progressLayout = new QVBoxLayout(progressBox_);
    auto* progressRow = new QHBoxLayout;
    progressRow->addWidget(progress_, 1);
    progressRow->addWidget(status_, 2);
    progressLayout->addLayout(progressRow);
    progressLayout->addWidget(log_);
    progressBox_->setVisible(false);
}

QHBoxLayout* SweepDialog::buttonRow()
{
    start_->setObjectName(QStringLiteral("startSweepButton"));
    start_->setDefault(true);
    open_->setObjectName(QStringLiteral("openExperimentFromSweep"));
    open_->setEnabled(false);
    resume_->setObjectName(QStringLiteral("resumeSweepButton"));
    resume_->setVisible(false);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(open_);
    buttons->addStretch(1);
    buttons->addWidget(resume_);
    buttons->addWidget(start_);
    buttons->addWidget(close_);
    return buttons;
}

// Every field rechecks the sweep; the buttons start, stop, close and open.
void SweepDialog::connectFields()
{
    connect(space_, &SweepSpaceEditor::changed, this, &SweepDialog::check);
    connect(method_, &QComboBox::currentIndexChanged, this, [this] {
        updateMethodRows();
        check();
    });
    for (QSpinBox* s : {trials_, parallel_, seed_})
        connect(s, &QSpinBox::valueChanged, this, &SweepDialog::check);
    for (const MethodRow& row : methodRows_)
        onKeyValueChanged(row.field.widget, this, [this] { check(); });
    connect(metric_, &QComboBox::currentIndexChanged, this, &SweepDialog::check);
    connect(cv_, &QComboBox::currentIndexChanged, this, &SweepDialog::check);
    connect(name_, &QLineEdit::textChanged, this, &SweepDialog::check);
    connect(start_, &QPushButton::clicked, this, [this] {
        if (isRunning())
            stop();
        else
            start();
    });
    connect(close_, &QPushButton::clicked, this, &QDialog::reject); // a running sweep goes on; the dialog shows it again
    connect(open_, &QPushButton::clicked, this, [this] {
        if (experimentId() > 0)
            Q_EMIT openExperimentRequested(experimentId());
    });
}

// What the running sweep reports: its news, its end, a stop, a failure.
void SweepDialog::connectRunner()
{
    connect(runner_, &SweepRunner::news, this, &SweepDialog::onNews);
    connect(runner_, &SweepRunner::finished, this, [this](const SweepResult& r) {
        setRunning(false);
        QString line = tr("Experiment %1 %2: %3 trials (%4 pruned, %5 failed).")
                           .arg(r.experiment)
                           .arg(ExperimentView::experimentStatusText(QString::fromStdString(r.status)))
                           .arg(r.trials)
                           .arg(r.pruned)
                           .arg(r.failed);
        if (r.bestMetric && cvFolds_ > 0)
            line += QLatin1Char(' ') + tr("Best: the trial whose first fold is run %1, %2 over its %n folds.", nullptr, cvFolds_)
                                           .arg(r.bestRun)
                                           .arg(metricText(*r.bestMetric));
        else if (r.bestMetric)
            line += QLatin1Char(' ') + tr("Best: run %1, %2.").arg(r.bestRun).arg(metricText(*r.bestMetric));
        status_->setText(line);
        note(line);
        Q_EMIT sweepEnded(r.experiment);
    });
    connect(runner_, &SweepRunner::stopped, this, [this](qint64 experiment) {
        stopped_ = experiment;
        setRunning(false);
        const QString line = tr("Stopped. The trials saved checkpoints; Resume sweep continues experiment %1 (as "
                                "`entrena-cli sweep --resume %1` does).")
                                 .arg(experiment);
        status_->setText(tr("Stopped."));
        note(line);
        Q_EMIT sweepEnded(experiment);
    });
    connect(runner_, &SweepRunner::failed, this, [this](const QString& message) {
        setRunning(false);
        status_->setText(tr("The sweep failed."));
        note(tr("The sweep failed: %1").arg(message));
        Q_EMIT sweepEnded(experimentId());
    });
}

SweepDialog::SweepDialog(const RunConfig& base, const QString& dbPath, const QString& program, QWidget* parent)
    : QDialog(parent)
    , dbPath_(dbPath)
    , program_(program)
    , cores_(std::max(1, physicalCoreCount()))
    , runner_(new SweepRunner(this))
    , intro_(new QLabel)
    , spaceBox_(new QGroupBox)
    , space_(new SweepSpaceEditor)
    , methodBox_(new QGroupBox)
    , methodForm_(new QFormLayout)
    , method_(new QComboBox)
    , methodNote_(new QLabel)
    , trials_(new QSpinBox)
    , parallel_(new QSpinBox)
    , metric_(new QComboBox)
    , name_(new QLineEdit)
    , seed_(new QSpinBox)
    , cv_(new QComboBox)
    , problemLabel_(new QLabel)
    , progressBox_(new QGroupBox)
    , progress_(new QProgressBar)
    , status_(new QLabel)
    , log_(new QPlainTextEdit)
    , open_(new QPushButton)
    , resume_(new QPushButton)
    , start_(new QPushButton)
    , close_(new QPushButton)
{
    setObjectName(QStringLiteral("sweepDialog"));
    sizeToScreen(this, QSize(1180, 640));
    setUpFields();
    auto* middle = methodAndSpace();
    setUpProgress();
    auto* buttons = buttonRow();
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro_);
    layout->addLayout(middle, 1);
    layout->addWidget(problemLabel_);
    layout->addWidget(progressBox_);
    layout->addLayout(buttons);

    connectFields();
    connectRunner();
    retranslate();
    setBase(base);
    // A first row to edit: the learning rate, the parameter searched most.
    space_->addParameter(QStringLiteral("optimizer.lr"));
    updateMethodRows();
    check();
}

SweepDialog::~SweepDialog() = default;

void SweepDialog::addMethodRows()
{
    const SweepSettings defaults;
    for (const SweepMethodEntry& m : sweepMethodRegistry())
        for (const auto& k : m.keys) {
            MethodRow row{&m, KeyField<SweepSettings>::make(k)};
            row.field.widget->setObjectName(QStringLiteral("sweep.") + QString::fromLatin1(k.key));
            row.field.load(defaults);
            methodForm_->addRow(new QLabel, row.field.widget);
            methodRows_.push_back(std::move(row));
        }
}

void SweepDialog::setBase(const RunConfig& base)
{
    if (isRunning())
        return;
    base_ = base;
    space_->setKeys(sweepableKeys(base_));
    retranslate(); // the introduction names the configuration
    check();
}

void SweepDialog::setMethod(const QString& method)
{
    method_->setCurrentIndex(std::max(0, method_->findData(method)));
}

void SweepDialog::setTrials(int trials)
{
    trials_->setValue(trials);
}

void SweepDialog::setParallel(int parallel)
{
    parallel_->setValue(parallel);
}

void SweepDialog::setMetric(const QString& metric)
{
    metric_->setCurrentIndex(std::max(0, metric_->findData(metric)));
}

SweepSettings SweepDialog::settings() const
{
    SweepSettings s;
    s.method = method_->currentData().toString().toStdString();
    const SweepMethodEntry* chosen = findSweepMethod(s.method);
    s.trials = chosen && chosen->everyCombination ? 0 : trials_->value();
    s.parallel = parallel_->value();
    s.metric = metric_->currentData().toString().toStdString();
    s.name = name_->text().trimmed().toStdString();
    s.seed = uint64_t(seed_->value());
    s.cv = cv_->currentData().toInt();
    for (const MethodRow& row : methodRows_)
        row.field.store(s);
    return s;
}

void SweepDialog::check()
{
    QString problem;
    const QString space = space_->spaceJson(&problem);
    if (problem.isEmpty()) {
        try {
            planSweep(base_, space.toStdString(), settings(), cores_);
        } catch (const std::exception& e) { // SpaceError, ConfigError: the message names the key
            problem = QString::fromStdString(e.what());
        }
    }
    problem_ = problem;
    problemLabel_->setText(problem);
    problemLabel_->setVisible(!problem.isEmpty() && !isRunning());
    start_->setEnabled(isRunning() || problem.isEmpty());
    start_->setToolTip(problem.isEmpty() ? QString() : tr("Fix the sweep first: %1").arg(problem));
}

void SweepDialog::updateMethodRows()
{
    const QString m = method_->currentData().toString();
    const SweepMethodEntry* chosen = findSweepMethod(m.toStdString());
    methodForm_->setRowVisible(trials_, !chosen || !chosen->everyCombination);
    for (const MethodRow& row : methodRows_)
        methodForm_->setRowVisible(row.field.widget, row.method == chosen);
    name_->setPlaceholderText(QString::fromStdString(base_.name) + QLatin1Char('-') + m);
    retranslate(); // the method's note
}

bool SweepDialog::isRunning() const
{
    return runner_->isRunning();
}

qint64 SweepDialog::experimentId() const
{
    return runner_->experiment() > 0 ? runner_->experiment() : experiment_;
}

bool SweepDialog::start()
{
    check();
    if (isRunning() || !problem_.isEmpty())
        return false;
    SweepPlan plan;
    try {
        plan = planSweep(base_, space_->spaceJson().toStdString(), settings(), cores_);
        if (plan.settings.cv > 0)
            checkCrossValidationData(plan.base); // too many folds for a class is said before anything is stored
    } catch (const std::exception& e) {
        problem_ = CrossValidationDialog::foldProblemText(plan.base, QString::fromStdString(e.what()));
        problemLabel_->setText(problem_);
        problemLabel_->setVisible(true);
        return false;
    }
    const SweepLaunch launch{program_.toStdString(), QFileInfo(dbPath_).absoluteFilePath().toStdString(), cores_, {}};
    if (!runner_->start(plan, launch))
        return false;
    experiment_ = 0;
    stopped_ = 0;
    ended_ = 0;
    cvFolds_ = plan.settings.cv;
    stopRequested_ = false;
    log_->clear();
    progress_->setRange(0, plan.settings.trials);
    progress_->setValue(0);
    status_->setText(tr("Starting…"));
    setRunning(true);
    return true;
}

bool SweepDialog::resume(qint64 experiment)
{
    const SweepLaunch launch{program_.toStdString(), QFileInfo(dbPath_).absoluteFilePath().toStdString(), cores_, {}};
    if (experiment <= 0 || isRunning())
        return false;
    int done = 0;
    try {
        RunStore store(launch.dbPath);
        if (const auto e = store.findExperiment(std::to_string(experiment))) {
            setMetric(QString::fromStdString(e->metric)); // how its values are shown
            cvFolds_ = summarizeTrials(store, *e).trialFolds;
        }
        for (const RunRecord& r : store.trialsOf(experiment))
            done += r.status != RunStatus::Running && r.status != RunStatus::Stopped && r.status != RunStatus::Interrupted;
    } catch (const std::exception& e) {
        note(tr("Cannot resume experiment %1: %2").arg(experiment).arg(QString::fromStdString(e.what())));
        return false;
    }
    if (!runner_->resume(experiment, launch))
        return false;
    experiment_ = experiment;
    stopped_ = 0;
    ended_ = done; // the trials that ended before the stop count towards the progress
    stopRequested_ = false;
    log_->clear();
    note(tr("Resuming experiment %1: %2 of its trials had ended.").arg(experiment).arg(done));
    status_->setText(tr("Resuming…"));
    setRunning(true);
    return true;
}

void SweepDialog::stop()
{
    if (!isRunning())
        return;
    stopRequested_ = true;
    runner_->stop();
    status_->setText(tr("Stopping: each trial ends its step and saves a checkpoint…"));
    start_->setEnabled(false);
}

void SweepDialog::setRunning(bool running)
{
    spaceBox_->setEnabled(!running);
    methodBox_->setEnabled(!running);
    progressBox_->setVisible(true);
    start_->setText(running ? tr("Stop sweep") : tr("Start sweep"));
    if (!running)
        experiment_ = std::max(experiment_, runner_->experiment());
    open_->setEnabled(experimentId() > 0);
    resume_->setVisible(!running && stopped_ > 0);
    check();
}

void SweepDialog::onNews(const SweepNews& n)
{
    switch (n.kind) {
    case SweepNews::Kind::SweepStart:
        experiment_ = n.experiment;
        open_->setEnabled(true);
        progress_->setRange(0, n.trials);
        note(tr("Experiment %1: %2, %3 trials.").arg(n.experiment).arg(n.text).arg(n.trials));
        break;
    case SweepNews::Kind::TrialStart:
        note(tr("Trial %1 (run %2) started: %3").arg(n.trial).arg(n.runId).arg(n.text));
        Q_EMIT trialStarted(n.runId);
        break;
    case SweepNews::Kind::TrialEnd: {
        progress_->setValue(++ended_);
        QString line = (n.epochs == 1 ? tr("Trial %1 (run %2) %3 after one epoch") : tr("Trial %1 (run %2) %3 after %4 epochs"))
                           .arg(n.trial)
                           .arg(n.runId)
                           .arg(app::RunTableModel::statusText(n.status));
        if (n.epochs != 1)
            line = line.arg(n.epochs);
        if (n.hasMetric && cvFolds_ > 0) // the trial's value: its folds' mean, not that one run's
            line += QStringLiteral(": ") + tr("%1, the mean of its %n folds", nullptr, cvFolds_).arg(metricText(n.metric));
        else if (n.hasMetric)
            line += QStringLiteral(": %1").arg(metricText(n.metric));
        note(line);
        Q_EMIT trialEnded(n.runId);
        break;
    }
    case SweepNews::Kind::Exploit:
        note(tr("Trial %1 (run %2) copied run %3 at step %4: %5")
                 .arg(n.trial)
                 .arg(n.runId)
                 .arg(n.sourceRun)
                 .arg(n.step)
                 .arg(n.text));
        break;
    case SweepNews::Kind::TrialError: note(tr("Trial %1: %2").arg(n.trial).arg(n.text)); break;
    }
    if (n.kind != SweepNews::Kind::TrialError)
        status_->setText(tr("%1 of %2 trials ended.").arg(ended_).arg(progress_->maximum()));
}

QString SweepDialog::metricText(double value) const
{
    const QLocale locale;
    const MetricEntry& m = metricOrDefault(metric_->currentData().toString().toStdString());
    const QString name = registryText(m.label).toLower();
    return m.percent ? tr("%1 %2 %").arg(name, locale.toString(100.0 * value, 'f', 2))
                     : tr("%1 %2").arg(name, locale.toString(value, 'f', 4));
}

void SweepDialog::note(const QString& line)
{
    log_->appendPlainText(line);
}

QString SweepDialog::log() const
{
    return log_->toPlainText();
}

bool SweepDialog::confirmClose()
{
    if (!isRunning() || stopRequested_)
        return true;
    const auto answer = QMessageBox::question(
        this, tr("A sweep is running"),
        tr("Stop the sweep and quit? Its trials save checkpoints; Resume sweep in its experiment's window (or "
           "`entrena-cli sweep --resume %1`) continues it.")
            .arg(experimentId()));
    if (answer != QMessageBox::Yes)
        return false;
    stop();
    return true;
}

void SweepDialog::retranslate()
{
    setWindowTitle(tr("Sweep"));
    intro_->setText(tr("Each trial is a run of the form's configuration “%1” with the values below, trained by entrena-cli "
                       "and kept in the store like any run.")
                        .arg(QString::fromStdString(base_.name)));
    spaceBox_->setTitle(tr("Search space"));
    methodBox_->setTitle(tr("Method"));
    const auto label = [this](QWidget* field, const QString& text) {
        if (auto* l = qobject_cast<QLabel*>(methodForm_->labelForField(field)))
            l->setText(text);
    };
    label(method_, tr("Method:"));
    label(trials_, tr("Trials:"));
    label(parallel_, tr("At once:"));
    label(metric_, tr("Metric:"));
    label(name_, tr("Name:"));
    label(seed_, tr("Seed:"));
    label(cv_, tr("Cross-validate:"));
    cv_->setItemText(0, tr("No: one run a trial"));
    for (int i = 1; i < cv_->count(); ++i)
        cv_->setItemText(i, tr("Each trial on %n folds", nullptr, cv_->itemData(i).toInt()));
    // Rich text, so that Qt wraps it instead of a line across the screen.
    cv_->setToolTip(QStringLiteral("<p>%1</p>")
                        .arg(tr("Each trial trains once per fold and is valued by the folds' mean (ASHA prunes on it "
                                "too): steadier on a small data set, and that many times the work.")));
    for (const MethodRow& row : methodRows_) {
        label(row.field.widget, registryText(row.field.key->form.label));
        retranslateKeyWidget(row.field.widget, row.field.key->form);
    }
    const auto& methods = sweepMethodRegistry();
    for (int i = 0; i < int(methods.size()); ++i)
        method_->setItemText(i, registryText(methods[std::size_t(i)].label));
    for (int i = 0; i < metric_->count(); ++i)
        metric_->setItemText(i, registryText(metricRegistry()[std::size_t(i)].choice));
    parallel_->setToolTip(tr("Trials trained at once; each gets an equal share of the CPU cores (%1).").arg(cores_));
    const SweepMethodEntry* chosen = findSweepMethod(method_->currentData().toString().toStdString());
    methodNote_->setText(chosen ? registryText(chosen->hint) : QString());
    open_->setText(tr("Open experiment"));
    resume_->setText(tr("Resume sweep"));
    start_->setText(isRunning() ? tr("Stop sweep") : tr("Start sweep"));
    close_->setText(tr("Close"));
    progressBox_->setTitle(tr("Progress"));
    log_->setAccessibleName(tr("Sweep log"));
}

void SweepDialog::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QDialog::changeEvent(event);
}

} // namespace entrena::ui
