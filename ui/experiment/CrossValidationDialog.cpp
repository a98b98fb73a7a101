#include "experiment/CrossValidationDialog.h"

#include "entrena/store/RunStore.h"
#include "entrena/system/Runtime.h"
#include "experiment/ExperimentView.h"
#include "experiment/SweepRunner.h"
#include "widgets/ScreenFit.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QEvent>
#include <QFileInfo>
#include <QFormLayout>
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

CrossValidationDialog::CrossValidationDialog(const RunConfig& base, const QString& dbPath, const QString& program,
                                             QWidget* parent)
    : QDialog(parent)
    , base_(base)
    , dbPath_(dbPath)
    , program_(program)
    , cores_(std::max(1, physicalCoreCount()))
    , runner_(new SweepRunner(this))
    , intro_(new QLabel)
    , foldsLabel_(new QLabel)
    , folds_(new QSpinBox)
    , stratify_(new QCheckBox)
    , repeatLabel_(new QLabel)
    , repeat_(new QSpinBox)
    , parallelLabel_(new QLabel)
    , parallel_(new QSpinBox)
    , nameLabel_(new QLabel)
    , name_(new QLineEdit)
    , problem_(new QLabel)
    , progress_(new QProgressBar)
    , status_(new QLabel)
    , result_(new QLabel)
    , log_(new QPlainTextEdit)
    , start_(new QPushButton)
    , stop_(new QPushButton)
    , open_(new QPushButton)
    , close_(new QPushButton)
{
    setObjectName(QStringLiteral("crossValidationDialog"));
    sizeToScreen(this, QSize(720, 560));
    intro_->setWordWrap(true);
    folds_->setObjectName(QStringLiteral("cvFolds"));
    folds_->setRange(2, 50);
    folds_->setValue(5);
    stratify_->setObjectName(QStringLiteral("cvStratify"));
    stratify_->setChecked(true);
    repeat_->setRange(1, 20);
    parallel_->setObjectName(QStringLiteral("cvParallel"));
    parallel_->setRange(1, std::max(1, cores_));
    parallel_->setValue(std::min(2, cores_));
    problem_->setObjectName(QStringLiteral("cvProblem"));
    problem_->setWordWrap(true);
    problem_->setStyleSheet(QStringLiteral("color: #d33f3f;"));
    status_->setWordWrap(true);
    result_->setObjectName(QStringLiteral("cvResult"));
    result_->setWordWrap(true);
    result_->setTextFormat(Qt::RichText);
    log_->setReadOnly(true);
    log_->setMaximumBlockCount(2000);
    start_->setObjectName(QStringLiteral("cvStart"));
    stop_->setObjectName(QStringLiteral("cvStop"));
    open_->setObjectName(QStringLiteral("cvOpenExperiment"));
    start_->setDefault(true);
    stop_->setEnabled(false);
    open_->setEnabled(false);

    layOut();
    connectParts();
    retranslate();
    check();
}

CrossValidationDialog::~CrossValidationDialog() = default;

void CrossValidationDialog::layOut()
{
    auto* form = new QFormLayout;
    form->addRow(foldsLabel_, folds_);
    form->addRow(QString(), stratify_);
    form->addRow(repeatLabel_, repeat_);
    form->addRow(parallelLabel_, parallel_);
    form->addRow(nameLabel_, name_);
    auto* buttons = new QDialogButtonBox;
    buttons->addButton(start_, QDialogButtonBox::ActionRole);
    buttons->addButton(stop_, QDialogButtonBox::ActionRole);
    buttons->addButton(open_, QDialogButtonBox::ActionRole);
    buttons->addButton(close_, QDialogButtonBox::RejectRole);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro_);
    layout->addLayout(form);
    layout->addWidget(problem_);
    layout->addWidget(progress_);
    layout->addWidget(status_);
    layout->addWidget(result_);
    layout->addWidget(log_, 1);
    layout->addWidget(buttons);
}

void CrossValidationDialog::connectParts()
{
    connect(start_, &QPushButton::clicked, this, &CrossValidationDialog::start);
    connect(stop_, &QPushButton::clicked, this, &CrossValidationDialog::stop);
    connect(open_, &QPushButton::clicked, this, [this] { Q_EMIT openExperimentRequested(experimentId()); });
    connect(close_, &QPushButton::clicked, this, &QDialog::reject);
    for (QSpinBox* box : {folds_, repeat_, parallel_})
        connect(box, &QSpinBox::valueChanged, this, &CrossValidationDialog::check);
    connect(stratify_, &QCheckBox::toggled, this, &CrossValidationDialog::check);
    connect(runner_, &SweepRunner::news, this, &CrossValidationDialog::onNews);
    connect(runner_, &SweepRunner::finished, this, [this](const SweepResult& r) {
        setRunning(false);
        status_->setText(tr("Experiment %1 %2.")
                             .arg(r.experiment)
                             .arg(ExperimentView::experimentStatusText(QString::fromStdString(r.status))));
        showResult(r.experiment);
        Q_EMIT ended(r.experiment);
    });
    connect(runner_, &SweepRunner::stopped, this, [this](qint64 experiment) {
        setRunning(false);
        status_->setText(tr("Stopped. The finished folds are kept, and the others saved checkpoints: Resume sweep in "
                            "the experiment's window (or entrena-cli cv --resume %1) goes on with the same folds.")
                             .arg(experiment));
        showResult(experiment);
        Q_EMIT ended(experiment);
    });
    connect(runner_, &SweepRunner::failed, this, [this](const QString& message) {
        setRunning(false);
        status_->setText(tr("The cross-validation failed: %1").arg(message));
        Q_EMIT ended(experimentId());
    });
}

void CrossValidationDialog::setBase(const RunConfig& base)
{
    base_ = base;
    if (!isRunning()) { // the last result was of another configuration
        result_->clear();
        status_->clear();
        log_->clear();
        progress_->setValue(0);
        experiment_ = 0;
        open_->setEnabled(false);
    }
    retranslate();
    check();
}

CrossValidationSettings CrossValidationDialog::settings() const
{
    CrossValidationSettings s;
    s.folds = folds_->value();
    s.stratify = stratify_->isChecked();
    s.repeat = repeat_->value();
    s.parallel = parallel_->value();
    // The name shown is the name given: the placeholder, in the reader's language, when none is typed.
    const QString name = name_->text().trimmed();
    s.name = (name.isEmpty() ? name_->placeholderText() : name).toStdString();
    return s;
}

QString CrossValidationDialog::problem() const
{
    return problem_->text();
}

void CrossValidationDialog::check()
{
    QString problem;
    try {
        planCrossValidation(base_, settings(), cores_);
    } catch (const std::exception& e) {
        problem = QString::fromStdString(e.what());
    }
    problem_->setText(problem);
    problem_->setVisible(!problem.isEmpty());
    start_->setEnabled(problem.isEmpty() && !isRunning());
    // The name the store keeps, as entrena-cli cv gives it: a name is data, in one language for every
    // reader (a Spanish default made "bc 5 pliegues trial 0: fold=0" beside English words).
    name_->setPlaceholderText(QString::fromStdString(base_.name) + QStringLiteral(" %1-fold").arg(folds_->value()));
}

bool CrossValidationDialog::isRunning() const
{
    return runner_->isRunning();
}

qint64 CrossValidationDialog::experimentId() const
{
    return runner_->experiment() > 0 ? runner_->experiment() : experiment_;
}

QString CrossValidationDialog::resultText() const
{
    return result_->text();
}

QString CrossValidationDialog::foldProblemText(const RunConfig& folded, const QString& engineWords)
{
    if (folded.data.folds < 2 || !folded.data.stratify)
        return engineWords;
    const auto least = smallestClass(folded);
    if (!least || least->samples >= folded.data.folds)
        return engineWords; // another problem: the engine names it
    return tr("Too little data for %1 stratified folds: the class “%2” has only %n training sample(s), and every fold "
              "needs at least one of each class. Use fewer folds, or more training samples.",
              nullptr, int(least->samples))
        .arg(folded.data.folds)
        .arg(QString::fromStdString(least->name));
}

bool CrossValidationDialog::start()
{
    if (isRunning())
        return false;
    SweepPlan plan;
    try {
        plan = planCrossValidation(base_, settings(), cores_);
        // The folds of every class, and the balance mode, are checked on the data before anything is stored.
        checkCrossValidationData(plan.base);
    } catch (const std::exception& e) {
        problem_->setText(foldProblemText(plan.base.data.folds > 1 ? plan.base : base_, QString::fromStdString(e.what())));
        problem_->setVisible(true);
        return false;
    }
    const SweepLaunch launch{program_.toStdString(), QFileInfo(dbPath_).absoluteFilePath().toStdString(), cores_, {}};
    if (!runner_->start(plan, launch))
        return false;
    experiment_ = 0;
    ended_ = 0;
    log_->clear();
    result_->clear();
    progress_->setRange(0, plan.settings.trials);
    progress_->setValue(0);
    status_->setText(tr("Starting…"));
    setRunning(true);
    return true;
}

void CrossValidationDialog::stop()
{
    if (isRunning()) {
        status_->setText(tr("Stopping: each fold finishes its step and saves a checkpoint…"));
        runner_->stop();
    }
}

bool CrossValidationDialog::confirmClose()
{
    if (!isRunning())
        return true;
    const auto answer = QMessageBox::question(this, tr("A cross-validation is running"),
                                              tr("Stop the cross-validation and quit? Its folds save checkpoints; "
                                                 "Resume sweep in its experiment's window (or entrena-cli cv --resume "
                                                 "%1) continues it.")
                                                  .arg(experimentId()));
    if (answer != QMessageBox::Yes)
        return false;
    stop();
    return true;
}

void CrossValidationDialog::onNews(const SweepNews& n)
{
    const QLocale locale;
    switch (n.kind) {
    case SweepNews::Kind::SweepStart:
        experiment_ = n.experiment;
        status_->setText(tr("Experiment %1: %n fold run(s).", nullptr, n.trials).arg(n.experiment));
        break;
    case SweepNews::Kind::TrialStart:
        log_->appendPlainText(
            tr("Fold run %1 started (run %2): %3").arg(n.trial + 1).arg(n.runId).arg(n.text)); // from 1, as the folds
        Q_EMIT foldStarted(n.runId);
        break;
    case SweepNews::Kind::TrialEnd:
        progress_->setValue(++ended_);
        log_->appendPlainText(n.hasMetric
                                  ? tr("Fold run %1 (run %2) ended: best validation accuracy %3 %.")
                                        .arg(n.trial)
                                        .arg(n.runId)
                                        .arg(locale.toString(n.metric * 100.0, 'f', 2))
                                  : tr("Fold run %1 (run %2) ended without a validation accuracy.").arg(n.trial).arg(n.runId));
        Q_EMIT foldEnded(n.runId);
        break;
    case SweepNews::Kind::TrialError: log_->appendPlainText(n.text); break;
    case SweepNews::Kind::Exploit: break;
    }
}

void CrossValidationDialog::showResult(qint64 experiment)
{
    try {
        RunStore store(QFileInfo(dbPath_).absoluteFilePath().toStdString());
        const auto e = store.findExperiment(std::to_string(experiment));
        if (!e)
            return;
        const CrossValidationSummary s = summarizeCrossValidation(store, *e);
        const QLocale locale;
        const auto percent = [&locale](double v) { return locale.toString(v * 100.0, 'f', 2); };
        QString text = tr("%1 of %2 fold runs finished.").arg(s.finished).arg(s.expected());
        if (const FoldFigure* f = s.find("best_val_accuracy"))
            text += QStringLiteral("<br>") +
                    tr("Validation accuracy: <b>%1 % ± %2</b> (mean ± sd)").arg(percent(f->mean), percent(f->sd));
        if (const FoldFigure* f = s.find("test_accuracy"))
            text +=
                QStringLiteral("<br>") + tr("Test accuracy: <b>%1 % ± %2</b> (mean ± sd)").arg(percent(f->mean), percent(f->sd));
        text += recallText(s);
        result_->setText(text);
    } catch (const std::exception& e) {
        result_->setText(tr("Cannot read the result: %1").arg(QString::fromStdString(e.what()).toHtmlEscaped()));
    }
}

QString CrossValidationDialog::recallText(const CrossValidationSummary& s)
{
    // Each class's share found, which accuracy hides on unbalanced data: the mean over the classes
    // and, lowest first, each class's.
    const FoldFigure* macro = s.find("macro_recall");
    if (!macro)
        return {};
    const QLocale locale;
    const auto percent = [&locale](double v) { return locale.toString(v * 100.0, 'f', 1); };
    std::vector<const FoldFigure*> classes;
    for (const FoldFigure& f : s.figures)
        if (f.key.rfind("recall:", 0) == 0)
            classes.push_back(&f);
    std::sort(classes.begin(), classes.end(), [](const FoldFigure* a, const FoldFigure* b) { return a->mean < b->mean; });
    QStringList each;
    for (const FoldFigure* f : classes)
        each
            << tr("%1 %2 % ± %3").arg(QString::fromStdString(f->key.substr(7)).toHtmlEscaped(), percent(f->mean), percent(f->sd));
    return QStringLiteral("<br>") +
           tr("Recall, the classes' mean: <b>%1 % ± %2</b>").arg(percent(macro->mean), percent(macro->sd)) +
           QStringLiteral("<br>") + tr("Recall of each class, lowest first: %1").arg(each.join(QStringLiteral(", ")));
}

void CrossValidationDialog::setRunning(bool running)
{
    start_->setEnabled(!running && problem_->text().isEmpty());
    stop_->setEnabled(running);
    open_->setEnabled(experimentId() > 0);
    for (QWidget* w : std::initializer_list<QWidget*>{folds_, stratify_, repeat_, parallel_, name_})
        w->setEnabled(!running);
}

void CrossValidationDialog::retranslate()
{
    setWindowTitle(tr("Cross-validate"));
    intro_->setText(tr("The form's configuration “%1” is trained once per fold: the training data is dealt into folds, "
                       "and each fold in turn is held out for validation. Every fold is a run in the store; the "
                       "result is each figure's mean ± standard deviation over the folds, which tells runs apart "
                       "far better than one small validation split.")
                        .arg(QString::fromStdString(base_.name)));
    foldsLabel_->setText(tr("Folds:"));
    stratify_->setText(tr("Keep each class's share in every fold (stratified)"));
    repeatLabel_->setText(tr("Repeats:"));
    repeat_->setToolTip(tr("Each repeat uses the next seed, so it deals other folds"));
    parallelLabel_->setText(tr("Folds at once:"));
    parallel_->setToolTip(tr("The CPU's cores are divided among the folds that train at once"));
    nameLabel_->setText(tr("Name:"));
    // What a screen reader says of each field: the form's label, as a person reads it.
    for (const auto& [field, label] : {std::pair<QWidget*, QLabel*>{folds_, foldsLabel_},
                                       {repeat_, repeatLabel_},
                                       {parallel_, parallelLabel_},
                                       {name_, nameLabel_}})
        field->setAccessibleName(label->text().remove(QLatin1Char(':')));
    log_->setAccessibleName(tr("Progress of the folds"));
    start_->setText(tr("Start"));
    stop_->setText(tr("Stop"));
    open_->setText(tr("Open experiment"));
    close_->setText(tr("Close"));
}

void CrossValidationDialog::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) {
        retranslate();
        check();
    }
    QDialog::changeEvent(event);
}

} // namespace entrena::ui
