// `entrena-cli clean` (docs/run-store.md#disk-use): runs' checkpoints deleted, their metrics kept.
#include "Commands.h"
#include "ErrorReport.h"
#include "entrena/store/RunStore.h"

#include <cstdio>
#include <set>

namespace entrena::cli {

std::string readableBytes(int64_t bytes)
{
    char text[32];
    const double b = double(bytes);
    if (b >= 1e9)
        std::snprintf(text, sizeof text, "%.2f GB", b / 1e9);
    else if (b >= 1e6)
        std::snprintf(text, sizeof text, "%.1f MB", b / 1e6);
    else if (b >= 1e3)
        std::snprintf(text, sizeof text, "%.1f kB", b / 1e3);
    else
        std::snprintf(text, sizeof text, "%lld B", (long long)bytes);
    return text;
}

namespace {

struct CleanOptions {
    std::vector<std::string> runs;
    bool archived = false;
    bool pruned = false;
    std::string db;
    bool dryRun = false;
};

int clean(const CleanOptions& o)
{
    RunStore store(o.db.empty() ? RunStore::defaultPath() : o.db);
    // The runs named, and every archived or pruned one asked for: each once.
    std::vector<RunRecord> chosen;
    std::set<int64_t> taken;
    for (const std::string& id : o.runs) {
        const auto run = store.findRun(id);
        if (!run) {
            reportError("no run '" + id + "' in " + store.path() + "; `entrena-cli runs` lists them");
            return 2;
        }
        if (taken.insert(run->id).second)
            chosen.push_back(*run);
    }
    if (o.archived || o.pruned) {
        std::set<int64_t> shown;
        for (const RunRecord& r : store.listRuns())
            shown.insert(r.id);
        RunFilter all;
        all.includeArchived = true;
        for (const RunRecord& r : store.listRuns(all))
            if (((o.archived && !shown.count(r.id)) || (o.pruned && r.status == RunStatus::Pruned)) && taken.insert(r.id).second)
                chosen.push_back(r);
    }
    int64_t bytes = 0;
    std::size_t files = 0;
    for (const RunRecord& r : chosen) {
        if (r.status == RunStatus::Running) {
            reportError("run " + std::to_string(r.id) + " is training; stop it before deleting its checkpoints");
            return 2;
        }
        bytes += store.checkpointBytes(r.id);
        files += store.checkpoints(r.id).size();
    }
    if (o.dryRun) {
        std::printf("would free %s: %zu checkpoint file(s) of %zu run(s); nothing was deleted\n", readableBytes(bytes).c_str(),
                    files, chosen.size());
        return 0;
    }
    int64_t freed = 0;
    for (const RunRecord& r : chosen)
        freed += store.freeCheckpoints(r.id);
    std::printf("freed %s: the checkpoints of %zu run(s); their metrics, charts and evaluation stay\n",
                readableBytes(freed).c_str(), chosen.size());
    return 0;
}

Runner declare(CLI::App& app)
{
    auto o = std::make_shared<CleanOptions>();
    texts(app, "--run", "RUN", o->runs, "a run (id or name) whose checkpoints go (repeatable)");
    flag(app, "--archived", o->archived, "every archived run's");
    flag(app, "--pruned", o->pruned, "every pruned trial's");
    declareDb(app, o->db);
    flag(app, "--dry-run", o->dryRun, "say what would be freed, delete nothing");
    afterParse(app, [o] {
        if (o->runs.empty() && !o->archived && !o->pruned)
            throw UsageError("clean needs --run RUN (repeatable), --archived or --pruned", "clean");
    });
    return [o](const Invocation&) { return clean(*o); };
}

} // namespace

CommandInfo cleanCommand()
{
    return {"clean", "[--run RUN]... [--archived] [--pruned] [--db FILE] [--dry-run]",
            "delete runs' checkpoints to free disk space, keeping their metrics",
            "At least one of --run, --archived and --pruned; together, the runs of each. The runs keep their metrics, "
            "events, evaluation and charts, and can be compared and reported; they can no longer be resumed or exported. "
            "Prints the bytes freed. A run that is training is refused (exit 2).",
            &declare};
}

} // namespace entrena::cli
