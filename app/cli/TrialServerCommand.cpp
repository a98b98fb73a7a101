// `entrena-cli trial-server --fd N`: started by a sweep, never by hand (docs/experiments.md, "How
// trials run"). Forks the trials from a process that has LibTorch and the data loaded.
#include "CliCommands.h"
#include "Commands.h"
#include "ErrorReport.h"
#include "entrena/config/Config.h"
#include "entrena/data/Preload.h"
#include "entrena/experiment/Sweep.h"

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

namespace entrena::cli {
int trialServer(int argc, char** argv)
{
    // Ctrl+C reaches the whole process group; the trials stop themselves, and need the server alive
    // for that (they die with it). serveTrials says so again; this covers the preload before it.
    std::signal(SIGINT, SIG_IGN);
    std::signal(SIGTERM, SIG_IGN);
    int fd = -1;
    std::string base;
    for (int i = 2; i + 1 < argc; i += 2) {
        if (std::strcmp(argv[i], "--fd") == 0)
            fd = std::atoi(argv[i + 1]);
        else if (std::strcmp(argv[i], "--config") == 0)
            base = argv[i + 1];
    }
    if (fd < 0) {
        reportError("trial-server is started by `entrena-cli sweep`, with the socket it serves (--fd N)");
        return 2;
    }
    // The trials' data, read once here instead of once in every trial. Reading only: the first
    // computation would start LibTorch's thread pool, which a forked trial cannot use.
    try {
        if (!base.empty())
            preloadDataFiles(RunConfig::fromFile(base).data);
    } catch (const std::exception&) {
        // The trials report a bad configuration themselves.
    }
    const std::string program = argv[0];
    return serveTrials(fd, [&](const std::vector<std::string>& args) {
        std::vector<char*> line{const_cast<char*>(program.c_str())};
        for (const auto& a : args)
            line.push_back(const_cast<char*>(a.c_str()));
        line.push_back(nullptr);
        const int code = runCommandLine(int(args.size() + 1), line.data());
        std::cout.flush();
        return code;
    });
}

} // namespace entrena::cli
