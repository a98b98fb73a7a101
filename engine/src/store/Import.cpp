#include "entrena/store/Import.h"

#include "entrena/store/Checkpoints.h"
#include "entrena/store/RunStore.h"
#include "store/MetricBlocks.h"
#include "store/Sqlite.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>

namespace entrena {

namespace fs = std::filesystem;
using sqlite::Statement;
using sqlite::Transaction;

namespace {

/// What a run's file must be to be copied in: a checkpoint is a PyTorch archive (a ZIP file), an
/// evaluation image a PNG.
enum class FileKind { Checkpoint, Png };

bool startsWith(const fs::path& file, const std::string& magic)
{
    std::ifstream in(file, std::ios::binary);
    std::string head(magic.size(), '\0');
    return in.read(head.data(), std::streamsize(head.size())) && head == magic;
}

/// Why `file` is not copied from the other store ("" when it may be, with `real` its resolved path):
/// a store from elsewhere is not trusted, so only files inside its own files' folder (`from`, the
/// canonical checkpoints/ beside it; `..` and symbolic links resolved) that are what their rows say
/// are taken. Anything else the user can read (an SSH key, a document beside the store) would be
/// copied into this store and travel on with it.
std::string refusal(const std::string& file, const fs::path& from, FileKind kind, fs::path& real)
{
    std::error_code ec;
    if (!fs::exists(file, ec))
        return "not found";
    real = fs::canonical(file, ec);
    if (ec)
        return "cannot be read: " + ec.message();
    const auto rel = real.lexically_relative(from);
    if (from.empty() || rel.empty() || rel.native().rfind("..", 0) == 0)
        return "outside the other store's folder " + from.parent_path().string() + ": not copied";
    if (!fs::is_regular_file(real, ec))
        return "not a file: not copied";
    if (kind == FileKind::Checkpoint ? !startsWith(real, std::string("PK\x03\x04", 4)) : !startsWith(real, "\x89PNG\r\n\x1a\n"))
        return std::string("not ") + (kind == FileKind::Checkpoint ? "a checkpoint archive" : "a PNG image") + ": not copied";
    return "";
}

/// Copies `file` into `folder` and checks the copy against `checksum` (when recorded). Returns the
/// copy's path, or nothing, with the reason added to `missing`, when there is no sound copy.
std::optional<std::string> copyRunFile(const std::string& file, const fs::path& from, FileKind kind, const fs::path& folder,
                                       const std::string& checksum, std::vector<std::string>& missing)
{
    fs::path real;
    if (const std::string why = refusal(file, from, kind, real); !why.empty()) {
        missing.push_back(file + " (" + why + ")");
        return std::nullopt;
    }
    std::error_code ec;
    const fs::path to = folder / fs::path(file).filename();
    fs::create_directories(folder, ec);
    if (!ec)
        fs::copy_file(real, to, fs::copy_options::overwrite_existing, ec); // the path checked, not resolved again
    if (ec) {
        missing.push_back(file + " (cannot copy it to " + to.string() + ": " + ec.message() + ")");
        return std::nullopt;
    }
    if (!checksum.empty() && fileChecksum(to.string()) != checksum) {
        fs::remove(to, ec);
        missing.push_back(file + " (damaged: its checksum does not match the one recorded)");
        return std::nullopt;
    }
    return to.string();
}

/// The evaluation's images copied into `folder`, and the evaluation naming the copies.
/// An image that is not copied is named in `missing` and dropped from the evaluation.
std::string copyImages(const std::string& evaluationJson, const fs::path& from, const fs::path& folder,
                       std::vector<std::string>& missing)
{
    try {
        auto j = nlohmann::json::parse(evaluationJson);
        if (!j.contains("wrong") || !j["wrong"].is_array())
            return evaluationJson;
        for (auto& w : j["wrong"])
            if (w.contains("image") && w["image"].is_string() && !w["image"].get<std::string>().empty()) {
                if (auto copied = copyRunFile(w["image"].get<std::string>(), from, FileKind::Png, folder, "", missing))
                    w["image"] = *copied;
                else
                    w.erase("image");
            }
        return j.dump();
    } catch (const nlohmann::json::exception&) {
        return evaluationJson;
    }
}

/// The other store's experiments that this one lacks (by uuid), copied; every one's id here, by its id there.
std::map<int64_t, int64_t> importExperiments(sqlite3* db, ImportResult& result)
{
    std::map<int64_t, int64_t> ids;
    Statement s(db, "SELECT id, uuid FROM other.experiments");
    while (s.step()) {
        Statement mine(db, "SELECT id FROM experiments WHERE uuid=?");
        mine.bind(1, s.text(1));
        if (mine.step()) {
            ids[s.integer(0)] = mine.integer(0);
            continue;
        }
        Statement copy(db, "INSERT INTO experiments (uuid, name, method, space, metric, status, created, "
                           "base_config, settings) SELECT uuid, name, method, space, metric, status, created, "
                           "base_config, settings FROM other.experiments WHERE id=?");
        copy.bind(1, s.integer(0));
        copy.step();
        ids[s.integer(0)] = sqlite3_last_insert_rowid(db);
        ++result.experiments;
    }
    return ids;
}

/// Copies the other store's run `old` with its metrics, events and tags; returns its id here. A run
/// that was running there is interrupted here.
int64_t importRunRows(sqlite3* db, int64_t old)
{
    Statement copy(db, "INSERT INTO runs (uuid, name, status, created, started, ended, config, environment, "
                       "notes, error, best_val_accuracy, test_accuracy, final_train_loss, samples_per_s, seconds, "
                       "archived, peak_memory_bytes, final_val_loss, data, evaluation, trial) "
                       "SELECT uuid, name, CASE status WHEN 'running' THEN 'interrupted' ELSE status END, created, "
                       "started, ended, config, environment, notes, error, best_val_accuracy, test_accuracy, "
                       "final_train_loss, samples_per_s, seconds, archived, peak_memory_bytes, final_val_loss, "
                       "data, evaluation, trial FROM other.runs WHERE id=?");
    copy.bind(1, old);
    copy.step();
    const int64_t id = sqlite3_last_insert_rowid(db);
    for (const char* sql :
         {"INSERT INTO metrics (run, key, step, epoch, wall_time, value) SELECT ?1, key, step, epoch, wall_time, "
          "value FROM other.metrics WHERE run=?2",
          "INSERT INTO events (run, step, time, kind, message) SELECT ?1, step, time, kind, message FROM "
          "other.events WHERE run=?2",
          "INSERT INTO tags (run, tag) SELECT ?1, tag FROM other.tags WHERE run=?2"}) {
        Statement rows(db, sql);
        rows.bind(1, id).bind(2, old);
        rows.step();
    }
    return id;
}

} // namespace

void RunStore::importRunFiles(RunStore& other, const std::string& from, int64_t old, int64_t id, ImportResult& result)
{
    // Checkpoints and evaluation images: copied into this run's own folder here, so the run resumes
    // and exports when the other store is gone (found wherever the other store keeps them: resolved
    // by it, as any reader of it would).
    const fs::path folder = runFolder(id);
    Statement ck(db_, "SELECT step, epoch, path, metric, is_best, bytes, checksum FROM other.checkpoints WHERE run=? ORDER BY id");
    ck.bind(1, old);
    while (ck.step()) {
        const std::string checksum = ck.text(6);
        const auto copied = copyRunFile(other.resolvePath(ck.text(2)), from, FileKind::Checkpoint, folder, checksum, result.missing);
        if (!copied)
            continue; // nothing recorded for a file that was not copied
        Statement add(db_, "INSERT INTO checkpoints (run, step, epoch, path, metric, is_best, bytes, checksum) "
                           "VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
        add.bind(1, id).bind(2, ck.integer(0)).bind(3, ck.integer(1)).bind(4, storedPath(*copied)).bind(5, ck.optReal(3));
        add.bind(6, ck.integer(4)).bind(7, ck.integer(5)).bind(8, checksum);
        add.step();
    }
    if (const auto run = other.findRun(std::to_string(old)); run && !run->evaluationJson.empty()) {
        Statement set(db_, "UPDATE runs SET evaluation=? WHERE id=?");
        set.bind(1, withImagePaths(copyImages(run->evaluationJson, from, folder, result.missing), false)).bind(2, id);
        set.step();
    }
}

ImportResult RunStore::importFrom(const std::string& otherPath)
{
    requireWritable("import runs");
    std::error_code same;
    if (fs::equivalent(otherPath, path_, same))
        throw StoreError("'" + otherPath + "' is this run store itself; import another one");
    RunStore other(otherPath); // migrated to this schema, or refused when newer; resolves its own paths
    std::error_code ec;
    // Where the other store keeps its files (docs/run-store.md#files), links resolved.
    const std::string from = fs::canonical(fs::absolute(otherPath).parent_path() / "checkpoints", ec).string();
    flushLocked();
    ImportResult result;
    {
        // As the other store reads itself: read-only media and a private copy of an older schema included.
        Statement attach(db_, "ATTACH DATABASE ? AS other");
        attach.bind(1, other.readUri());
        attach.step();
    }
    try {
        Transaction t(db_);
        // Experiments first, by uuid; then runs, mapping the other store's ids to this one's.
        const std::map<int64_t, int64_t> experimentIds = importExperiments(db_, result);
        std::map<int64_t, int64_t> runIds;
        Statement runs(db_, "SELECT id, uuid FROM other.runs ORDER BY id");
        while (runs.step()) {
            const int64_t old = runs.integer(0);
            Statement mine(db_, "SELECT id FROM runs WHERE uuid=?");
            mine.bind(1, runs.text(1));
            if (mine.step()) {
                runIds[old] = mine.integer(0);
                ++result.skipped;
                continue;
            }
            const int64_t id = importRunRows(db_, old);
            runIds[old] = id;
            ++result.runs;
            importRunFiles(other, from, old, id, result);
        }
        // Links between runs and to experiments, in this store's ids.
        Statement links(db_, "SELECT id, COALESCE(parent_run, 0), COALESCE(experiment, 0) FROM other.runs");
        while (links.step()) {
            const int64_t id = runIds[links.integer(0)];
            if (const int64_t parent = links.integer(1); parent && runIds.count(parent))
                setParentRun(id, runIds[parent]);
            if (const int64_t e = links.integer(2); e && experimentIds.count(e)) {
                Statement set(db_, "UPDATE runs SET experiment=? WHERE id=?");
                set.bind(1, experimentIds.at(e)).bind(2, id);
                set.step();
            }
        }
        blocks_->rebuild(db_, 0);
        t.commit();
    } catch (...) {
        sqlite3_exec(db_, "DETACH DATABASE other", nullptr, nullptr, nullptr);
        throw;
    }
    sqlite3_exec(db_, "DETACH DATABASE other", nullptr, nullptr, nullptr);
    return result;
}

ImportResult importRuns(RunStore& store, const std::string& otherPath)
{
    return store.importFrom(otherPath);
}

} // namespace entrena
