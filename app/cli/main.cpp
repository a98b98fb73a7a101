// entrena-cli: the headless engine. Links the engine only, never Qt.
#include "CliCommands.h"
#include "entrena/system/Runtime.h"

#include <cstring>
#include <string_view>

namespace {

/// Commands that train or measure nothing in this process: they read the store, or start the
/// processes that do (a sweep's trial server inherits the tuned environment).
bool computesHere(int argc, char** argv)
{
    if (argc < 2)
        return false;
    for (const std::string_view c : {"sweep", "experiments", "runs", "import", "clean", "version", "help",
                                     "config-keys", "cluster-script"})
        if (c == argv[1])
            return false;
    return true;
}

} // namespace

int main(int argc, char** argv)
{
    entrena::tuneProcess(argc, argv, computesHere(argc, argv));
    if (argc > 1 && std::strcmp(argv[1], "trial-server") == 0)
        return entrena::cli::trialServer(argc, argv);
    return entrena::cli::runCommandLine(argc, argv);
}
