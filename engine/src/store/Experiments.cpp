// The run store's experiments: a sweep's record, and the edits it makes to its trials' runs.
#include "entrena/store/RunStore.h"
#include "store/RunRows.h"
#include "store/Sqlite.h"
#include "store/StoreStamps.h"

namespace entrena {
namespace {

using sqlite::Statement;

const char* kExperimentColumns = "id, uuid, name, method, space, metric, status, created, base_config, settings";

ExperimentRecord readExperiment(const Statement& s)
{
    return {s.integer(0), s.text(1), s.text(2), s.text(3), s.text(4), s.text(5), s.text(6), s.text(7), s.text(8), s.text(9)};
}

} // namespace

int64_t RunStore::createExperiment(const ExperimentRecord& e)
{
    requireWritable("start an experiment");
    Statement s(db_, "INSERT INTO experiments (uuid, name, method, space, metric, status, created, base_config, settings) "
                     "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
    s.bind(1, e.uuid.empty() ? newUuid() : e.uuid).bind(2, e.name).bind(3, e.method).bind(4, e.spaceJson);
    s.bind(5, e.metric).bind(6, e.status.empty() ? std::string("running") : e.status);
    s.bind(7, e.created.empty() ? isoNow() : e.created).bind(8, e.baseConfigJson).bind(9, e.settingsJson);
    s.step();
    return sqlite3_last_insert_rowid(db_);
}

std::optional<ExperimentRecord> RunStore::findExperiment(const std::string& idOrName)
{
    const bool numeric = !idOrName.empty() && idOrName.find_first_not_of("0123456789") == std::string::npos;
    if (numeric) {
        Statement s(db_, (std::string("SELECT ") + kExperimentColumns + " FROM experiments WHERE id=?").c_str());
        s.bind(1, int64_t(std::stoll(idOrName)));
        if (s.step())
            return readExperiment(s);
    }
    Statement s(
        db_, (std::string("SELECT ") + kExperimentColumns + " FROM experiments WHERE name=? ORDER BY id DESC LIMIT 1").c_str());
    s.bind(1, idOrName);
    if (s.step())
        return readExperiment(s);
    return std::nullopt;
}

std::vector<ExperimentRecord> RunStore::listExperiments()
{
    Statement s(db_, (std::string("SELECT ") + kExperimentColumns + " FROM experiments ORDER BY id").c_str());
    std::vector<ExperimentRecord> out;
    while (s.step())
        out.push_back(readExperiment(s));
    return out;
}

void RunStore::setExperimentStatus(int64_t experimentId, const std::string& status)
{
    Statement s(db_, "UPDATE experiments SET status=? WHERE id=?");
    s.bind(1, status).bind(2, experimentId);
    s.step();
}

void RunStore::setTrial(int64_t runId, int64_t experimentId, int64_t trial)
{
    Statement s(db_, "UPDATE runs SET experiment=?, trial=? WHERE id=?");
    s.bind(1, experimentId).bind(2, trial).bind(3, runId);
    s.step();
}

std::vector<RunRecord> RunStore::trialsOf(int64_t experimentId)
{
    Statement s(db_, (std::string("SELECT ") + kRunColumns + " FROM runs WHERE experiment=? ORDER BY trial, id").c_str());
    s.bind(1, experimentId);
    std::vector<RunRecord> out;
    while (s.step()) {
        out.push_back(readRun(s));
        resolvePaths(out.back());
    }
    return out;
}

void RunStore::setRunStatus(int64_t runId, RunStatus status)
{
    Statement s(db_, "UPDATE runs SET status=? WHERE id=?");
    s.bind(1, std::string(toString(status))).bind(2, runId);
    s.step();
}

void RunStore::setRunConfig(int64_t runId, const std::string& configJson)
{
    Statement s(db_, "UPDATE runs SET config=? WHERE id=?");
    s.bind(1, configJson).bind(2, runId);
    s.step();
}

void RunStore::setParentRun(int64_t runId, int64_t parentRunId)
{
    Statement s(db_, "UPDATE runs SET parent_run=? WHERE id=?");
    s.bind(1, parentRunId).bind(2, runId);
    s.step();
}

} // namespace entrena
