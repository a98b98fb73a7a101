// The run store's reading and editing of runs: lists, lookups, series, events, checkpoints, tags,
// names, notes, archiving and deletion. (Opening, migrating and the training writer's path are in
// RunStore.cpp.)
#include "entrena/store/Decimate.h"
#include "entrena/store/RunStore.h"
#include "store/MetricBlocks.h"
#include "store/RunRows.h"
#include "store/Sqlite.h"

#include <filesystem>
#include <set>

namespace entrena {

using sqlite::Statement;
using sqlite::Transaction;
namespace fs = std::filesystem;

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
    while (s.step()) {
        out.push_back(readRun(s));
        resolvePaths(out.back());
    }
    return out;
}

void RunStore::rename(int64_t runId, const std::string& name)
{
    requireWritable("rename a run");
    if (name.empty())
        throw StoreError("a run's name cannot be empty");
    Statement s(db_, "UPDATE runs SET name=? WHERE id=?");
    s.bind(1, name).bind(2, runId).step();
}

void RunStore::setNotes(int64_t runId, const std::string& notes)
{
    requireWritable("change a run's notes");
    Statement s(db_, "UPDATE runs SET notes=? WHERE id=?");
    s.bind(1, notes).bind(2, runId).step();
}

void RunStore::setTags(int64_t runId, const std::vector<std::string>& tags)
{
    requireWritable("change a run's tags");
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
    requireWritable("archive a run");
    Statement s(db_, "UPDATE runs SET archived=? WHERE id=?");
    s.bind(1, int64_t(archived ? 1 : 0)).bind(2, runId).step();
}

std::vector<std::string> RunStore::deleteRun(int64_t runId)
{
    requireWritable("delete a run");
    const auto run = findRun(std::to_string(runId));
    if (!run)
        throw StoreError("no run " + std::to_string(runId));
    if (run->status == RunStatus::Running)
        throw StoreError("run " + std::to_string(runId) + " is training; stop it before deleting it");
    const auto files = checkpoints(runId);
    const std::string folder = runFolder(runId);
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
    // The run's own folder (schema 8): its evaluation images, and nothing of any other run's.
    std::error_code ec;
    fs::remove_all(folder, ec);
    if (ec)
        left.push_back(folder);
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
        if (s.step()) {
            RunRecord r = readRun(s);
            resolvePaths(r);
            return r;
        }
    }
    Statement s(db_, (std::string("SELECT ") + kRunColumns + " FROM runs WHERE name=? ORDER BY id DESC LIMIT 1").c_str());
    s.bind(1, idOrName);
    if (s.step()) {
        RunRecord r = readRun(s);
        resolvePaths(r);
        return r;
    }
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
        out.push_back(
            {s.integer(0), int(s.integer(1)), resolvePath(s.text(2)), s.real(3), s.integer(4) != 0, s.integer(5), s.text(6)});
    return out;
}

} // namespace entrena
