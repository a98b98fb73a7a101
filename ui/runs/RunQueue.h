#pragma once

#include "entrena/config/Config.h"

#include <QList>
#include <QObject>
#include <QString>
#include <optional>

namespace entrena::ui {

/// A configuration waiting for its turn, with the processes it asked for (data-parallel ranks).
struct QueuedRun {
    RunConfig config;
    int ranks = 1;
};

/// The runs waiting to start, in order. The main window trains one run at a time (this build has
/// one device, the CPU: two runs at once would only share its cores), so the first queued run
/// starts when the training run ends. The queue is kept in a JSON file beside the run store, so
/// it outlives the window and belongs to the store its runs go to.
class RunQueue : public QObject {
    Q_OBJECT
public:
    /// Reads the queue kept in `file` (none, or an unreadable one: empty, see loadError()).
    explicit RunQueue(const QString& file, QObject* parent = nullptr);

    /// Where a store's queue is kept: "runs.queue.json" beside "runs.sqlite".
    static QString fileFor(const QString& dbPath);
    /// A line that tells queued runs apart: model, data, optimizer, rate, batch, epochs.
    static QString summaryOf(const RunConfig& config);

    const QList<QueuedRun>& items() const { return items_; }
    int size() const { return int(items_.size()); }
    bool isEmpty() const { return items_.isEmpty(); }
    /// Why the kept queue could not be read ("" when it could, or there was none).
    QString loadError() const { return loadError_; }

    void add(const RunConfig& config, int ranks);
    void remove(int index);
    /// Moves the run at `from` to `to` (both indexes in the queue as it is).
    void move(int from, int to);
    /// The runs in a new order: `order` lists the current indexes, each once.
    void reorder(const QList<int>& order);
    /// Takes the first run out of the queue (to start it).
    std::optional<QueuedRun> takeFirst();

Q_SIGNALS:
    void changed();

private:
    void load();
    void save();

    QString file_;
    QList<QueuedRun> items_;
    QString loadError_;
};

} // namespace entrena::ui
