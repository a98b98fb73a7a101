#include "entrena/store/Import.h"

#include "entrena/store/RunStore.h"
#include "store/MetricBlocks.h"
#include "store/Sqlite.h"

#include <filesystem>
#include <map>

namespace entrena {

namespace fs = std::filesystem;
using sqlite::Statement;
using sqlite::Transaction;

ImportResult RunStore::importFrom(const std::string& otherPath)
{
    std::error_code ec;
    if (fs::equivalent(otherPath, path_, ec))
        throw StoreError("'" + otherPath + "' is this run store itself; import another one");
    {
        RunStore other(otherPath);
    } // migrated to this schema, or refused when newer
    flushLocked();
    ImportResult result;
    {
        Statement attach(db_, "ATTACH DATABASE ? AS other");
        attach.bind(1, otherPath);
        attach.step();
    }
    try {
        Transaction t(db_);
        // Experiments first, by uuid; then runs, mapping the other store's ids to this one's.
        std::map<int64_t, int64_t> experimentIds, runIds;
        {
            Statement s(db_, "SELECT id, uuid FROM other.experiments");
            while (s.step()) {
                Statement mine(db_, "SELECT id FROM experiments WHERE uuid=?");
                mine.bind(1, s.text(1));
                if (mine.step()) {
                    experimentIds[s.integer(0)] = mine.integer(0);
                    continue;
                }
                Statement copy(db_, "INSERT INTO experiments (uuid, name, method, space, metric, status, created, "
                                    "base_config, settings) SELECT uuid, name, method, space, metric, status, created, "
                                    "base_config, settings FROM other.experiments WHERE id=?");
                copy.bind(1, s.integer(0));
                copy.step();
                experimentIds[s.integer(0)] = sqlite3_last_insert_rowid(db_);
                ++result.experiments;
            }
        }
        const fs::path checkpointDir = fs::path(path_).parent_path() / "checkpoints";
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
            Statement copy(db_, "INSERT INTO runs (uuid, name, status, created, started, ended, config, environment, "
                                "notes, error, best_val_accuracy, test_accuracy, final_train_loss, samples_per_s, seconds, "
                                "archived, peak_memory_bytes, final_val_loss, data, evaluation, trial) "
                                "SELECT uuid, name, CASE status WHEN 'running' THEN 'interrupted' ELSE status END, created, "
                                "started, ended, config, environment, notes, error, best_val_accuracy, test_accuracy, "
                                "final_train_loss, samples_per_s, seconds, archived, peak_memory_bytes, final_val_loss, "
                                "data, evaluation, trial FROM other.runs WHERE id=?");
            copy.bind(1, old);
            copy.step();
            const int64_t id = sqlite3_last_insert_rowid(db_);
            runIds[old] = id;
            ++result.runs;
            for (const char* sql :
                 {"INSERT INTO metrics (run, key, step, epoch, wall_time, value) SELECT ?1, key, step, epoch, wall_time, "
                  "value FROM other.metrics WHERE run=?2",
                  "INSERT INTO events (run, step, time, kind, message) SELECT ?1, step, time, kind, message FROM "
                  "other.events WHERE run=?2",
                  "INSERT INTO tags (run, tag) SELECT ?1, tag FROM other.tags WHERE run=?2"}) {
                Statement rows(db_, sql);
                rows.bind(1, id).bind(2, old);
                rows.step();
            }
            // Checkpoints: the files beside this store, so the run can be resumed and exported here.
            Statement ck(db_, "SELECT step, epoch, path, metric, is_best, bytes, checksum FROM other.checkpoints "
                              "WHERE run=? ORDER BY id");
            ck.bind(1, old);
            while (ck.step()) {
                std::string file = ck.text(2);
                fs::path from = fs::path(file).is_absolute() ? fs::path(file) : fs::path(otherPath).parent_path() / file;
                if (fs::exists(from, ec)) {
                    const fs::path to = checkpointDir / ("run-" + std::to_string(id)) / from.filename();
                    fs::create_directories(to.parent_path());
                    if (!fs::equivalent(from, to, ec)) // two stores in one folder share its checkpoints/
                        fs::copy_file(from, to, fs::copy_options::overwrite_existing);
                    file = to.string();
                }
                Statement add(db_, "INSERT INTO checkpoints (run, step, epoch, path, metric, is_best, bytes, checksum) "
                                   "VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
                add.bind(1, id).bind(2, ck.integer(0)).bind(3, ck.integer(1)).bind(4, file).bind(5, ck.optReal(3));
                add.bind(6, ck.integer(4)).bind(7, ck.integer(5)).bind(8, ck.text(6));
                add.step();
            }
        }
        // Links between runs and to experiments, in this store's ids.
        Statement links(db_, "SELECT id, COALESCE(parent_run, 0), COALESCE(experiment, 0) FROM other.runs");
        while (links.step()) {
            const int64_t id = runIds[links.integer(0)];
            if (const int64_t parent = links.integer(1); parent && runIds.count(parent))
                setParentRun(id, runIds[parent]);
            if (const int64_t e = links.integer(2); e && experimentIds.count(e)) {
                Statement set(db_, "UPDATE runs SET experiment=? WHERE id=?");
                set.bind(1, experimentIds[e]).bind(2, id);
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
