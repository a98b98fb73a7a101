#include "entrena/store/RunStore.h"

#include "entrena/store/Decimate.h"
#include "store/MetricBlocks.h"
#include "store/RunRows.h"
#include "store/Schema.h"
#include "store/Sqlite.h"
#include "store/StoreStamps.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <signal.h>
#include <sqlite3.h>
#include <thread>
#include <unistd.h>

namespace entrena {
namespace {

using sqlite::Statement;
using sqlite::Transaction;

namespace fs = std::filesystem;

} // namespace

std::string RunStore::defaultPath()
{
    if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg && *xdg)
        return (fs::path(xdg) / "entrena" / "runs.sqlite").string();
    const char* home = std::getenv("HOME");
    return (fs::path(home && *home ? home : ".") / ".local" / "share" / "entrena" / "runs.sqlite").string();
}

RunStore::~RunStore()
{
    if (db_ && readOnlyReason_.empty()) {
        try {
            flushLocked();
        } catch (...) {
            // A destructor cannot report; the data was buffered for at most a second.
        }
    }
    closeDatabase();
}

void RunStore::closeDatabase()
{
    sqlite3_close(db_);
    db_ = nullptr;
    if (!copyFolder_.empty()) {
        std::error_code ec;
        fs::remove_all(copyFolder_, ec);
        copyFolder_.clear();
    }
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
        const int code = sqlite3_errcode(db_) & 0xff;
        if (code == SQLITE_READONLY || code == SQLITE_FULL)
            throw sqlite::failure(db_, message);
        throw StoreError("run store '" + path_ + "': " + message, code, sqlite3_system_errno(db_));
    }
}

void RunStore::migrate()
{
    int version = 0;
    {
        Statement v(db_, "PRAGMA user_version");
        version = v.step() ? int(v.integer(0)) : 0;
    }
    if (version >= kSchemaVersion)
        return;
    // A migration may rebuild a table (7 rebuilds runs): with foreign keys on, dropping the old one
    // would delete every row that refers to it. (The setting cannot change inside a transaction.)
    exec("PRAGMA foreign_keys=OFF");
    for (int i = version; i < kSchemaVersion; ++i) {
        Transaction t(db_);
        // Another process may be opening the same new store: the version read inside the write
        // transaction is the one that counts, and a step it already made is not made twice.
        int now = 0;
        {
            Statement again(db_, "PRAGMA user_version"); // finished before the migration's DDL runs
            now = again.step() ? int(again.integer(0)) : 0;
        }
        if (now > i)
            continue;
        exec(migrationSql(i));
        if (i + 1 == 4)
            blocks_->rebuild(db_, 0);
        exec(("PRAGMA user_version=" + std::to_string(i + 1)).c_str());
        t.commit();
    }
    exec("PRAGMA foreign_keys=ON");
}

namespace {

/// Whether `pid` is a live process. A zombie is not: a process killed with its parent can stay a
/// zombie where PID 1 reaps no orphans (containers), though it will never run again.
bool processAlive(pid_t pid)
{
    if (pid <= 0 || (kill(pid, 0) != 0 && errno == ESRCH))
        return false;
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    if (!std::getline(stat, line))
        return true;                    // no /proc: trust kill()
    const auto close = line.rfind(')'); // the name may hold spaces and parentheses
    return close == std::string::npos || close + 2 >= line.size() || line[close + 2] != 'Z';
}

} // namespace

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
            const bool gone = sameHost ? !processAlive(pid) : s.real(3) > 600;
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

void RunStore::failRun(int64_t runId, const std::string& error)
{
    Statement u(db_, "UPDATE runs SET status='failed', ended=COALESCE(ended, heartbeat, started), error=? "
                     "WHERE id=? AND status IN ('running','interrupted')");
    u.bind(1, error).bind(2, runId).step();
}

int64_t RunStore::createRun(const std::string& name, const std::string& configJson, const std::string& environmentJson)
{
    requireWritable("start a run");
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
    s.bind(9, std::optional<double>(end.seconds)).bind(10, withImagePaths(evaluationToJson(end.evaluation), false));
    s.bind(11, runId);
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

void RunStore::setRunEnvironmentValue(int64_t runId, const std::string& key, const std::string& valueJson)
{
    Transaction t(db_);
    nlohmann::json environment;
    {
        Statement s(db_, "SELECT COALESCE(environment, '') FROM runs WHERE id=?");
        s.bind(1, runId);
        if (!s.step())
            return;
        environment = nlohmann::json::parse(s.text(0), nullptr, /*allow_exceptions=*/false);
    }
    // An environment that is not a JSON object is left as it was: nothing of it is lost.
    if (!environment.is_object())
        return;
    environment[key] = nlohmann::json::parse(valueJson);
    Statement s(db_, "UPDATE runs SET environment=? WHERE id=?");
    s.bind(1, environment.dump()).bind(2, runId);
    s.step();
    t.commit();
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
    requireWritable("resume a run");
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
    s.bind(1, runId).bind(2, c.step).bind(3, int64_t(c.epoch)).bind(4, storedPath(c.path)).bind(5, c.metric);
    s.bind(6, int64_t(c.isBest ? 1 : 0)).bind(7, c.bytes).bind(8, c.checksum).step();
    t.commit();
}

} // namespace entrena
