// `entrena-cli import OTHER.sqlite` (docs/experiments.md, docs/run-store.md#files): another store's runs
// into this one, with their files copied; what could not be copied is named (--strict: exit 1).
#include "Commands.h"
#include "entrena/store/Import.h"
#include "entrena/store/RunStore.h"

#include <cstdio>

namespace entrena::cli {

int importStore(const CliOptions& o)
{
    RunStore store(o.db.empty() ? RunStore::defaultPath() : o.db);
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

} // namespace entrena::cli
