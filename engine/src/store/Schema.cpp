#include "store/Schema.h"

#include "entrena/store/RunStore.h"
#include "store/MetricBlocks.h"

namespace entrena {
namespace {

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
    // 7: experiments (sweeps): their settings, and which runs are their trials.
    R"sql(
CREATE TABLE experiments (
    id INTEGER PRIMARY KEY,
    uuid TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    method TEXT NOT NULL,
    space TEXT NOT NULL,
    metric TEXT NOT NULL,
    status TEXT NOT NULL,
    created TEXT NOT NULL,
    base_config TEXT NOT NULL,
    settings TEXT NOT NULL DEFAULT '{}'
);
-- runs: the new status `pruned` (a CHECK constraint changes only by rebuilding the table; the
-- migration runs with foreign keys off, so nothing that refers to runs is touched).
CREATE TABLE runs_v7 (
    id INTEGER PRIMARY KEY,
    uuid TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('running','finished','stopped','failed','diverged','interrupted','pruned')),
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
    archived INTEGER NOT NULL DEFAULT 0,
    peak_memory_bytes REAL,
    final_val_loss REAL,
    data TEXT NOT NULL DEFAULT '',
    evaluation TEXT NOT NULL DEFAULT '',
    experiment INTEGER REFERENCES experiments(id) ON DELETE SET NULL,
    trial INTEGER
);
INSERT INTO runs_v7 (id, uuid, name, status, created, started, ended, config, environment, parent_run, notes, error, owner_pid, owner_host, heartbeat, best_val_accuracy, test_accuracy, final_train_loss, samples_per_s, seconds, archived, peak_memory_bytes, final_val_loss, data, evaluation) SELECT id, uuid, name, status, created, started, ended, config, environment, parent_run, notes, error, owner_pid, owner_host, heartbeat, best_val_accuracy, test_accuracy, final_train_loss, samples_per_s, seconds, archived, peak_memory_bytes, final_val_loss, data, evaluation FROM runs;
DROP TABLE runs;
ALTER TABLE runs_v7 RENAME TO runs;
CREATE INDEX runs_name ON runs(name);
CREATE INDEX runs_status ON runs(status);
CREATE INDEX runs_experiment ON runs(experiment);
)sql",
    // 8: the store's own id, which names its folder of run files (checkpoints/STORE-UUID/), so two
    // stores in one folder never share a file. Paths written from now on are relative to the
    // store's folder; older rows keep theirs and are resolved as before (StoreFiles.cpp).
    R"sql(
CREATE TABLE store (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
INSERT INTO store (key, value) VALUES ('uuid', lower(hex(randomblob(16))));
)sql",
};
static_assert(sizeof(kMigrations) / sizeof(kMigrations[0]) == RunStore::kSchemaVersion, "one migration per schema version");

} // namespace

const char* migrationSql(int fromVersion)
{
    return kMigrations[fromVersion];
}

} // namespace entrena
