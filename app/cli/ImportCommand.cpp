// `entrena-cli import OTHER.sqlite` (docs/experiments.md, docs/run-store.md#files): another store's runs
// into this one, with their files copied; what could not be copied is named (--strict: exit 1).
#include "Commands.h"
#include "entrena/store/Import.h"
#include "entrena/store/RunStore.h"

#include <cstdio>

namespace entrena::cli {
namespace {

struct ImportOptions {
    std::string source; ///< the other store
    std::string db;
    bool strict = false; ///< a file that could not be copied is a failure (exit 1)
};

int importStore(const ImportOptions& o)
{
    RunStore store(dbPath(o.db));
    const ImportResult r = importRuns(store, o.source);
    for (const std::string& file : r.missing)
        std::fprintf(stderr, "entrena-cli import: not copied: %s\n", file.c_str());
    std::printf("imported %d run(s) and %d experiment(s) from %s (%d already here)\n", r.runs, r.experiments, o.source.c_str(),
                r.skipped);
    if (!r.missing.empty())
        std::fprintf(stderr,
                     "entrena-cli import: %zu file(s) could not be copied; those runs' metrics are here, but not those "
                     "files%s\n",
                     r.missing.size(), o.strict ? " (--strict: exit status 1)" : "");
    return o.strict && !r.missing.empty() ? 1 : 0;
}

Runner declare(CLI::App& app)
{
    auto o = std::make_shared<ImportOptions>();
    app.add_option("source", o->source, "the other run store")->type_name("OTHER.sqlite");
    declareDb(app, o->db);
    flag(app, "--strict", o->strict,
         "exit with status 1 when a checkpoint or evaluation image could not be copied (each is named either way)");
    afterParse(app, [o] {
        if (o->source.empty())
            throw UsageError("import needs the other run store: entrena-cli import OTHER.sqlite", "import");
    });
    return [o](const Invocation&) { return importStore(*o); };
}

} // namespace

CommandInfo importCommand()
{
    return {"import", "OTHER.sqlite [--db FILE] [--strict]", "copy the runs of another run store into this one",
            "Runs, their metrics, events, checkpoints and experiments are added by their uuid: importing the same store "
            "twice adds nothing. Each run's checkpoint files and evaluation images are copied into its own folder beside "
            "this store and checked against their recorded checksums, so the runs resume and export after the other "
            "store is deleted; a file that cannot be copied is named on stderr. For runs made on a cluster node or "
            "another machine.",
            &declare};
}

} // namespace entrena::cli
