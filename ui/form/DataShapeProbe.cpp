#include "form/DataShapeProbe.h"

#include "JobRunner.h"
#include "entrena/config/Registry.h"

namespace entrena::ui {
namespace {

// A failure is kept this long before it is read again: a summary redrawn as the form is edited
// does not read a missing folder on every keystroke, and a folder fixed meanwhile is noticed.
constexpr qint64 kRetryFailureMs = 3000;

} // namespace

DataShapeProbe::DataShapeProbe(QObject* parent)
    : QObject(parent)
{
    debounce_.setSingleShot(true);
    debounce_.setInterval(kDebounceMs);
    connect(&debounce_, &QTimer::timeout, this, &DataShapeProbe::probePending);
}

DataShapeProbe::~DataShapeProbe()
{
    for (const auto& job : std::as_const(running_))
        job.cancel();
}

QString DataShapeProbe::key(const DataSpec& spec)
{
    QStringList size;
    for (int64_t v : spec.imageSize)
        size << QString::number(v);
    QString k =
        QStringLiteral("%1|%2|%3|%4")
            .arg(QString::fromLatin1(toString(spec.dataset)), QString::fromStdString(spec.path), size.join(QLatin1Char('x')))
            .arg(spec.channels);
    // A table's width depends on which column is the label (other data sets ignore these).
    k += QStringLiteral("|%1|%2").arg(QString::fromStdString(spec.labelColumn)).arg(spec.header);
    return k;
}

DataShapeProbe::Answer DataShapeProbe::shapeOf(const DataSpec& spec)
{
    // The latest request supersedes one still waiting for the typing to pause: a form loaded
    // field by field passes through combinations (the new data set with the old path) not to read.
    debounce_.stop();
    if (registryEntry(spec.dataset).shapeReadsNoFile) {
        Answer a;
        a.ready = true;
        a.shape = probeDataShape(spec);
        return a;
    }
    const QString k = key(spec);
    const auto it = cache_.constFind(k);
    if (it != cache_.constEnd()) {
        if (it->answer.failed && it->age.elapsed() > kRetryFailureMs && !running_.contains(k)) {
            pending_ = spec;
            debounce_.start();
        }
        return it->answer;
    }
    pending_ = spec;
    debounce_.start(); // again: the last edit of a burst is the one read
    return Answer{};
}

void DataShapeProbe::probePending()
{
    const QString k = key(pending_);
    if (running_.contains(k))
        return;
    ++started_;
    auto job = app::JobRunner::shared()->run(tr("Read the data's shape"),
                                             [spec = pending_](app::JobContext&) { return probeDataShape(spec); });
    running_.insert(k, job);
    const auto store = [this, k](const Answer& a) {
        Cached c{a, {}};
        c.age.start();
        cache_.insert(k, c);
        running_.remove(k);
        Q_EMIT changed();
    };
    job.onFinished(this, [store](const DataShape& shape) { store(Answer{true, false, shape, {}}); });
    job.onFailed(this, [store](const QString& message) { store(Answer{true, true, {}, message}); });
    job.onCancelled(this, [this, k] { running_.remove(k); });
}

} // namespace entrena::ui
