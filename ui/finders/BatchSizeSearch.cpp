#include "finders/BatchSizeSearch.h"

#include "JobRunner.h"

namespace entrena::ui {

BatchSizeSearch::BatchSizeSearch(QObject* parent)
    : QObject(parent)
{
}

BatchSizeSearch::~BatchSizeSearch()
{
    stop();
}

void BatchSizeSearch::start(const RunConfig& config)
{
    if (isRunning())
        return;
    job_ = app::JobRunner::shared()->run(tr("Find batch size"), [config](app::JobContext& context) {
        return findBatchSize(config, {}, context.stopToken(), [&context](const BatchTrial& t) { context.progress(t); });
    });
    job_.onProgress<BatchTrial>(
            this,
            [this](const BatchTrial& t) { Q_EMIT trial(QString::fromStdString(t.device), t.batchSize, t.fits, t.peakBytes); })
        .onFinished(this, [this](const BatchSizeResult& result) { Q_EMIT finished(result); })
        .onFailed(this, [this](const QString& message) { Q_EMIT failed(message); })
        // Stopping has always ended as the engine's failure "the search was stopped"; kept so.
        .onCancelled(this, [this] { Q_EMIT failed(tr("the batch-size search was stopped")); });
}

void BatchSizeSearch::stop()
{
    job_.cancel();
}

} // namespace entrena::ui
