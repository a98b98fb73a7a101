// Where a run store's files live and how the paths to them are kept (docs/run-store.md#files).
//
// A store owns checkpoints/STORE-UUID/ beside its file; each run writes in a folder of its own
// there, named by its id and its own uuid (ids are reused after a delete, uuids never). Paths are
// kept relative to the store's folder, as Git keeps paths relative to its work tree, so a store
// moved or copied with its folder, or opened from another working directory, finds its files.
// Rows written before schema 8 hold absolute paths, or paths relative to whatever directory the
// training process ran in; both are still found (resolvePath).
#include "entrena/store/RunStore.h"
#include "store/Sqlite.h"

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>

namespace entrena {

namespace fs = std::filesystem;
using sqlite::Statement;

namespace {

/// The part of `p` from its last `checkpoints` folder on ("" if it has none): where a file written
/// by an older Entrena is found in a store that was moved since.
fs::path fromCheckpointsFolder(const fs::path& p)
{
    fs::path tail;
    bool found = false;
    for (const auto& part : p) {
        if (part == "checkpoints") {
            tail = part;
            found = true;
        } else if (found) {
            tail /= part;
        }
    }
    return found ? tail : fs::path();
}

/// Whether `file` lies inside `folder` (both absolute).
bool inside(const fs::path& file, const fs::path& folder)
{
    const fs::path relative = file.lexically_normal().lexically_relative(folder.lexically_normal());
    return !relative.empty() && *relative.begin() != "..";
}

int64_t sizeOf(const fs::path& file)
{
    std::error_code ec;
    const auto bytes = fs::file_size(file, ec);
    return ec ? 0 : int64_t(bytes);
}

} // namespace

void RunStore::readStoreId()
{
    Statement s(db_, "SELECT value FROM store WHERE key='uuid'");
    if (!s.step())
        throw StoreError("the run store '" + path_ + "' has no id (its `store` table was emptied by hand?)");
    uuid_ = s.text(0);
}

std::string RunStore::runFolder(int64_t runId)
{
    Statement s(db_, "SELECT uuid FROM runs WHERE id=?");
    s.bind(1, runId);
    if (!s.step())
        throw StoreError("no run " + std::to_string(runId) + " in " + path_);
    const std::string runUuid = s.text(0).substr(0, 8);
    return (fs::path(folder_) / "checkpoints" / uuid_ / ("run-" + std::to_string(runId) + "-" + runUuid)).string();
}

std::string RunStore::resolvePath(const std::string& stored) const
{
    if (stored.empty())
        return stored;
    const fs::path p(stored);
    std::error_code ec;
    const fs::path here = p.is_absolute() ? p : fs::path(folder_) / p;
    if (fs::exists(here, ec))
        return here.string();
    // Written before schema 8: absolute in a store since moved, or relative to the directory the
    // training process ran in. Its checkpoints/… part is where the store's folder holds it now.
    if (const fs::path tail = fromCheckpointsFolder(p); !tail.empty()) {
        const fs::path moved = fs::path(folder_) / tail;
        if (fs::exists(moved, ec))
            return moved.string();
    }
    if (!p.is_absolute() && fs::exists(p, ec)) // relative to this process's directory, as before
        return fs::absolute(p, ec).string();
    return here.string();
}

std::string RunStore::storedPath(const std::string& path) const
{
    if (path.empty())
        return path;
    std::error_code ec;
    const fs::path absolute = fs::absolute(path, ec).lexically_normal();
    const fs::path relative = absolute.lexically_relative(folder_);
    if (relative.empty() || *relative.begin() == "..")
        return path;
    return relative.generic_string();
}

std::string RunStore::withImagePaths(const std::string& evaluationJson, bool resolve) const
{
    if (evaluationJson.find("\"image\"") == std::string::npos)
        return evaluationJson;
    try {
        auto j = nlohmann::json::parse(evaluationJson);
        if (!j.contains("wrong") || !j["wrong"].is_array())
            return evaluationJson;
        for (auto& w : j["wrong"])
            if (w.contains("image") && w["image"].is_string())
                w["image"] = resolve ? resolvePath(w["image"].get<std::string>()) : storedPath(w["image"].get<std::string>());
        return j.dump();
    } catch (const nlohmann::json::exception&) {
        return evaluationJson; // shown as it is; the reader says it cannot read it
    }
}

std::map<int64_t, int64_t> RunStore::diskUse()
{
    std::map<int64_t, std::set<fs::path>> files;
    {
        Statement s(db_, "SELECT id FROM runs");
        while (s.step())
            files[s.integer(0)];
    }
    {
        Statement s(db_, "SELECT run, path FROM checkpoints");
        while (s.step())
            files[s.integer(0)].insert(fs::path(resolvePath(s.text(1))).lexically_normal());
    }
    std::map<int64_t, int64_t> out;
    for (auto& [run, paths] : files) {
        std::error_code ec;
        for (fs::directory_iterator it(runFolder(run), ec), end; !ec && it != end; it.increment(ec))
            if (it->is_regular_file(ec))
                paths.insert(it->path().lexically_normal());
        int64_t bytes = 0;
        for (const fs::path& p : paths)
            bytes += sizeOf(p);
        out[run] = bytes;
    }
    return out;
}

int64_t RunStore::storeFileBytes() const
{
    return sizeOf(path_) + sizeOf(path_ + "-wal");
}

int64_t RunStore::checkpointBytes(int64_t runId)
{
    int64_t bytes = 0;
    for (const CheckpointRecord& c : checkpoints(runId))
        bytes += sizeOf(c.path);
    return bytes;
}

int64_t RunStore::pruneCheckpoints(int64_t runId, int latest)
{
    requireWritable("delete checkpoints");
    const std::vector<CheckpointRecord> all = checkpoints(runId);
    const fs::path own = fs::path(folder_) / "checkpoints" / uuid_;
    int64_t freed = 0;
    for (std::size_t i = 0; i + std::size_t(std::max(latest, 1)) < all.size(); ++i) {
        const CheckpointRecord& c = all[i];
        if (c.isBest || !inside(c.path, own))
            continue;
        std::error_code ec;
        const int64_t bytes = sizeOf(c.path);
        if (fs::remove(c.path, ec) || !fs::exists(c.path, ec))
            freed += bytes;
        Statement d(db_, "DELETE FROM checkpoints WHERE run=? AND step=? AND path=?");
        d.bind(1, runId).bind(2, c.step).bind(3, storedPath(c.path)).step();
    }
    return freed;
}

int64_t RunStore::freeCheckpoints(int64_t runId)
{
    requireWritable("free checkpoints");
    const auto run = findRun(std::to_string(runId));
    if (!run)
        throw StoreError("no run " + std::to_string(runId) + " in " + path_);
    if (run->status == RunStatus::Running)
        throw StoreError("run " + std::to_string(runId) + " is training; stop it before deleting its checkpoints");
    const fs::path own = fs::path(folder_) / "checkpoints" / uuid_;
    int64_t freed = 0;
    for (const CheckpointRecord& c : checkpoints(runId)) {
        std::error_code ec;
        if (!inside(c.path, own)) // an older store's shared folder: another store may use the file
            continue;
        const int64_t bytes = sizeOf(c.path);
        if (fs::remove(c.path, ec))
            freed += bytes;
    }
    Statement d(db_, "DELETE FROM checkpoints WHERE run=?");
    d.bind(1, runId).step();
    // Said where the run ends, so that its details tell why it no longer resumes or exports.
    Statement last(db_, "SELECT COALESCE(MAX(step), 0) FROM metrics WHERE run=?");
    last.bind(1, runId);
    addEvent(runId, last.step() ? last.integer(0) : 0, "checkpoints_deleted",
             "its checkpoints were deleted (" + std::to_string(freed) + " bytes freed); its metrics stay");
    return freed;
}

std::optional<RunStore::FreedCheckpoints> RunStore::checkpointsFreed(int64_t runId)
{
    // The latest deletion that left the run without checkpoints (a resumed run may have written new ones).
    Statement s(db_, "SELECT time, message FROM events WHERE run=? AND kind='checkpoints_deleted' "
                     "AND NOT EXISTS (SELECT 1 FROM checkpoints WHERE run=?) ORDER BY id DESC LIMIT 1");
    s.bind(1, runId).bind(2, runId);
    if (!s.step())
        return std::nullopt;
    FreedCheckpoints f;
    f.time = s.text(0);
    const std::string message = s.text(1); // "its checkpoints were deleted (N bytes freed); …"
    if (const auto open = message.find('('); open != std::string::npos)
        f.bytes = std::atoll(message.c_str() + open + 1);
    return f;
}

void RunStore::resolvePaths(RunRecord& run) const
{
    run.evaluationJson = withImagePaths(run.evaluationJson, true);
}

} // namespace entrena
