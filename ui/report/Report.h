#pragma once

#include "entrena/store/RunStore.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QList>
#include <QString>
#include <QStringList>
#include <map>
#include <optional>
#include <stdexcept>
#include <vector>

namespace entrena::ui {

/// A run ID that the store does not hold, or no runs asked for.
class ReportError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// One row of the summary table: a figure per run, and which run has the best of it.
struct SummaryRow {
    QString label;
    std::vector<std::optional<double>> values; ///< one per run, in the report's run order
    bool higherIsBetter = true;
    int decimals = 2;
    int best = -1; ///< index of the best value; -1 when fewer than two runs have one
    QString format(std::size_t run) const;
};

/// One chart of the report: a stored metric, one line per run.
struct ChartSpec {
    QString title;
    QString metric; ///< the run store's key, e.g. "train_loss"
    QString valueLabel;
    bool byEpoch = false; ///< x is the epoch (validation metrics) rather than the step
    double scale = 1.0;   ///< e.g. bytes → MiB
};

struct ReportRun {
    RunRecord record;
    QStringList tags;
    std::vector<EventRecord> events;
    std::map<QString, std::vector<MetricPoint>> series; ///< metric → points decimated for a chart
    EvaluationReport evaluation;                        ///< the confusion matrix and per-class figures (may be empty)
};

/// Everything a report shows, read from the store once: the runs, their environment, the
/// configuration (for several runs: only what differs), the series the charts draw and the
/// summary figures. Writers (HTML, PDF) turn it into a file; they never read the store.
struct Report {
    Q_DECLARE_TR_FUNCTIONS(entrena::ui::Report)
public:
    /// Throws ReportError naming the missing run, StoreError for a store that cannot be read.
    static Report load(RunStore& store, const QList<qint64>& runIds);

    QString title;
    QDateTime generated;
    std::vector<ReportRun> runs;
    QList<QPair<QString, QString>> environment;
    /// Configuration rows: key and one value per run. With several runs only the keys whose
    /// values differ; `sameSettings` counts the rest.
    QList<QPair<QString, QStringList>> configuration;
    int sameSettings = 0;
    std::vector<SummaryRow> summary;

    /// The charts every report has: training loss, validation accuracy, learning rate, memory,
    /// throughput.
    static std::vector<ChartSpec> charts();
    /// "#3 name", how runs are named in tables and legends.
    static QString runLabel(const RunRecord& run);

    /// Configuration rows, key and one value per run; with `onlyDifferences` just the keys whose
    /// values differ, and `same` (if given) counts the others.
    static QList<QPair<QString, QStringList>> configurationRows(const std::vector<RunRecord>& runs, bool onlyDifferences,
                                                                int* same = nullptr);
    /// The summary figures of each run, as stored with it, with the best of each row found.
    static std::vector<SummaryRow> summaryRows(const std::vector<RunRecord>& runs);
    /// Finds the best value of a row (by `higherIsBetter`); -1 when fewer than two runs have one.
    static void markBest(SummaryRow& row);
};

} // namespace entrena::ui
