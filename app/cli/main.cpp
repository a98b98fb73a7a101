// entrena-cli: the headless engine. Links the engine only, never Qt.
#include "CliCommands.h"
#include "entrena/system/Runtime.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string_view>

namespace {

/// Commands that train or measure nothing in this process: they read the store, or start the
/// processes that do (a sweep's trial server inherits the tuned environment).
bool computesHere(int argc, char** argv)
{
    if (argc < 2)
        return false;
    for (const std::string_view c : {"sweep", "cv", "experiments", "runs", "import", "clean", "version", "help",
                                     "config-keys", "cluster-script"})
        if (c == argv[1])
            return false;
    return true;
}

/// Ends the process once its output is out. Its own objects are gone by now (the store closed with its
/// command); what is left are LibTorch's static registrations, whose destructors unregister every
/// operator one by one: 0.24 s of a 3 s cross-validation here (perf), paid again at every exit.
[[noreturn]] void finish(int code)
{
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    std::_Exit(code);
}

} // namespace

int main(int argc, char** argv)
{
    entrena::tuneProcess(argc, argv, computesHere(argc, argv));
    if (argc > 1 && std::strcmp(argv[1], "trial-server") == 0)
        finish(entrena::cli::trialServer(argc, argv));
    finish(entrena::cli::runCommandLine(argc, argv));
}
