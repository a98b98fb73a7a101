#include "Declare.h"

#include "entrena/store/RunStore.h"

namespace entrena::cli {

namespace {

/// The command whose options `app` holds, for the message of a bad value.
std::string commandOf(const CLI::App& app)
{
    return app.get_name();
}

int64_t parseWhole(const CLI::App& app, const std::string& option, const std::string& value, int64_t least)
{
    try {
        size_t used = 0;
        const long long v = std::stoll(value, &used);
        if (used == value.size() && v >= least)
            return v;
    } catch (const std::exception&) {
    }
    throw UsageError(option + " needs a whole number of at least " + std::to_string(least) + ", got '" + value + "'",
                     commandOf(app));
}

} // namespace

CLI::Option* text(CLI::App& app, const std::string& name, const std::string& value, std::string& into, const std::string& help)
{
    return app.add_option(name, into, help)->type_name(value);
}

CLI::Option* texts(CLI::App& app, const std::string& name, const std::string& value, std::vector<std::string>& into,
                   const std::string& help)
{
    // One value per occurrence: `--set a=1 b.png` leaves b.png to what follows.
    return app.add_option(name, into, help)
        ->type_name(value)
        ->allow_extra_args(false)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
}

CLI::Option* flag(CLI::App& app, const std::string& name, bool& into, const std::string& help)
{
    return app.add_flag(name, into, help); // a value given to it is refused before CLI11 reads it (CliOptions.cpp)
}

CLI::Option* custom(CLI::App& app, const std::string& name, const std::string& value,
                    std::function<void(const std::string&)> assign, const std::string& help)
{
    return app.add_option_function<std::string>(name, std::move(assign), help)->type_name(value);
}

CLI::Option* whole(CLI::App& app, const std::string& name, const std::string& value, int64_t& into, int64_t least,
                   const std::string& help)
{
    return custom(
        app, name, value, [&app, name, &into, least](const std::string& v) { into = parseWhole(app, name, v, least); }, help);
}

CLI::Option* whole(CLI::App& app, const std::string& name, const std::string& value, int& into, int64_t least,
                   const std::string& help)
{
    return custom(
        app, name, value, [&app, name, &into, least](const std::string& v) { into = int(parseWhole(app, name, v, least)); },
        help);
}

CLI::Option* positive(CLI::App& app, const std::string& name, const std::string& value, double& into, const std::string& help)
{
    const auto assign = [&app, name, &into](const std::string& v) {
        try {
            size_t used = 0;
            const double d = std::stod(v, &used);
            if (used == v.size() && d > 0) {
                into = d;
                return;
            }
        } catch (const std::exception&) {
        }
        throw UsageError(name + " needs a positive number such as 1e-6, got '" + v + "'", commandOf(app));
    };
    return custom(app, name, value, assign, help);
}

void declareConfig(CLI::App& app, ConfigOptions& into, const char* configValue, const char* configHelp)
{
    text(app, "--config", configValue, into.config,
         configHelp ? configHelp
                    : "the run configuration (JSON): 'entrena-cli config-keys' lists every key, "
                      "configuration.md in the documentation explains them");
    texts(app, "--set", "KEY=VALUE", into.sets, "override one configuration key, e.g. --set optimizer.lr=0.01 (repeatable)");
}

CLI::Option* declareDb(CLI::App& app, std::string& into)
{
    return text(app, "--db", "FILE", into, "the run store (default: $XDG_DATA_HOME/entrena/runs.sqlite)");
}

CLI::Option* declareJson(CLI::App& app, bool& into)
{
    return flag(app, "--json", into, "one JSON object per line on stdout instead of text");
}

std::string dbPath(const std::string& db)
{
    return db.empty() ? RunStore::defaultPath() : db;
}

void afterParse(CLI::App& app, std::function<void()> check)
{
    app.callback(std::move(check));
}

} // namespace entrena::cli
