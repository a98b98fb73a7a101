// entrena-cli: the headless engine. Links the engine only, never Qt.
#include "CliCommands.h"
#include "CliOptions.h"
#include "entrena/Runtime.h"

#include <iostream>

int main(int argc, char** argv)
{
    entrena::tuneProcess(argc, argv);
    try {
        return entrena::cli::runCommand(entrena::cli::parseCommandLine(argc, argv));
    } catch (const entrena::cli::UsageError& e) {
        std::cerr << "entrena-cli: " << e.what() << "\n" << entrena::cli::kUsage;
        return 2;
    }
}
