#pragma once
// The batch-size finder for the GUI: entrena::findBatchSize on a pool thread, its trials and its
// answer reported back on the GUI thread as signals, stoppable.

#include "entrena/search/BatchSizeFinder.h"

#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <memory>

namespace entrena::ui {

class BatchSizeSearch : public QObject {
    Q_OBJECT
public:
    explicit BatchSizeSearch(QObject* parent = nullptr);
    ~BatchSizeSearch() override; ///< stops a search in progress and waits for it

    bool isRunning() const { return watcher_.isRunning(); }
    void start(const RunConfig& config);
    void stop();

Q_SIGNALS:
    void trial(const QString& device, qint64 batchSize, bool fits, qint64 peakBytes);
    void finished(const entrena::BatchSizeResult& result);
    void failed(const QString& message);

private:
    struct Outcome {
        BatchSizeResult result;
        QString error;
    };
    QFutureWatcher<Outcome> watcher_;
    std::shared_ptr<StopToken> stop_;
};

} // namespace entrena::ui
