// `entrena-cli baseline` (docs/run-store.md#baselines): marks a run as its data set's baseline.
#include "Commands.h"
#include "entrena/store/Baseline.h"
#include "entrena/store/RunStore.h"

#include <iostream>

namespace entrena::cli {
int baseline(const CliOptions& o)
{
    RunStore store(dbPath(o));
    const auto run = store.findRun(o.run);
    if (!run)
        throw UsageError("no run '" + o.run + "' in " + store.path(), "baseline");
    if (o.clear) {
        store.clearBaseline(run->id);
        std::cout << "run " << run->id << " is no longer a baseline\n";
    } else {
        store.setBaseline(run->id);
        std::cout << "run " << run->id << " is the baseline of " << datasetKey(run->configJson) << "\n";
    }
    return 0;
}

CommandInfo baselineCommand()
{
    return {"baseline",
            "--run RUN [--db FILE] [--clear]",
            "mark a run as its data set's baseline",
            {{"--run", "RUN", "the run (id or name)"}, kDb, {"--clear", nullptr, "stop the run being the baseline"}},
            "Every other run of the data set is then compared with it: its speed-up and its change in accuracy "
            "('entrena-cli runs --json').",
            &baseline};
}

} // namespace entrena::cli
