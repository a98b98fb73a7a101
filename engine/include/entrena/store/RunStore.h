#pragma once
// The run store: one SQLite file holding every run (the schema: docs/run-store.md).
// One writer (the training process) and any number of readers may use the file at once.

#include "entrena/store/Import.h"
#include "entrena/store/StoreError.h"
#include "entrena/train/Events.h"

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

struct sqlite3;

namespace entrena {

class MetricBlocks;

/// One row of `runs`, with the summary figures the run browser shows.
struct RunRecord {
    int64_t id = 0;
    std::string uuid;
    std::string name;
    RunStatus status = RunStatus::Running;
    std::string created; ///< ISO 8601, UTC
    std::string started;
    std::string ended;
    std::string configJson;
    std::string environmentJson;
    int64_t parentRun = 0;
    std::string notes;
    std::string error;
    std::optional<double> bestValAccuracy;
    std::optional<double> testAccuracy;
    std::optional<double> finalTrainLoss;
    std::optional<double> samplesPerSec;
    std::optional<double> seconds;
    std::optional<double> peakMemoryBytes; ///< device peak on a GPU, else process resident (schema 3)
    std::optional<double> finalValLoss;    ///< schema 3
    std::string dataJson;                  ///< {"classes", "input_shape", "normalization"} (schema 6; "" before)
    std::string evaluationJson;            ///< the end's confusion matrix and per-class figures (schema 6; see evaluationToJson)
    int64_t experiment = 0;                ///< the experiment it is a trial of (0: none; schema 7)
    int64_t trial = -1;                    ///< its trial number in that experiment, from 0
};

/// A sweep over configurations (entrena-cli sweep): what it searches and how (schema 7).
struct ExperimentRecord {
    int64_t id = 0;
    std::string uuid;
    std::string name;
    std::string method; ///< grid | random | tpe | asha | pbt
    std::string spaceJson;
    std::string metric; ///< val_accuracy | val_loss
    std::string status; ///< running | finished | stopped | failed
    std::string created;
    std::string baseConfigJson;
    std::string settingsJson; ///< trials, parallel, seed and the method's own settings
};

struct MetricPoint {
    int64_t step = 0;
    int epoch = 0;
    double wallTime = 0; ///< seconds since the Unix epoch
    double value = 0;
};

/// A whole series as columns, for charts that keep millions of points.
struct MetricColumns {
    std::vector<double> step, epoch, wall, value;
    std::size_t size() const { return value.size(); }
};

struct EventRecord {
    int64_t step = 0;
    std::string time;
    std::string kind;
    std::string message;
};

struct CheckpointRecord {
    int64_t step = 0;
    int epoch = 0;
    std::string path;
    double metric = 0;
    bool isBest = false;
    int64_t bytes = 0;
    std::string checksum; ///< CRC-32 of the file, 8 hex digits (schema 2; "" before)
};

/// Which runs listRuns() returns.
struct RunFilter {
    std::optional<RunStatus> status;
    std::string tag; ///< "" : any
    bool includeArchived = false;
};

/// Why a store can only be read here (RunStore::readOnlyCause).
enum class ReadOnlyCause { Writable, ReadOnlyMedia, NoPermission, DiskFull, Other };

class RunStore {
public:
    static constexpr int kSchemaVersion = 8;

    /// Opens (creating it and its folder if need be) and migrates the store. Runs left
    /// `running` by a process that no longer exists are marked `interrupted`.
    /// A store that exists but cannot be written here (read-only media or folder, a full disk) is
    /// opened read-only, unaltered: every read works and every write throws StoreError saying why
    /// (docs/run-store.md#read-only). Throws StoreError for a file that is not SQLite, from a newer
    /// Entrena, or a new store that cannot be created.
    explicit RunStore(const std::string& path);
    ~RunStore();
    RunStore(const RunStore&) = delete;
    RunStore& operator=(const RunStore&) = delete;

    /// `$XDG_DATA_HOME/entrena/runs.sqlite`, else `~/.local/share/entrena/runs.sqlite`.
    static std::string defaultPath();

    const std::string& path() const { return path_; }
    /// Whether this store can only be read here, and why ("it is on read-only media", …; "" if writable).
    bool readOnly() const { return !readOnlyReason_.empty(); }
    const std::string& readOnlyReason() const { return readOnlyReason_; }
    ReadOnlyCause readOnlyCause() const { return readOnlyCause_; }
    /// Throws StoreError naming `what` (e.g. "delete a run") when the store is read-only here.
    void requireWritable(const char* what) const;
    /// The store as an SQLite URI another connection can attach to read it, as this one reads it.
    std::string readUri() const;

    // The store's files (checkpoints, evaluation images): see docs/run-store.md#files.
    /// The store's own id (schema 8), which names its folder of files.
    const std::string& uuid() const { return uuid_; }
    /// The folder that holds run `runId`'s files, absolute: checkpoints/STORE-UUID/run-ID-RUNUUID8/
    /// beside the store file. No other store and no other run of this store writes there.
    std::string runFolder(int64_t runId);
    /// A path as the store keeps it (relative to the store's folder; absolute in rows written before
    /// schema 8) as one to open. A store moved with its folder is found where it is now.
    std::string resolvePath(const std::string& stored) const;
    /// What the store keeps for `path`: relative to the store's folder when inside it, else as given.
    std::string storedPath(const std::string& path) const;

    // Disk use and retention (docs/run-store.md#disk-use).
    /// Bytes each run's files take on disk (its checkpoints and its folder's evaluation images), by run id.
    std::map<int64_t, int64_t> diskUse();
    /// The store file's own bytes (with its write-ahead log).
    int64_t storeFileBytes() const;
    /// Bytes of run `runId`'s checkpoint files that exist (what freeCheckpoints would free, at most).
    int64_t checkpointBytes(int64_t runId);
    /// Keeps run `runId`'s best checkpoint and its latest `latest` (the latest is what a resume needs),
    /// deleting the others' files and rows; files outside this store's own folder are left alone.
    /// Returns the bytes freed.
    int64_t pruneCheckpoints(int64_t runId, int latest);
    /// When run `runId`'s checkpoints were deleted (freeCheckpoints) and how many bytes that freed;
    /// nothing when they were not.
    struct FreedCheckpoints {
        std::string time; ///< ISO 8601, UTC
        int64_t bytes = 0;
    };
    std::optional<FreedCheckpoints> checkpointsFreed(int64_t runId);
    /// Deletes every checkpoint of run `runId` (files in this store's folder, and the rows), keeping its
    /// metrics, events and evaluation: the run can no longer be resumed or exported. Returns the bytes
    /// freed. Throws StoreError for a run that is training.
    int64_t freeCheckpoints(int64_t runId);

    // Writing (the training process).
    int64_t createRun(const std::string& name, const std::string& configJson, const std::string& environmentJson);
    void finishRun(int64_t runId, RunStatus status, const EndEvent& end, std::optional<double> finalTrainLoss);
    /// What the run's data is: {"classes", "input_shape", "normalization"} as JSON.
    void setRunData(int64_t runId, const std::string& dataJson);
    /// Sets one key of the run's environment JSON to `valueJson` (what the run measured on this
    /// machine once training began, e.g. `paths`).
    void setRunEnvironmentValue(int64_t runId, const std::string& key, const std::string& valueJson);

    // Experiments (a sweep drives its trials' runs through these).
    int64_t createExperiment(const ExperimentRecord& e);
    std::optional<ExperimentRecord> findExperiment(const std::string& idOrName);
    std::vector<ExperimentRecord> listExperiments();
    void setExperimentStatus(int64_t experimentId, const std::string& status);
    /// Marks a run as trial `trial` of an experiment.
    void setTrial(int64_t runId, int64_t experimentId, int64_t trial);
    std::vector<RunRecord> trialsOf(int64_t experimentId);
    /// A sweep's edits between a trial's stages: its status, its configuration (more epochs, new
    /// hyper-parameters), the run it copied its weights from.
    void setRunStatus(int64_t runId, RunStatus status);
    void setRunConfig(int64_t runId, const std::string& configJson);
    void setParentRun(int64_t runId, int64_t parentRunId);
    /// Copies another store's runs in (see Import.h).
    ImportResult importFrom(const std::string& otherPath);
    /// Marks `failed`, with `error`, the run a process of this machine (`pid`) left running or
    /// interrupted when it died: a data-parallel rank 0 killed under its supervisor.
    void failRunOwnedBy(int64_t pid, const std::string& error);
    /// Ends run `runId` as `failed` with `error` if it is still running (its process died without
    /// ending it).
    void failRun(int64_t runId, const std::string& error);
    /// Buffered; written in one transaction at least once a second and by flush().
    void addMetric(int64_t runId, const std::string& key, int64_t step, int epoch, double value);
    void addEvent(int64_t runId, int64_t step, const std::string& kind, const std::string& message);
    void addCheckpoint(int64_t runId, const CheckpointRecord& checkpoint);
    /// Writes buffered metrics now and refreshes the writer's heartbeat.
    void flush();
    /// Takes a run up again from a checkpoint at `step`: the run is `running` under this process,
    /// and metrics, events and checkpoints after `step` (written past that checkpoint by the
    /// process that stopped) are removed, so the run reads as one that never stopped.
    void reopenRun(int64_t runId, int64_t step);

    // Editing what a person says about a run.
    void rename(int64_t runId, const std::string& name);
    void setNotes(int64_t runId, const std::string& notes);
    void setTags(int64_t runId, const std::vector<std::string>& tags);
    void setArchived(int64_t runId, bool archived);
    /// Deletes the run, its metrics, events, tags and checkpoint rows, then its checkpoint files.
    /// Returns the files that could not be removed (already gone by hand is not a failure).
    /// Throws StoreError for a running run.
    std::vector<std::string> deleteRun(int64_t runId);

    // Baselines (schema 5): one run per data set (datasetKey() of its configuration) that the
    // others are measured against. Marking a run replaces the data set's previous baseline.
    /// Throws StoreError for an unknown run or one that did not finish with a validation accuracy.
    void setBaseline(int64_t runId);
    void clearBaseline(int64_t runId);
    /// Data set key -> baseline run.
    std::map<std::string, int64_t> baselines();

    // Reading (any process).
    std::vector<RunRecord> listRuns(const RunFilter& filter = {});
    std::vector<std::string> tags(int64_t runId);
    /// Every run's tags in one query (the run browser's refresh).
    std::map<int64_t, std::vector<std::string>> tagsByRun();
    /// A series for a chart `buckets` points wide: the steps are cut into that many buckets and each
    /// keeps its first, last, lowest and highest point, so spikes stay visible however long the run.
    /// Series no longer than 4 × buckets come back whole.
    std::vector<MetricPoint> decimatedMetrics(int64_t runId, const std::string& key, int buckets);
    /// By numeric id or by name (the newest run of that name).
    std::optional<RunRecord> findRun(const std::string& idOrName);
    std::vector<MetricPoint> metrics(int64_t runId, const std::string& key);
    MetricColumns metricColumns(int64_t runId, const std::string& key);
    /// The series' overview: per 256 consecutive points the first, last, lowest and highest
    /// (schema 4), sorted by step; `points` (if given) receives the length of the whole series.
    /// What a chart draws at full width, read in a few milliseconds however long the series.
    MetricColumns metricOverview(int64_t runId, const std::string& key, int64_t* points = nullptr);
    std::vector<std::string> metricKeys(int64_t runId);
    std::vector<EventRecord> events(int64_t runId);
    std::vector<CheckpointRecord> checkpoints(int64_t runId);

private:
    std::string openReadWrite(ReadOnlyCause& cause); ///< "" when open for writing, else why it can only be read
    void setUpWriting();
    void openReadOnly(const std::string& why, ReadOnlyCause cause);
    void openCopy();
    bool readInPlace(const char* mode); ///< "?mode=ro" or "?immutable=1": true when read that way
    /// Copies run `old`'s checkpoints and images of the attached store `other` (files under `from`)
    /// as run `id`'s here.
    void importRunFiles(RunStore& other, const std::string& from, int64_t old, int64_t id, ImportResult& result);
    void closeDatabase();
    void exec(const char* sql);
    void migrate();
    void markInterrupted();
    void flushLocked();

    void readStoreId();
    /// evaluationJson's image paths, as stored or as opened.
    std::string withImagePaths(const std::string& evaluationJson, bool resolve) const;
    void resolvePaths(RunRecord& run) const;

    std::string path_;
    std::string folder_; ///< the store file's folder, absolute (relative paths in the store start here)
    std::string uuid_;
    std::string readOnlyReason_; ///< "" while writable
    ReadOnlyCause readOnlyCause_ = ReadOnlyCause::Writable;
    std::string copyFolder_;     ///< a private copy read in the store's place ("" : none; see openCopy)
    std::string readUri_;        ///< see readUri()
    sqlite3* db_ = nullptr;
    struct Pending {
        int64_t runId;
        std::string key;
        int64_t step;
        int epoch;
        double wall;
        double value;
    };
    std::vector<Pending> pending_;
    std::chrono::steady_clock::time_point lastFlush_;
    std::unique_ptr<MetricBlocks> blocks_;
};

} // namespace entrena
