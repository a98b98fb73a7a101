#include "tools/BatchSizeSearch.h"

#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>

namespace entrena::ui {

BatchSizeSearch::BatchSizeSearch(QObject* parent)
    : QObject(parent)
{
    connect(&watcher_, &QFutureWatcher<Outcome>::finished, this, [this] {
        const Outcome outcome = watcher_.result();
        if (outcome.error.isEmpty())
            Q_EMIT finished(outcome.result);
        else
            Q_EMIT failed(outcome.error);
    });
}

BatchSizeSearch::~BatchSizeSearch()
{
    stop();
    watcher_.waitForFinished();
}

void BatchSizeSearch::start(const RunConfig& config)
{
    if (isRunning())
        return;
    stop_ = std::make_shared<StopToken>();
    QPointer<BatchSizeSearch> self(this);
    watcher_.setFuture(QtConcurrent::run([config, stop = stop_, self]() -> Outcome {
        const auto progress = [self](const BatchTrial& t) {
            QMetaObject::invokeMethod(
                self,
                [self, device = QString::fromStdString(t.device), t] {
                    if (self)
                        Q_EMIT self->trial(device, t.batchSize, t.fits, t.peakBytes);
                },
                Qt::QueuedConnection);
        };
        try {
            return {findBatchSize(config, {}, *stop, progress), QString()};
        } catch (const std::exception& e) {
            return {{}, QString::fromStdString(e.what())};
        }
    }));
}

void BatchSizeSearch::stop()
{
    if (stop_)
        stop_->requestStop();
}

} // namespace entrena::ui
