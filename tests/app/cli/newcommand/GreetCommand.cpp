// A command that Entrena does not have, added as docs/architecture.md says a command is added: this
// file, and its line in ExtraCommands.h (standing for app/cli/CommandList.h). tst_new_command checks
// that the program lists it, explains it, completes it, runs it and refuses its mistakes.
#include "Commands.h"

#include <cstdio>

namespace entrena::cli {
namespace {

struct GreetOptions {
    std::string name;
    int times = 1;
    bool json = false;
};

int greet(const GreetOptions& o)
{
    for (int i = 0; i < o.times; ++i)
        if (o.json)
            std::printf("%s\n", nlohmann::json{{"event", "greeting"}, {"name", o.name}}.dump().c_str());
        else
            std::printf("hello, %s\n", o.name.c_str());
    return 0;
}

Runner declare(CLI::App& app)
{
    auto o = std::make_shared<GreetOptions>();
    text(app, "--name", "NAME", o->name, "who is greeted");
    whole(app, "--times", "N", o->times, 1, "how many times (default 1)");
    declareJson(app, o->json);
    afterParse(app, [o] {
        if (o->name.empty())
            throw UsageError("greet needs --name NAME", "greet");
    });
    return [o](const Invocation&) { return greet(*o); };
}

} // namespace

CommandInfo greetCommand()
{
    return {"greet", "--name NAME [--times N] [--json]", "say hello", "A command added from a file of its own.", &declare};
}

} // namespace entrena::cli
