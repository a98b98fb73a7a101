#pragma once
// The shape of a configuration's data (classes and C × H × W), for the model summary: read by the
// engine's probeDataShape as a job of the bridge's runner (listing an image folder and reading its
// headers takes a while), after the edits have paused, and remembered per data set, path, image
// size and channels. Shapes known without reading (IDX, synthetic) are answered at once.

#include "JobHandle.h"
#include "entrena/data/DataPreview.h"

#include <QElapsedTimer>
#include <QHash>
#include <QObject>
#include <QSet>
#include <QTimer>

namespace entrena::ui {

class DataShapeProbe : public QObject {
    Q_OBJECT
public:
    /// How long edits must pause before the data is read.
    static constexpr int kDebounceMs = 300;

    struct Answer {
        bool ready = false;  ///< false: being read; changed() follows
        bool failed = false; ///< the data cannot be read: `error` says why
        DataShape shape;
        QString error;
    };

    explicit DataShapeProbe(QObject* parent = nullptr);
    ~DataShapeProbe() override;

    /// The shape of `spec`'s data when known; otherwise it is read shortly and changed() follows.
    /// A failure is read again when asked after a few seconds (the folder may have been fixed).
    Answer shapeOf(const DataSpec& spec);
    /// What the cache is keyed on: data set, path, image size and channels (and a table's columns).
    static QString key(const DataSpec& spec);
    /// Probes started (for tests: cached answers start none).
    int probesStarted() const { return started_; }

Q_SIGNALS:
    /// An answer arrived: ask again.
    void changed();

private:
    void probePending();

    struct Cached {
        Answer answer;
        QElapsedTimer age;
    };
    QHash<QString, Cached> cache_;
    QHash<QString, app::JobHandle<DataShape>> running_;
    QTimer debounce_;
    DataSpec pending_;
    int started_ = 0;
};

} // namespace entrena::ui
