// `entrena-cli baseline` (docs/run-store.md#baselines): marks a run as its data set's baseline.
#include "Commands.h"
#include "entrena/store/Baseline.h"
#include "entrena/store/RunStore.h"

#include <iostream>

namespace entrena::cli {
namespace {

struct BaselineOptions {
    std::string run;
    std::string db;
    bool clear = false;
};

int baseline(const BaselineOptions& o)
{
    RunStore store(dbPath(o.db));
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

Runner declare(CLI::App& app)
{
    auto o = std::make_shared<BaselineOptions>();
    text(app, "--run", "RUN", o->run, "the run (id or name)");
    declareDb(app, o->db);
    flag(app, "--clear", o->clear, "stop the run being the baseline");
    afterParse(app, [o] {
        if (o->run.empty())
            throw UsageError("baseline needs --run RUN", "baseline");
    });
    return [o](const Invocation&) { return baseline(*o); };
}

} // namespace

CommandInfo baselineCommand()
{
    return {"baseline", "--run RUN [--db FILE] [--clear]", "mark a run as its data set's baseline",
            "Every other run of the data set is then compared with it: its speed-up and its change in accuracy "
            "('entrena-cli runs --json').",
            &declare};
}

} // namespace entrena::cli
