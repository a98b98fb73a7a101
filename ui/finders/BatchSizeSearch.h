#pragma once
// The batch-size finder for the GUI: entrena::findBatchSize as a job of the bridge's runner, its
// trials and its answer reported back on the GUI thread as signals, stoppable.

#include "JobHandle.h"
#include "entrena/search/BatchSizeFinder.h"

#include <QObject>
#include <QString>

namespace entrena::ui {

class BatchSizeSearch : public QObject {
    Q_OBJECT
public:
    explicit BatchSizeSearch(QObject* parent = nullptr);
    ~BatchSizeSearch() override; ///< stops a search in progress (the runner waits for it at exit)

    bool isRunning() const { return job_.isRunning(); }
    void start(const RunConfig& config);
    void stop();

Q_SIGNALS:
    void trial(const QString& device, qint64 batchSize, bool fits, qint64 peakBytes);
    void finished(const entrena::BatchSizeResult& result);
    void failed(const QString& message);

private:
    app::JobHandle<BatchSizeResult> job_;
};

} // namespace entrena::ui
