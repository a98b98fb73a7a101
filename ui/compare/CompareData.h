#pragma once

#include "entrena/store/Baseline.h"
#include "entrena/store/RunStore.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <map>
#include <vector>

namespace entrena::ui {

/// What the compare view can put on its x-axis.
enum class XAxisMode { Step, Epoch, Samples, WallTime, RelativeTime };

/// One metric of one run, whole (not decimated), as columns.
using Series = MetricColumns;

/// One run of a comparison: its record, events and every series the charts draw.
struct CompareRun {
    RunRecord record;
    std::vector<EventRecord> events;
    std::map<QString, Series> metrics;
    double samplesPerStep = 1; ///< global batch × accumulation, for the samples-seen axis
    double stepsPerEpoch = 0;  ///< from the epoch-end steps; 0 when no epoch has ended
    double startWall = 0;      ///< Unix seconds when the run started
    bool overview = false;     ///< some series are the store's overview, not every point

    /// The x coordinates of `s` for `mode` (wall time: Unix seconds).
    std::vector<double> xs(const Series& s, XAxisMode mode) const;
};

/// The runs of a comparison, read whole from the store. Each run is read through its own
/// connection on a pool thread, so N runs load in about the time of N / cores.
struct CompareData {
    std::vector<CompareRun> runs;
    /// Each run whose data set has a baseline, measured against it (by run id).
    std::map<int64_t, BaselineComparison> baselines;

    /// The metrics the compare view draws (store keys).
    static QStringList metricKeys();
    /// Series up to this long are read whole; longer ones, with `overview`, as the store's
    /// overview (~4 points per 256), which draws the same at full width in a fraction of the time.
    static constexpr int64_t kWholeUpTo = 65536;

    /// Throws StoreError, or std::runtime_error naming a run the store does not hold.
    /// `baselineTolerance`: as RunTableModel::setBaselineTolerance.
    static CompareData load(const QString& dbPath, const QList<qint64>& runIds, bool overview = false,
                            double baselineTolerance = 0.005);
    /// Whether any series is an overview (a whole read should follow).
    bool partial() const;
};

/// TensorBoard's smoothing: an exponential moving average debiased for its zero start
/// (s_i = m_i / (1 - w^(i+1)), m_i = w m_(i-1) + (1 - w) y_i), so the first points are not
/// dragged towards zero. Non-finite values pass through and do not poison what follows.
std::vector<double> emaDebiased(const std::vector<double>& y, double weight);

} // namespace entrena::ui
