// entrena-cli's dispatch: a parsed command line to the handler its command-table row names
// (CliOptions.cpp), and the contract's exit statuses for what the handlers throw.
#include "CliCommands.h"

#include "Commands.h"
#include "ErrorReport.h"
#include "entrena/experiment/SearchSpace.h"
#include "entrena/export/Predict.h"
#include "entrena/store/RunStore.h"
#include "entrena/store/StoreError.h"
#include "entrena/system/Version.h"

#include <iostream>

namespace entrena::cli {

int runCommandLine(int argc, char** argv)
{
    try {
        return runCommand(parseCommandLine(argc, argv));
    } catch (const UsageError& e) {
        reportError(e.what());
        std::cerr << usageAfterError(e.command());
        return 2;
    }
}

int runCommand(const ParsedCommand& o)
{
    try {
        if (o.command == "help") {
            const CommandInfo* command = findCommand(o.helpFor);
            std::cout << (command ? commandHelp(*command) : overview());
            return 0;
        }
        if (o.command == "version") {
            std::cout << "entrena-cli " << kVersion << "\n";
            return 0;
        }
        if (o.run)
            return o.run(o.invocation);
        throw UsageError("unknown command '" + o.command + "'");
    } catch (const SpaceError& e) {
        reportError(std::string("bad search space: ") + e.what());
        return 2;
    } catch (const ConfigError& e) {
        reportError(std::string("bad configuration: ") + e.what());
        return 2;
    } catch (const StoreError& e) {
        reportError(e.what());
        return 2;
    } catch (const PredictInputError& e) {
        reportError(e.what());
        return 2;
    } catch (const UsageError& e) {
        reportError(e.what());
        std::cerr << usageAfterError(e.command().empty() ? o.command : e.command());
        return 2;
    } catch (const std::exception& e) {
        reportError(e.what());
        return 1;
    }
}

} // namespace entrena::cli
