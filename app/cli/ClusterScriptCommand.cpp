// `entrena-cli cluster-script` (docs/distributed.md): the torchrun line and sbatch script for a
// configuration, or (with --space) a Slurm job array of a sweep's shards.
#include "Commands.h"
#include "entrena/config/Config.h"
#include "entrena/dist/Launcher.h"
#include "entrena/store/AtomicFile.h"

#include <algorithm>
#include <filesystem>
#include <iostream>

namespace entrena::cli {
namespace {

namespace fs = std::filesystem;

/// The torchrun line and sbatch script for a configuration, to copy to a cluster.
int clusterScript(const ClusterScriptOptions& o)
{
    if (!o.space.empty())
        return clusterSweepScript(o);
    if (o.folds > 0)
        return clusterCrossValidationScript(o);
    const RunConfig config = RunConfig::fromFile(o.config, o.sets); // refuses a bad one here, not on the cluster
    const bool gpus = config.devices.type == DeviceType::Cuda;
    const int perNode = o.nproc > 0 ? o.nproc : gpus ? std::max<int>(1, int(config.devices.ids.size())) : 1;
    const ClusterLaunch l =
        clusterLaunch(fs::absolute(o.config).string(), o.nodes, perNode, gpus, config.name.empty() ? "entrena" : config.name);
    if (o.out.empty()) {
        std::cout << "# on every node (torchrun):\n" << l.torchrun << "\n\n# or submit this with sbatch:\n" << l.sbatch;
        return 0;
    }
    AtomicFile file(o.out);
    file.write(l.sbatch);
    file.commit();
    fs::permissions(o.out, fs::perms::owner_exec | fs::perms::group_exec, fs::perm_options::add);
    std::cout << "wrote " << o.out << " (submit with: sbatch " << o.out << ")\n" << l.torchrun << "\n";
    return 0;
}

Runner declare(CLI::App& app)
{
    auto o = std::make_shared<ClusterScriptOptions>();
    declareConfig(app, *o);
    whole(app, "--nodes", "N", o->nodes, 1, "machines (default 1); with --space, the job array's tasks");
    text(app, "--space", "SPACE.json", o->space,
         "a sweep instead: a Slurm job array whose N tasks each run their share of the trials into a store of their own, "
         "to import afterwards");
    whole(app, "--cv", "K", o->folds, 2,
          "k-fold cross-validation instead: a Slurm job array of K tasks, one fold each, into stores that import into "
          "one experiment");
    text(app, "--method", "METHOD", o->method, "with --space: grid or random (default random)");
    whole(app, "--trials", "N", o->trials, 1, "with --space: trials in all (default 10; grid: every combination)");
    whole(app, "--nproc", "N", o->nproc, 1, "ranks per machine (default: one per listed GPU, or 1)");
    text(app, "--out", "FILE", o->out, "write the sbatch script here (made executable) instead of printing it");
    afterParse(app, [o] {
        if (o->config.empty())
            throw UsageError("cluster-script needs --config FILE", "cluster-script");
        if (!o->space.empty() && o->folds > 0)
            throw UsageError("--cv and --space are two kinds of job array: give one", "cluster-script");
    });
    return [o](const Invocation&) { return clusterScript(*o); };
}

} // namespace

CommandInfo clusterScriptCommand()
{
    return {"cluster-script",
            "--config FILE [--set k=v]... [--nodes N] [--nproc RANKS_PER_NODE] [--out FILE.sbatch] [--space SPACE.json "
            "[--method grid|random] [--trials N] | --cv K]",
            "the torchrun line and a Slurm sbatch script for a configuration, or a job array for a sweep",
            "The configuration is checked first: a bad one exits 2 and writes nothing.", &declare};
}

} // namespace entrena::cli
