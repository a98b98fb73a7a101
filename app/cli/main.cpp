// entrena-cli: the headless engine. Links the engine only, never Qt.
#include "CliCommands.h"
#include "CliOptions.h"
#include "ErrorReport.h"
#include "entrena/system/Runtime.h"

#include <iostream>

int main(int argc, char** argv)
{
    entrena::tuneProcess(argc, argv);
    try {
        return entrena::cli::runCommand(entrena::cli::parseCommandLine(argc, argv));
    } catch (const entrena::cli::UsageError& e) {
        entrena::cli::reportError(e.what());
        std::cerr << entrena::cli::usageAfterError(e.command());
        return 2;
    }
}
