#include "entrena/store/RunStore.h"

#include "entrena/store/Decimate.h"
#include "store/MetricBlocks.h"
#include "store/Sqlite.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <map>
#include <random>
#include <set>
#include <signal.h>
#include <sqlite3.h>
#include <unistd.h>

namespace entrena {
namespace {

using sqlite::Statement;
using sqlite::Transaction;

namespace fs = std::filesystem;

// Each entry moves the schema from version i to i + 1. Append, never edit: stores in the
// field were made by the earlier entries.
const char* const kMigrations[] = {
    R"sql(
CREATE TABLE runs (
    id INTEGER PRIMARY KEY,
    uuid TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('running','finished','stopped','failed','diverged','interrupted')),
    created TEXT NOT NULL,
    started TEXT,
    ended TEXT,
    config TEXT NOT NULL,
    environment TEXT NOT NULL DEFAULT '{}',
    parent_run INTEGER REFERENCES runs(id) ON DELETE SET NULL,
    notes TEXT NOT NULL DEFAULT '',
    error TEXT NOT NULL DEFAULT '',
    owner_pid INTEGER,
    owner_host TEXT,
    heartbeat TEXT,
    best_val_accuracy REAL,
    test_accuracy REAL,
    final_train_loss REAL,
    samples_per_s REAL,
    seconds REAL,
    archived INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX runs_name ON runs(name);
CREATE INDEX runs_status ON runs(status);
CREATE TABLE tags (
    run INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    tag TEXT NOT NULL,
    PRIMARY KEY (run, tag)
);
CREATE TABLE metrics (
    run INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    key TEXT NOT NULL,
    step INTEGER NOT NULL,
    epoch INTEGER NOT NULL,
    wall_time REAL NOT NULL,
    value REAL NOT NULL
);
CREATE INDEX metrics_run_key_step ON metrics(run, key, step);
CREATE TABLE events (
    id INTEGER PRIMARY KEY,
    run INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    step INTEGER NOT NULL,
    time TEXT NOT NULL,
    kind TEXT NOT NULL,
    message TEXT NOT NULL
);
CREATE INDEX events_run ON events(run, step);
CREATE TABLE checkpoints (
    id INTEGER PRIMARY KEY,
    run INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    step INTEGER NOT NULL,
    epoch INTEGER NOT NULL,
    path TEXT NOT NULL,
    metric REAL,
    is_best INTEGER NOT NULL DEFAULT 0,
    bytes INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX checkpoints_run ON checkpoints(run, step);
)sql",
    // 2: checkpoints carry a checksum, verified before they are loaded.
    R"sql(
ALTER TABLE checkpoints ADD COLUMN checksum TEXT NOT NULL DEFAULT '';
)sql",
    // 3: the run browser's peak memory and final validation loss, kept with the run rather than
    // scanned from the metrics on every refresh; filled in for the runs already stored.
    R"sql(
ALTER TABLE runs ADD COLUMN peak_memory_bytes REAL;
ALTER TABLE runs ADD COLUMN final_val_loss REAL;
UPDATE runs SET
    peak_memory_bytes = COALESCE((SELECT MAX(value) FROM metrics WHERE run=runs.id AND key='device_peak_bytes'),
                                 (SELECT MAX(value) FROM metrics WHERE run=runs.id AND key='memory_bytes')),
    final_val_loss = (SELECT value FROM metrics WHERE run=runs.id AND key='val_loss' ORDER BY step DESC LIMIT 1);
)sql",
    // 4: an M4 overview of every series, so long series chart without reading every point (filled
    // in for the runs already stored by migrate()).
    MetricBlocks::createSql(),
    // 5: the baseline run of each data set, that other runs are measured against.
    R"sql(
CREATE TABLE baselines (
    dataset TEXT PRIMARY KEY,
    run INTEGER NOT NULL UNIQUE REFERENCES runs(id) ON DELETE CASCADE
);
)sql",
    // 6: what a run's data was (class names, input shape, normalisation) and what its model got
    // wrong at the end (confusion matrix, per-class figures): JSON, empty for the runs before.
    R"sql(
ALTER TABLE runs ADD COLUMN data TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN evaluation TEXT NOT NULL DEFAULT '';
)sql",
};
static_assert(sizeof(kMigrations) / sizeof(kMigrations[0]) == RunStore::kSchemaVersion, "one migration per schema version");

std::string isoNow()
{
    const auto now = std::chrono::system_clock::now();
    const std::time_t t = std::chrono::system_clock::to_time_t(now);
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[40];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
    char out[48];
    std::snprintf(out, sizeof out, "%s.%03dZ", buf, int(ms));
    return out;
}

double unixNow()
{
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

std::string hostName()
{
    char buf[256] = {};
    gethostname(buf, sizeof buf - 1);
    return buf;
}

std::string newUuid()
{
    std::random_device rd;
    std::mt19937_64 gen((uint64_t(rd()) << 32) ^ rd() ^ uint64_t(unixNow() * 1e6));
    uint64_t a = gen(), b = gen();
    a = (a & ~0xF000ULL) | 0x4000ULL;                        // version 4
    b = (b & 0x3FFFFFFFFFFFFFFFULL) | 0x8000000000000000ULL; // variant 1
    char out[40];
    std::snprintf(out, sizeof out, "%08x-%04x-%04x-%04x-%012llx", unsigned(a >> 32), unsigned((a >> 16) & 0xFFFF),
                  unsigned(a & 0xFFFF), unsigned(b >> 48), (unsigned long long)(b & 0xFFFFFFFFFFFFULL));
    return out;
}

const char* kRunColumns = "id, uuid, name, status, created, COALESCE(started,''), COALESCE(ended,''), config, "
                          "environment, COALESCE(parent_run,0), notes, error, best_val_accuracy, test_accuracy, "
                          "final_train_loss, samples_per_s, seconds, peak_memory_bytes, final_val_loss, data, evaluation";

RunRecord readRun(const Statement& s)
{
    RunRecord r;
    r.id = s.integer(0);
    r.uuid = s.text(1);
    r.name = s.text(2);
    r.status = runStatusFromString(s.text(3));
    r.created = s.text(4);
    r.started = s.text(5);
    r.ended = s.text(6);
    r.configJson = s.text(7);
    r.environmentJson = s.text(8);
    r.parentRun = s.integer(9);
    r.notes = s.text(10);
    r.error = s.text(11);
    r.bestValAccuracy = s.optReal(12);
    r.testAccuracy = s.optReal(13);
    r.finalTrainLoss = s.optReal(14);
    r.samplesPerSec = s.optReal(15);
    r.seconds = s.optReal(16);
    r.peakMemoryBytes = s.optReal(17);
    r.finalValLoss = s.optReal(18);
    r.dataJson = s.text(19);
    r.evaluationJson = s.text(20);
    return r;
}

} // namespace

std::string RunStore::defaultPath()
{
    if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg && *xdg)
        return (fs::path(xdg) / "entrena" / "runs.sqlite").string();
    const char* home = std::getenv("HOME");
    return (fs::path(home && *home ? home : ".") / ".local" / "share" / "entrena" / "runs.sqlite").string();
}

RunStore::RunStore(const std::string& path)
    : path_(path)
    , lastFlush_(std::chrono::steady_clock::now())
    , blocks_(std::make_unique<MetricBlocks>())
{
    const fs::path p(path);
    if (p.has_parent_path()) {
        std::error_code ec;
        fs::create_directories(p.parent_path(), ec);
        if (ec)
            throw StoreError("cannot create the folder for the run store '" + path + "': " + ec.message() +
                             "; choose a writable location with --db");
    }
    if (fs::is_directory(p))
        throw StoreError("the run store path '" + path + "' is a folder; give a file name such as runs.sqlite");
    const int rc =
        sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, nullptr);
    if (rc != SQLITE_OK) {
        const std::string message = db_ ? sqlite3_errmsg(db_) : "out of memory";
        sqlite3_close(db_);
        db_ = nullptr;
        throw StoreError("cannot open the run store '" + path + "': " + message + "; choose a writable location with --db");
    }
    sqlite3_busy_timeout(db_, 5000);
    try {
        // Read the version before anything writes: a newer store must stay exactly as it is.
        int version = 0;
        {
            sqlite3_stmt* raw = nullptr;
            if (sqlite3_prepare_v2(db_, "PRAGMA user_version", -1, &raw, nullptr) != SQLITE_OK) {
                const int code = sqlite3_errcode(db_);
                sqlite3_finalize(raw);
                if (code == SQLITE_NOTADB)
                    throw StoreError("'" + path +
                                     "' is not an Entrena run store (not an SQLite database); "
                                     "give another file with --db");
                throw StoreError("cannot read the run store '" + path + "': " + sqlite3_errmsg(db_));
            }
            if (sqlite3_step(raw) == SQLITE_ROW)
                version = sqlite3_column_int(raw, 0);
            sqlite3_finalize(raw);
        }
        if (version > kSchemaVersion)
            throw StoreError("the run store '" + path + "' was written by a newer Entrena (schema " + std::to_string(version) +
                             ", this version reads up to " + std::to_string(kSchemaVersion) +
                             "); it was left unchanged: update Entrena or use another --db");
        exec("PRAGMA journal_mode=WAL");
        exec("PRAGMA foreign_keys=ON");
        exec("PRAGMA synchronous=NORMAL");
        // Reads of long series go through the OS page cache instead of copies into SQLite's.
        exec("PRAGMA mmap_size=1073741824");
        migrate();
        markInterrupted();
    } catch (...) {
        sqlite3_close(db_);
        db_ = nullptr;
        throw;
    }
}

RunStore::~RunStore()
{
    if (!db_)
        return;
    try {
        flushLocked();
    } catch (...) {
        // A destructor cannot report; the data was buffered for at most a second.
    }
    sqlite3_close(db_);
}

void RunStore::exec(const char* sql)
{
    char* err = nullptr;
    if (sqlite3_exec(db_, sql, nullptr, nullptr, &err) != SQLITE_OK) {
        std::string message = err ? err : "unknown error";
        sqlite3_free(err);
        if (sqlite3_errcode(db_) == SQLITE_NOTADB)
            throw StoreError("'" + path_ +
                             "' is not an Entrena run store (not an SQLite database); give another "
                             "file with --db");
        if (sqlite3_errcode(db_) == SQLITE_READONLY)
            throw StoreError("the run store '" + path_ + "' is read-only; choose a writable location with --db");
        throw StoreError("run store '" + path_ + "': " + message);
    }
}

void RunStore::migrate()
{
    Statement v(db_, "PRAGMA user_version");
    const int version = v.step() ? int(v.integer(0)) : 0;
    for (int i = version; i < kSchemaVersion; ++i) {
        Transaction t(db_);
        exec(kMigrations[i]);
        if (i + 1 == 4)
            blocks_->rebuild(db_, 0);
        exec(("PRAGMA user_version=" + std::to_string(i + 1)).c_str());
        t.commit();
    }
}

void RunStore::markInterrupted()
{
    // A run is `running` only while its process lives. Same host: ask the kernel about the pid.
    // Another host: trust a heartbeat no older than ten minutes.
    const std::string host = hostName();
    std::vector<int64_t> dead;
    {
        Statement s(db_, "SELECT id, COALESCE(owner_pid,0), COALESCE(owner_host,''), "
                         "COALESCE(strftime('%s','now') - strftime('%s', heartbeat), 1e9) FROM runs "
                         "WHERE status='running'");
        while (s.step()) {
            const auto pid = pid_t(s.integer(1));
            const bool sameHost = s.text(2) == host;
            const bool gone = sameHost ? (pid <= 0 || (kill(pid, 0) != 0 && errno == ESRCH)) : s.real(3) > 600;
            if (gone)
                dead.push_back(s.integer(0));
        }
    }
    for (int64_t id : dead) {
        Statement u(db_, "UPDATE runs SET status='interrupted', ended=COALESCE(heartbeat, started), "
                         "error='the training process ended without finishing the run' WHERE id=? AND status='running'");
        u.bind(1, id).step();
    }
}

void RunStore::failRunOwnedBy(int64_t pid, const std::string& error)
{
    Statement u(db_, "UPDATE runs SET status='failed', ended=COALESCE(ended, heartbeat, started), error=? "
                     "WHERE owner_pid=? AND owner_host=? AND status IN ('running','interrupted')");
    u.bind(1, error).bind(2, pid).bind(3, hostName()).step();
}

int64_t RunStore::createRun(const std::string& name, const std::string& configJson, const std::string& environmentJson)
{
    Statement s(db_, "INSERT INTO runs (uuid, name, status, created, started, config, environment, owner_pid, "
                     "owner_host, heartbeat) VALUES (?, ?, 'running', ?, ?, ?, ?, ?, ?, ?)");
    const std::string now = isoNow();
    s.bind(1, newUuid()).bind(2, name).bind(3, now).bind(4, now).bind(5, configJson).bind(6, environmentJson);
    s.bind(7, int64_t(getpid())).bind(8, hostName()).bind(9, now);
    s.step();
    return sqlite3_last_insert_rowid(db_);
}

void RunStore::finishRun(int64_t runId, RunStatus status, const EndEvent& end, std::optional<double> finalTrainLoss)
{
    flushLocked();
    Statement s(db_, "UPDATE runs SET status=?, ended=?, heartbeat=?, error=?, best_val_accuracy=?, test_accuracy=?, "
                     "final_train_loss=?, samples_per_s=?, seconds=?, evaluation=? WHERE id=?");
    const std::string now = isoNow();
    auto opt = [](double v) { return v >= 0 ? std::optional<double>(v) : std::nullopt; };
    s.bind(1, std::string(toString(status))).bind(2, now).bind(3, now).bind(4, end.error);
    s.bind(5, opt(end.bestValAccuracy)).bind(6, opt(end.testAccuracy)).bind(7, finalTrainLoss);
    s.bind(8, end.samplesPerSec > 0 ? std::optional<double>(end.samplesPerSec) : std::nullopt);
    s.bind(9, std::optional<double>(end.seconds)).bind(10, evaluationToJson(end.evaluation)).bind(11, runId);
    s.step();
    // On a GPU the device's peak is what limits a run; on a CPU the process's resident memory.
    Statement summary(db_,
                      "UPDATE runs SET "
                      "peak_memory_bytes = COALESCE((SELECT MAX(value) FROM metrics WHERE run=?1 AND key='device_peak_bytes'), "
                      "(SELECT MAX(value) FROM metrics WHERE run=?1 AND key='memory_bytes')), "
                      "final_val_loss = (SELECT value FROM metrics WHERE run=?1 AND key='val_loss' ORDER BY step DESC LIMIT 1) "
                      "WHERE id=?1");
    summary.bind(1, runId);
    summary.step();
}

void RunStore::setRunData(int64_t runId, const std::string& dataJson)
{
    Statement s(db_, "UPDATE runs SET data=? WHERE id=?");
    s.bind(1, dataJson).bind(2, runId);
    s.step();
}

void RunStore::addMetric(int64_t runId, const std::string& key, int64_t step, int epoch, double value)
{
    pending_.push_back({runId, key, step, epoch, unixNow(), value});
    if (std::chrono::steady_clock::now() - lastFlush_ >= std::chrono::seconds(1))
        flushLocked();
}

void RunStore::flush()
{
    flushLocked();
}

void RunStore::flushLocked()
{
    lastFlush_ = std::chrono::steady_clock::now();
    if (pending_.empty())
        return;
    Transaction t(db_);
    Statement s(db_, "INSERT INTO metrics (run, key, step, epoch, wall_time, value) VALUES (?, ?, ?, ?, ?, ?)");
    std::set<int64_t> runs;
    std::vector<MetricBlocks::Point> points;
    points.reserve(pending_.size());
    for (const auto& p : pending_) {
        s.bind(1, p.runId).bind(2, p.key).bind(3, p.step).bind(4, int64_t(p.epoch)).bind(5, p.wall).bind(6, p.value);
        s.step();
        s.reset();
        runs.insert(p.runId);
        points.push_back({p.runId, &p.key, p.step, p.epoch, p.wall, p.value});
    }
    blocks_->add(db_, points);
    Statement h(db_, "UPDATE runs SET heartbeat=? WHERE id=?");
    for (int64_t id : runs) {
        h.bind(1, isoNow()).bind(2, id).step();
        h.reset();
    }
    t.commit();
    pending_.clear();
}

void RunStore::reopenRun(int64_t runId, int64_t step)
{
    flushLocked();
    Transaction t(db_);
    for (const char* sql : {"DELETE FROM metrics WHERE run=? AND step>?", "DELETE FROM events WHERE run=? AND step>?",
                            "DELETE FROM checkpoints WHERE run=? AND step>?"}) {
        Statement d(db_, sql);
        d.bind(1, runId).bind(2, step).step();
    }
    blocks_->rebuild(db_, runId);
    Statement u(db_, "UPDATE runs SET status='running', ended=NULL, error='', owner_pid=?, owner_host=?, heartbeat=?, "
                     "test_accuracy=NULL WHERE id=?");
    u.bind(1, int64_t(getpid())).bind(2, hostName()).bind(3, isoNow()).bind(4, runId).step();
    t.commit();
}

void RunStore::addEvent(int64_t runId, int64_t step, const std::string& kind, const std::string& message)
{
    Statement s(db_, "INSERT INTO events (run, step, time, kind, message) VALUES (?, ?, ?, ?, ?)");
    s.bind(1, runId).bind(2, step).bind(3, isoNow()).bind(4, kind).bind(5, message).step();
}

void RunStore::addCheckpoint(int64_t runId, const CheckpointRecord& c)
{
    Transaction t(db_);
    if (c.isBest) {
        Statement u(db_, "UPDATE checkpoints SET is_best=0 WHERE run=?");
        u.bind(1, runId).step();
    }
    Statement s(db_, "INSERT INTO checkpoints (run, step, epoch, path, metric, is_best, bytes, checksum) "
                     "VALUES (?,?,?,?,?,?,?,?)");
    s.bind(1, runId).bind(2, c.step).bind(3, int64_t(c.epoch)).bind(4, c.path).bind(5, c.metric);
    s.bind(6, int64_t(c.isBest ? 1 : 0)).bind(7, c.bytes).bind(8, c.checksum).step();
    t.commit();
}

std::vector<RunRecord> RunStore::listRuns(const RunFilter& filter)
{
    std::string sql = std::string("SELECT ") + kRunColumns +
                      " FROM runs WHERE (?1 OR archived=0) AND (?2='' OR status=?2)"
                      " AND (?3='' OR id IN (SELECT run FROM tags WHERE tag=?3)) ORDER BY id";
    Statement s(db_, sql.c_str());
    s.bind(1, int64_t(filter.includeArchived ? 1 : 0));
    s.bind(2, std::string(filter.status ? toString(*filter.status) : ""));
    s.bind(3, filter.tag);
    std::vector<RunRecord> out;
    while (s.step())
        out.push_back(readRun(s));
    return out;
}

void RunStore::rename(int64_t runId, const std::string& name)
{
    if (name.empty())
        throw StoreError("a run's name cannot be empty");
    Statement s(db_, "UPDATE runs SET name=? WHERE id=?");
    s.bind(1, name).bind(2, runId).step();
}

void RunStore::setNotes(int64_t runId, const std::string& notes)
{
    Statement s(db_, "UPDATE runs SET notes=? WHERE id=?");
    s.bind(1, notes).bind(2, runId).step();
}

void RunStore::setTags(int64_t runId, const std::vector<std::string>& tags)
{
    Transaction t(db_);
    Statement d(db_, "DELETE FROM tags WHERE run=?");
    d.bind(1, runId).step();
    Statement i(db_, "INSERT OR IGNORE INTO tags (run, tag) VALUES (?, ?)");
    for (const auto& tag : tags) {
        if (tag.empty())
            continue;
        i.bind(1, runId).bind(2, tag).step();
        i.reset();
    }
    t.commit();
}

void RunStore::setArchived(int64_t runId, bool archived)
{
    Statement s(db_, "UPDATE runs SET archived=? WHERE id=?");
    s.bind(1, int64_t(archived ? 1 : 0)).bind(2, runId).step();
}

std::vector<std::string> RunStore::deleteRun(int64_t runId)
{
    const auto run = findRun(std::to_string(runId));
    if (!run)
        throw StoreError("no run " + std::to_string(runId));
    if (run->status == RunStatus::Running)
        throw StoreError("run " + std::to_string(runId) + " is training; stop it before deleting it");
    const auto files = checkpoints(runId);
    {
        Transaction t(db_);
        for (const char* sql : {"DELETE FROM metrics WHERE run=?", "DELETE FROM events WHERE run=?",
                                "DELETE FROM tags WHERE run=?", "DELETE FROM checkpoints WHERE run=?",
                                "UPDATE runs SET parent_run=NULL WHERE parent_run=?", "DELETE FROM runs WHERE id=?"}) {
            Statement d(db_, sql);
            d.bind(1, runId).step();
        }
        t.commit();
    }
    // Files last: if removing one fails, the store is already consistent.
    std::vector<std::string> left;
    for (const auto& c : files) {
        std::error_code ec;
        if (!fs::remove(c.path, ec) && ec)
            left.push_back(c.path);
    }
    return left;
}

std::vector<std::string> RunStore::tags(int64_t runId)
{
    Statement s(db_, "SELECT tag FROM tags WHERE run=? ORDER BY tag");
    s.bind(1, runId);
    std::vector<std::string> out;
    while (s.step())
        out.push_back(s.text(0));
    return out;
}

std::map<int64_t, std::vector<std::string>> RunStore::tagsByRun()
{
    Statement s(db_, "SELECT run, tag FROM tags ORDER BY run, tag");
    std::map<int64_t, std::vector<std::string>> out;
    while (s.step())
        out[s.integer(0)].push_back(s.text(1));
    return out;
}

std::vector<MetricPoint> RunStore::decimatedMetrics(int64_t runId, const std::string& key, int buckets)
{
    buckets = std::max(1, buckets);
    int64_t points = 0;
    MetricColumns overview = metricOverview(runId, key, &points);
    if (points <= 4 * int64_t(buckets))
        return metrics(runId, key);
    // M4 of the stored overview (every 256 points' extremes) when it is finer than the buckets
    // asked for: milliseconds instead of reading every point. Else of the whole series.
    if (overview.size() < 8 * std::size_t(buckets))
        overview = metricColumns(runId, key);
    std::vector<std::size_t> keep;
    m4Indices(overview.step.data(), overview.value.data(), 0, overview.size(), buckets, keep);
    std::vector<MetricPoint> out;
    out.reserve(keep.size());
    for (std::size_t i : keep)
        out.push_back({int64_t(overview.step[i]), int(overview.epoch[i]), overview.wall[i], overview.value[i]});
    return out;
}

std::optional<RunRecord> RunStore::findRun(const std::string& idOrName)
{
    const bool numeric = !idOrName.empty() && idOrName.find_first_not_of("0123456789") == std::string::npos;
    if (numeric) {
        Statement s(db_, (std::string("SELECT ") + kRunColumns + " FROM runs WHERE id=?").c_str());
        s.bind(1, int64_t(std::stoll(idOrName)));
        if (s.step())
            return readRun(s);
    }
    Statement s(db_, (std::string("SELECT ") + kRunColumns + " FROM runs WHERE name=? ORDER BY id DESC LIMIT 1").c_str());
    s.bind(1, idOrName);
    if (s.step())
        return readRun(s);
    return std::nullopt;
}

std::vector<MetricPoint> RunStore::metrics(int64_t runId, const std::string& key)
{
    Statement s(db_, "SELECT step, epoch, wall_time, value FROM metrics WHERE run=? AND key=? ORDER BY step, rowid");
    s.bind(1, runId).bind(2, key);
    std::vector<MetricPoint> out;
    while (s.step())
        out.push_back({s.integer(0), int(s.integer(1)), s.real(2), s.real(3)});
    return out;
}

MetricColumns RunStore::metricOverview(int64_t runId, const std::string& key, int64_t* points)
{
    return MetricBlocks::read(db_, runId, key, points);
}

MetricColumns RunStore::metricColumns(int64_t runId, const std::string& key)
{
    Statement s(db_, "SELECT step, epoch, wall_time, value FROM metrics WHERE run=? AND key=? ORDER BY step, rowid");
    s.bind(1, runId).bind(2, key);
    MetricColumns out;
    while (s.step()) {
        out.step.push_back(double(s.integer(0)));
        out.epoch.push_back(double(s.integer(1)));
        out.wall.push_back(s.real(2));
        out.value.push_back(s.real(3));
    }
    return out;
}

std::vector<std::string> RunStore::metricKeys(int64_t runId)
{
    Statement s(db_, "SELECT DISTINCT key FROM metrics WHERE run=? ORDER BY key");
    s.bind(1, runId);
    std::vector<std::string> out;
    while (s.step())
        out.push_back(s.text(0));
    return out;
}

std::vector<EventRecord> RunStore::events(int64_t runId)
{
    Statement s(db_, "SELECT step, time, kind, message FROM events WHERE run=? ORDER BY id");
    s.bind(1, runId);
    std::vector<EventRecord> out;
    while (s.step())
        out.push_back({s.integer(0), s.text(1), s.text(2), s.text(3)});
    return out;
}

std::vector<CheckpointRecord> RunStore::checkpoints(int64_t runId)
{
    Statement s(db_, "SELECT step, epoch, path, COALESCE(metric,0), is_best, bytes, checksum FROM checkpoints "
                     "WHERE run=? ORDER BY id");
    s.bind(1, runId);
    std::vector<CheckpointRecord> out;
    while (s.step())
        out.push_back({s.integer(0), int(s.integer(1)), s.text(2), s.real(3), s.integer(4) != 0, s.integer(5), s.text(6)});
    return out;
}

} // namespace entrena
