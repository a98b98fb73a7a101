// Every command of entrena-cli, one line each, in the order the overview and docs/cli.md list
// them. ENTRENA_COMMAND(x) names the function `CommandInfo xCommand()` that the command's own file
// defines (TrainCommand.cpp, …); adding a command is that file and a line here.
// No include guard: the command table includes this list to declare and to list the functions.
ENTRENA_COMMAND(train)
ENTRENA_COMMAND(lrFind)
ENTRENA_COMMAND(batchFind)
ENTRENA_COMMAND(runs)
ENTRENA_COMMAND(clean)
ENTRENA_COMMAND(baseline)
ENTRENA_COMMAND(export)
ENTRENA_COMMAND(predict)
ENTRENA_COMMAND(devices)
ENTRENA_COMMAND(clusterScript)
ENTRENA_COMMAND(sweep)
ENTRENA_COMMAND(crossValidation)
ENTRENA_COMMAND(experiments)
ENTRENA_COMMAND(import)
ENTRENA_COMMAND(configKeys)
// A build may add its own (tests/app/cli/ adds one to show that a command is a file and a line).
#ifdef ENTRENA_EXTRA_COMMANDS
#include ENTRENA_EXTRA_COMMANDS
#endif
