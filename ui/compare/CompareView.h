#pragma once

#include "JobHandle.h"
#include "compare/CompareData.h"

#include <QList>
#include <QWidget>

class QCPRange;
class QCheckBox;
class QShortcut;
class QComboBox;
class QSplitter;
class QDoubleSpinBox;
class QHBoxLayout;
class QLabel;
class QSlider;
class QTableWidget;
class QTabWidget;

namespace entrena::ui {

class CompareChart;
class PerClassComparison;

/// Two or more runs side by side: a chart per metric with a line per run (one colour per run in
/// every chart; the legend's check boxes show and hide runs), a shared x-axis (step, epoch,
/// samples seen, wall time, time since start) zoomed and panned together, TensorBoard-style
/// smoothing, a log scale, events as markers; beside them the hyper-parameters (optionally only
/// those that differ) and a summary with the best value of each row marked.
class CompareView : public QWidget {
    Q_OBJECT
public:
    /// Loads the runs as a job of the bridge's runner; loaded() (or failed()) follows.
    CompareView(const QString& dbPath, const QList<qint64>& runIds, QWidget* parent = nullptr);
    ~CompareView() override;

    bool isLoaded() const { return loaded_; }
    const QList<CompareChart*>& charts() const { return charts_; }
    CompareChart* chart(const QString& metric) const;
    QTableWidget* parametersTable() const { return parameters_; }
    QTableWidget* summaryTable() const { return summary_; }
    /// Under the summary: how far apart two validation accuracies must be to mean something, when
    /// the runs were validated on few samples (hidden otherwise).
    QLabel* noiseNote() const { return noiseNote_; }
    /// Each class's accuracy per run (its own tab; hidden for one run, whose details show it).
    PerClassComparison* perClassPage() const { return perClass_; }

    void setXMode(XAxisMode mode);
    /// Every chart's x-axis set to the widest range any of them fits its own data to.
    void showAllOfX();
    void setSmoothing(double weight);
    void setLogScale(bool on);
    void setOnlyDifferences(bool on);
    void setRunVisible(int run, bool visible);
    void setTargetAccuracy(double percent);

Q_SIGNALS:
    /// The charts are drawn (long series from the store's overview).
    void loaded();
    /// Every point is in memory (after loaded(); at once when nothing was an overview).
    void complete();
    void failed(const QString& message);

protected:
    void changeEvent(QEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    // The constructor's parts.
    QWidget* chartsSide();
    void buildTabs();
    void connectControls();
    void retranslate();
    void updateSmoothingNote();
    void startLoad(bool overview);
    void onLoaded(const CompareData& data);
    /// The tables' headers (`first`, then a run each) and the runs' records.
    QStringList runColumns(const QString& first, std::vector<RunRecord>& records) const;
    void fillParameters();
    void fillSummary();
    /// Widens the side panel, once, to show the summary's every column (up to half the view).
    void fitSidePanel();
    void fillNoiseNote();
    void linkX(CompareChart* source, const QCPRange& range);

    QString dbPath_;
    QList<qint64> runIds_;
    CompareData data_;
    app::JobHandle<CompareData> load_;
    bool loaded_ = false;
    bool linking_ = false;
    QList<CompareChart*> charts_;
    QLabel* status_;
    QLabel* xLabel_;
    QComboBox* xMode_;
    QLabel* smoothingLabel_;
    QLabel* smoothingNote_;
    QSlider* smoothing_;
    QCheckBox* logScale_;
    QHBoxLayout* legend_;
    QList<QCheckBox*> legendBoxes_;
    QCheckBox* onlyDifferences_;
    QTableWidget* parameters_;
    QLabel* targetLabel_;
    QDoubleSpinBox* target_;
    QShortcut* escape_ = nullptr;
    QTableWidget* summary_;
    QLabel* noiseNote_;
    PerClassComparison* perClass_;
    QTabWidget* tabs_;
    QSplitter* splitter_ = nullptr;
    bool sideFitted_ = false;
};

} // namespace entrena::ui
