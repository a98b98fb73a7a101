#include "compare/CompareView.h"

#include "form/KeyLabels.h"

#include "JobRunner.h"
#include "charts/ChartMenu.h"
#include "charts/ChartTheme.h"
#include "compare/CompareChart.h"
#include "compare/PerClassComparison.h"
#include "report/Report.h"
#include "report/ReportCharts.h"
#include "settings/Settings.h"
#include "widgets/DecimalSpinBox.h"
#include "widgets/ScreenFit.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPixmap>
#include <QScrollBar>
#include <QShortcut>
#include <QSlider>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

namespace entrena::ui {
namespace {

constexpr double kMiB = 1024.0 * 1024.0;

/// The charts, in reading order: metric key and value scale.
const std::pair<const char*, double> kCharts[] = {
    {"train_loss", 1.0},          {"val_loss", 1.0},      {"val_accuracy", 1.0}, {"lr", 1.0},
    {"memory_bytes", 1.0 / kMiB}, {"samples_per_s", 1.0},
};

QTableWidget* makeTable(const QString& objectName)
{
    auto* t = new QTableWidget;
    t->setObjectName(objectName);
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->verticalHeader()->hide();
    t->horizontalHeader()->setStretchLastSection(true);
    return t;
}

QIcon swatch(const QColor& color)
{
    QPixmap p(12, 12);
    p.fill(color);
    return QIcon(p);
}

// Time to the chosen validation accuracy: from the run's start to the first epoch reaching it.
SummaryRow timeToTarget(const CompareData& data, double target, const QString& targetText)
{
    SummaryRow time{CompareView::tr("Time to %1 validation accuracy (s)").arg(targetText), {}, false, 1, -1};
    for (const CompareRun& r : data.runs) {
        std::optional<double> seconds;
        const auto it = r.metrics.find(QStringLiteral("val_accuracy"));
        if (it != r.metrics.end())
            for (std::size_t i = 0; i < it->second.size(); ++i)
                if (it->second.value[i] >= target) {
                    seconds = it->second.wall[i] - r.startWall;
                    break;
                }
        time.values.push_back(seconds);
    }
    Report::markBest(time);
    return time;
}

// Against each run's baseline (its data set's, when marked): the speed-up to the baseline's final
// accuracy and the change in final accuracy, inserted as rows 3 and 4; returns the latter's index
// (a faster run that ends worse is flagged there), or -1 without baselines.
int insertBaselineRows(const CompareData& data, std::vector<SummaryRow>& rows)
{
    if (data.baselines.empty())
        return -1;
    SummaryRow speedup{CompareView::tr("Speed-up vs baseline (×)"), {}, true, 2, -1};
    SummaryRow delta{CompareView::tr("Δ final accuracy vs baseline (pp)"), {}, true, 2, -1};
    for (const CompareRun& r : data.runs) {
        const auto it = data.baselines.find(r.record.id);
        const BaselineComparison* c = it == data.baselines.end() ? nullptr : &it->second;
        speedup.values.push_back(c ? c->speedup : std::nullopt);
        delta.values.push_back(c && c->deltaAccuracy ? std::optional<double>(*c->deltaAccuracy * 100.0) : std::nullopt);
    }
    Report::markBest(speedup);
    rows.insert(rows.begin() + 3, speedup);
    rows.insert(rows.begin() + 4, delta);
    return 4;
}

} // namespace

// The toolbar (x-axis, smoothing, log scale), the legend and the grid of charts.
QWidget* CompareView::chartsSide()
{
    auto* toolbar = new QHBoxLayout;
    toolbar->addWidget(xLabel_);
    // Never narrower than its words (in a run's details the Spanish "Paso" was cut to "P"); the note
    // on the slider goes on a line of its own, under the toolbar.
    xMode_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    smoothingNote_->setWordWrap(true);
    toolbar->addWidget(xMode_);
    toolbar->addSpacing(16);
    toolbar->addWidget(smoothingLabel_);
    toolbar->addWidget(smoothing_);
    smoothingNote_->setObjectName(QStringLiteral("smoothingNote"));
    smoothingNote_->setVisible(false);
    toolbar->addSpacing(16);
    toolbar->addWidget(logScale_);
    toolbar->addStretch(1);
    toolbar->addWidget(status_);

    auto* grid = new QGridLayout;
    int i = 0;
    for (const auto& [metric, scale] : kCharts) {
        auto* chart = new CompareChart(QString::fromLatin1(metric), scale);
        ChartMenu::install(chart);
        connect(chart, &CompareChart::xRangeChanged, this, [this, chart](const QCPRange& r) { linkX(chart, r); });
        grid->addWidget(chart, i / 2, i % 2);
        charts_ << chart;
        ++i;
    }
    auto* left = new QWidget;
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->addLayout(toolbar);
    leftLayout->addWidget(smoothingNote_);
    leftLayout->addLayout(legend_);
    leftLayout->addLayout(grid, 1);
    return left;
}

// The side tabs: the summary with its target accuracy, the parameters, the per-class comparison.
void CompareView::buildTabs()
{
    auto* paramsPage = new QWidget;
    auto* paramsLayout = new QVBoxLayout(paramsPage);
    paramsLayout->addWidget(onlyDifferences_);
    paramsLayout->addWidget(parameters_);
    auto* summaryPage = new QWidget;
    auto* summaryLayout = new QVBoxLayout(summaryPage);
    auto* targetRow = new QHBoxLayout;
    targetRow->addWidget(targetLabel_);
    targetRow->addWidget(target_);
    targetRow->addStretch(1);
    summaryLayout->addLayout(targetRow);
    summaryLayout->addWidget(summary_);
    noiseNote_->setObjectName(QStringLiteral("noiseNote"));
    noiseNote_->setWordWrap(true);
    noiseNote_->setVisible(false);
    summaryLayout->addWidget(noiseNote_);
    tabs_->addTab(summaryPage, QString());
    tabs_->addTab(paramsPage, QString());
    tabs_->addTab(perClass_, QString());
    tabs_->setTabVisible(2, runIds_.size() > 1);
}

void CompareView::connectControls()
{
    connect(xMode_, &QComboBox::currentIndexChanged, this, [this](int index) { setXMode(XAxisMode(index)); });
    connect(smoothing_, &QSlider::valueChanged, this, [this](int v) { setSmoothing(v / 100.0); });
    connect(logScale_, &QCheckBox::toggled, this, &CompareView::setLogScale);
    connect(onlyDifferences_, &QCheckBox::toggled, this, &CompareView::setOnlyDifferences);
    connect(target_, &QDoubleSpinBox::valueChanged, this, &CompareView::setTargetAccuracy);
    // A window of its own, closed with Escape as a dialog is. Not inside a run's details, whose
    // own Escape closes the dialog (enabled when shown: see showEvent).
    escape_ = new QShortcut(QKeySequence(Qt::Key_Escape), this);
    escape_->setEnabled(false);
    connect(escape_, &QShortcut::activated, this, &QWidget::close);
}

CompareView::CompareView(const QString& dbPath, const QList<qint64>& runIds, QWidget* parent)
    : QWidget(parent)
    , runIds_(runIds)
    , status_(new QLabel)
    , xLabel_(new QLabel)
    , xMode_(new QComboBox)
    , smoothingLabel_(new QLabel)
    , smoothingNote_(new QLabel)
    , smoothing_(new QSlider(Qt::Horizontal))
    , logScale_(new QCheckBox)
    , legend_(new QHBoxLayout)
    , onlyDifferences_(new QCheckBox)
    , parameters_(makeTable(QStringLiteral("parametersTable")))
    , targetLabel_(new QLabel)
    , target_(new DecimalSpinBox)
    , summary_(makeTable(QStringLiteral("summaryTable")))
    , noiseNote_(new QLabel)
    , perClass_(new PerClassComparison)
    , tabs_(new QTabWidget)
{
    setObjectName(QStringLiteral("compareView"));
    setWindowFlag(Qt::Window);
    setAttribute(Qt::WA_DeleteOnClose);
    sizeToScreen(this, QSize(1400, 860));
    for (int i = 0; i < 5; ++i)
        xMode_->addItem(QString(), i);
    smoothing_->setRange(0, 99);
    smoothing_->setMaximumWidth(180);
    onlyDifferences_->setChecked(true);
    target_->setRange(1, 100);
    target_->setDecimals(1);
    target_->setValue(85);
    target_->setSuffix(QStringLiteral(" %"));

    auto* left = chartsSide();
    buildTabs();
    splitter_ = new QSplitter(Qt::Horizontal);
    splitter_->addWidget(left);
    splitter_->addWidget(tabs_);
    splitter_->setStretchFactor(0, 3);
    splitter_->setStretchFactor(1, 1);
    splitter_->setSizes({1000, 420}); // until the summary says what it needs (fitSidePanel)
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(splitter_);

    connectControls();
    retranslate();

    status_->setText(tr("Loading %n run(s)…", nullptr, int(runIds.size())));
    dbPath_ = dbPath;
    startLoad(true);
}

CompareView::~CompareView()
{
    // A load still reading ends unheard; cancelled, the runner no longer lists it as wanted.
    load_.cancel();
}

void CompareView::startLoad(bool overview)
{
    // First the store's overview of long series (drawn at full width it is the same picture),
    // then, if anything was an overview, every point, for zooming in.
    const double tolerance = Settings::baselineTolerance.value() / 100.0;
    load_ = app::JobRunner::shared()->run(windowTitle(), [db = dbPath_, ids = runIds_, overview, tolerance](app::JobContext&) {
        return CompareData::load(db, ids, overview, tolerance);
    });
    load_.onFailed(this, [this](const QString& error) {
        status_->setText(error);
        Q_EMIT failed(error);
    });
    load_.onFinished(this, [this, overview](const CompareData& data) {
        if (overview) {
            onLoaded(data);
            if (data.partial()) {
                status_->setText(tr("Reading every point for zooming in…"));
                startLoad(false);
            } else {
                Q_EMIT complete();
            }
            return;
        }
        data_ = data;
        for (CompareChart* c : charts_)
            c->setData(data_, true);
        fillSummary();
        status_->clear();
        Q_EMIT complete();
    });
}

void CompareView::retranslate()
{
    setWindowTitle(tr("Compare runs"));
    xLabel_->setText(tr("X-axis:"));
    const QString modes[] = {tr("Step"), tr("Epoch"), tr("Samples seen"), tr("Wall time"), tr("Time since start")};
    for (int i = 0; i < 5; ++i)
        xMode_->setItemText(i, modes[i]);
    smoothingLabel_->setText(tr("Smoothing: %1").arg(QLocale().toString(smoothing_->value() / 100.0, 'f', 2)));
    smoothing_->setToolTip(tr("Smooths series of %1 points or more (a debiased moving average, as TensorBoard's); series "
                              "with fewer points, such as one per epoch, are drawn as they are.")
                               .arg(CompareChart::kSmoothableMinPoints));
    updateSmoothingNote();
    logScale_->setText(tr("Log scale"));
    onlyDifferences_->setText(tr("Only the settings that differ"));
    targetLabel_->setText(tr("Time to validation accuracy:"));
    tabs_->setTabText(0, tr("Summary"));
    tabs_->setTabText(1, tr("Hyper-parameters"));
    tabs_->setTabText(2, tr("Per class"));
    const QString titles[] = {tr("Training loss"), tr("Validation loss"), tr("Validation accuracy"),
                              tr("Learning rate"), tr("Memory (MiB)"),    tr("Throughput (samples/s)")};
    for (int i = 0; i < charts_.size(); ++i) {
        charts_[i]->setTitle(titles[i]);
        charts_[i]->replot(QCustomPlot::rpQueuedReplot);
    }
    if (loaded_) {
        fillParameters();
        fillSummary();
    }
}

void CompareView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

CompareChart* CompareView::chart(const QString& metric) const
{
    for (CompareChart* c : charts_)
        if (c->metric() == metric)
            return c;
    return nullptr;
}

void CompareView::onLoaded(const CompareData& data)
{
    data_ = data;
    loaded_ = true;
    status_->clear();
    fillParameters();
    fillSummary(); // first: it may widen the side panel, and the charts draw for their width
    std::vector<RunRecord> records;
    for (const CompareRun& r : data_.runs)
        records.push_back(r.record);
    perClass_->setRuns(records);
    linking_ = true; // each chart fits its own data first; then all take the widest range
    for (CompareChart* c : charts_)
        c->setData(data_);
    linking_ = false;
    showAllOfX();
    for (std::size_t r = 0; r < data_.runs.size(); ++r) {
        auto* box = new QCheckBox(Report::runLabel(data_.runs[r].record));
        box->setChecked(true);
        box->setIcon(swatch(runColor(r)));
        connect(box, &QCheckBox::toggled, this, [this, r](bool on) { setRunVisible(int(r), on); });
        legend_->addWidget(box);
        legendBoxes_ << box;
    }
    legend_->addStretch(1);
    updateSmoothingNote();
    Q_EMIT loaded();
}

void CompareView::updateSmoothingNote()
{
    // Short runs: the slider has nothing to smooth, and says so instead of doing nothing silently.
    const bool any = std::any_of(charts_.begin(), charts_.end(), [](const CompareChart* c) { return c->smoothable(); });
    smoothing_->setEnabled(!loaded_ || any);
    smoothingNote_->setText(loaded_ && !any ? tr("Smoothing needs series of %1 points or more; these are drawn as they are.")
                                                  .arg(CompareChart::kSmoothableMinPoints)
                                            : QString());
    smoothingNote_->setVisible(loaded_ && !any);
}

void CompareView::linkX(CompareChart* source, const QCPRange& range)
{
    if (linking_)
        return;
    linking_ = true;
    for (CompareChart* c : charts_)
        if (c != source) {
            c->xAxis->setRange(range);
            c->replot(QCustomPlot::rpQueuedReplot);
        }
    linking_ = false;
}

void CompareView::setXMode(XAxisMode mode)
{
    if (xMode_->currentIndex() != int(mode))
        xMode_->setCurrentIndex(int(mode)); // comes back here through the signal
    linking_ = true;                        // each chart fits its own data first; then all take the widest range
    for (CompareChart* c : charts_)
        c->setXMode(mode);
    linking_ = false;
    showAllOfX();
}

void CompareView::showAllOfX()
{
    // The widest of the charts' own ranges: one chart's alone (the learning rate's, logged at a step
    // or two of a short run) hid the others' points, such as epochs 1 and 2's validation.
    QCPRange all;
    bool any = false;
    for (CompareChart* c : charts_)
        if (c->lineCount() > 0) {
            const QCPRange r = c->xAxis->range();
            all = any ? QCPRange(std::min(all.lower, r.lower), std::max(all.upper, r.upper)) : r;
            any = true;
        }
    if (any && !charts_.isEmpty())
        linkX(nullptr, all);
}

void CompareView::setSmoothing(double weight)
{
    if (smoothing_->value() != int(std::lround(weight * 100)))
        smoothing_->setValue(int(std::lround(weight * 100)));
    smoothingLabel_->setText(tr("Smoothing: %1").arg(QLocale().toString(weight, 'f', 2)));
    for (CompareChart* c : charts_)
        c->setSmoothing(weight);
}

void CompareView::setLogScale(bool on)
{
    logScale_->setChecked(on);
    for (CompareChart* c : charts_)
        c->setLogScale(on);
}

void CompareView::setRunVisible(int run, bool visible)
{
    if (run >= 0 && run < legendBoxes_.size())
        legendBoxes_[run]->setChecked(visible);
    for (CompareChart* c : charts_)
        c->setRunVisible(run, visible);
}

void CompareView::setOnlyDifferences(bool on)
{
    onlyDifferences_->setChecked(on);
    fillParameters();
}

void CompareView::setTargetAccuracy(double percent)
{
    target_->setValue(percent);
    fillSummary();
}

QStringList CompareView::runColumns(const QString& first, std::vector<RunRecord>& records) const
{
    QStringList headers{first};
    for (const CompareRun& r : data_.runs) {
        records.push_back(r.record);
        headers << Report::runLabel(r.record);
    }
    return headers;
}

void CompareView::fillParameters()
{
    std::vector<RunRecord> records;
    const QStringList headers = runColumns(tr("Setting"), records);
    int same = 0;
    // One run (the run details' charts) has no differences to show: all of it.
    const auto rows = Report::configurationRows(records, onlyDifferences_->isChecked() && records.size() > 1, &same);
    parameters_->clear();
    parameters_->setColumnCount(int(headers.size()));
    parameters_->setHorizontalHeaderLabels(headers);
    parameters_->setRowCount(int(rows.size()));
    for (int r = 0; r < rows.size(); ++r) {
        // The form's words for the setting (issue 53: data.fold and name), the key in the tooltip.
        auto* setting = new QTableWidgetItem(keyLabel(rows[r].first));
        setting->setToolTip(rows[r].first);
        parameters_->setItem(r, 0, setting);
        for (int c = 0; c < rows[r].second.size(); ++c)
            parameters_->setItem(r, c + 1, new QTableWidgetItem(rows[r].second[c]));
    }
    parameters_->resizeColumnsToContents();
    onlyDifferences_->setToolTip(tr("%n setting(s) are the same in every run.", nullptr, same));
}

void CompareView::fillSummary()
{
    std::vector<RunRecord> records;
    const QStringList headers = runColumns(tr("Figure"), records);
    std::vector<SummaryRow> rows = Report::summaryRows(records);
    SummaryRow time = timeToTarget(data_, target_->value() / 100.0, target_->text());
    rows.insert(rows.begin() + 2, time);
    const int deltaRow = insertBaselineRows(data_, rows);

    summary_->clear();
    summary_->setColumnCount(int(headers.size()));
    summary_->setHorizontalHeaderLabels(headers);
    summary_->setRowCount(int(rows.size()));
    for (int r = 0; r < int(rows.size()); ++r) {
        const SummaryRow& row = rows[std::size_t(r)];
        summary_->setItem(r, 0, new QTableWidgetItem(row.label));
        for (std::size_t c = 0; c < data_.runs.size(); ++c) {
            auto* item = new QTableWidgetItem(row.format(c));
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            if (row.best >= 0 && row.format(c) == row.format(std::size_t(row.best))) {
                QFont bold = item->font();
                bold.setBold(true);
                item->setFont(bold);
                item->setBackground(markColor(summary_->palette(), true));
                item->setData(Qt::UserRole, true); // marked best (for tests and accessibility tools)
                item->setToolTip(tr("best"));
            }
            if (r == deltaRow) {
                const auto it = data_.baselines.find(data_.runs[c].record.id);
                if (it != data_.baselines.end() && it->second.warn()) {
                    item->setBackground(markColor(summary_->palette(), false));
                    item->setData(Qt::UserRole + 1, true); // flagged: faster but worse
                    item->setToolTip(tr("Faster than the baseline (run %1), but its final accuracy is lower by more than "
                                        "the tolerance: check that it is not a worse model.")
                                         .arg(it->second.baselineRun));
                }
            }
            summary_->setItem(r, int(c) + 1, item);
        }
    }
    summary_->resizeColumnsToContents();
    fillNoiseNote();
    fitSidePanel();
}

void CompareView::fillNoiseNote()
{
    // The two best validation accuracies, and how far apart chance would put them on so few samples.
    std::vector<std::pair<double, int64_t>> scored; // best validation accuracy, samples validated on
    for (const CompareRun& r : data_.runs)
        if (r.record.bestValAccuracy)
            scored.emplace_back(*r.record.bestValAccuracy, evaluatedSamples(r.record, "validation"));
    std::sort(scored.begin(), scored.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    const auto needed = scored.size() >= 2 ? meaningfulDifference(scored[0].first, scored[0].second, scored[1].first,
                                                                  scored[1].second)
                                           : std::nullopt;
    const int64_t samples = scored.size() >= 2 ? std::min(scored[0].second, scored[1].second) : 0;
    if (!needed || samples >= kFewSamples) {
        noiseNote_->setVisible(false);
        return;
    }
    const QLocale locale;
    QString text = tr("Validated on %n sample(s): two validation accuracies must differ by more than %1 percentage points "
                      "to mean something (at 95 % confidence).",
                      nullptr, int(samples))
                       .arg(locale.toString(*needed * 100.0, 'f', 1));
    // Folds of a cross-validation are told apart by their mean ± sd, not one against another.
    const bool folds = std::all_of(data_.runs.begin(), data_.runs.end(), [](const CompareRun& r) {
        return QJsonDocument::fromJson(QByteArray::fromStdString(r.record.configJson))
                   .object()[QStringLiteral("data")]
                   .toObject()[QStringLiteral("folds")]
                   .toInt() > 1;
    });
    if (scored[0].first - scored[1].first < *needed && !folds)
        text += QLatin1Char(' ') + tr("The best two runs are closer than that: cross-validate them (Run → "
                                      "Cross-validate…) to tell them apart.");
    noiseNote_->setText(text);
    noiseNote_->setVisible(true);
}

void CompareView::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    escape_->setEnabled(isWindow());
    // In the run details the charts are a second tab: the data arrive while it is hidden, so the
    // side panel is fitted when the tab is first shown.
    if (!sideFitted_ && summary_->rowCount() > 0)
        fitSidePanel();
}

void CompareView::fitSidePanel()
{
    // At 1280x720 the side panel showed the figures' names and the first run; the second run's
    // column was behind a scroll bar. Widen the panel by what the columns lack.
    if (sideFitted_ || !isVisible())
        return;
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest); // the widths as laid out now
    const QList<int> sizes = splitter_->sizes();
    const int total = sizes.value(0) + sizes.value(1);
    // What the columns need: fitted to their contents without the last column's stretch.
    summary_->horizontalHeader()->setStretchLastSection(false);
    summary_->resizeColumnsToContents();
    int content = 0;
    for (int c = 0; c < summary_->columnCount(); ++c)
        content += summary_->columnWidth(c);
    summary_->horizontalHeader()->setStretchLastSection(true);
    const int lacking = content - summary_->viewport()->width();
    if (total <= 0 || lacking <= 0) {
        sideFitted_ = total > 0;
        return;
    }
    const int wanted = std::min(total / 2, tabs_->width() + lacking);
    splitter_->setSizes({total - wanted, wanted});
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    sideFitted_ = true;
}

} // namespace entrena::ui
