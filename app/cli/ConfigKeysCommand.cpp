// `entrena-cli config-keys`: every configuration key with its default, or (--markdown) the
// registries as the tables of configuration.md.
#include "Commands.h"
#include "entrena/config/Registry.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

namespace entrena::cli {
namespace {

/// Every key a configuration takes, with its default: the union of what the default configuration
/// writes under each choice that adds keys of its own, so the list follows RunConfig::toJson.
/// One registry as a table of configuration.md: a row per entry, with its own keys and defaults.
template <class Entries, class What>
void registryTable(const char* title, const std::string& section, const char* selector, const Entries& entries, What what)
{
    std::printf("#### %s (`%s`)\n\n| `%s` | what it is | its keys (default) |\n|---|---|---|\n", title, selector, selector);
    const auto catalog = configKeyCatalog();
    for (const auto& e : entries) {
        std::string keys;
        for (const ConfigKeyInfo& k : catalog) {
            if (k.section != section || k.entry != e.name)
                continue;
            keys += (keys.empty() ? "`" : ", `") + k.key.substr(section.size() + 1) + "` (" +
                    (k.defaultDoc.empty() ? "`" + k.defaultValue + "`" : k.defaultDoc) + ")";
        }
        std::printf("| `%s` | %s | %s |\n", e.name, what(e).c_str(), keys.empty() ? "—" : keys.c_str());
    }
    std::printf("\n");
}

/// The precisions as a table of configuration.md: what each computes in, and what else it does.
void precisionTable()
{
    static const char* const kComputes[] = {"float32", "bfloat16", "float16"}; // by ComputeType
    std::printf("#### Precisions (`train.precision`)\n\n| `train.precision` | what it is | computes in | loss scaling | "
                "CUDA only |\n|---|---|---|---|---|\n");
    for (const PrecisionEntry& e : precisionRegistry()) {
        const std::string what = std::string(e.label) + (e.tip ? std::string(": ") + e.tip : std::string());
        std::printf("| `%s` | %s | %s | %s | %s |\n", e.name, what.c_str(),
                    e.perMachine ? "decided per machine" : kComputes[int(e.compute)], e.scalesLoss ? "yes" : "no",
                    e.needsCuda ? "yes" : "no");
    }
    std::printf("\n");
}

/// The registries as configuration.md's tables (a test checks that the file holds this output).
int configKeysMarkdown()
{
    const auto doc = [](const auto& e) { return std::string(e.doc); };
    registryTable("Tasks", "data", "data.task", taskRegistry(), doc);
    registryTable("Data sets", "data", "data.dataset", datasetRegistry(), doc);
    registryTable("Models", "model", "model.arch", modelRegistry(), doc);
    registryTable("Optimizers", "optimizer", "optimizer.name", optimizerRegistry(),
                  [](const OptimizerEntry& e) { return "PyTorch's `" + std::string(e.pytorch) + "`"; });
    registryTable("Learning-rate schedules", "scheduler", "scheduler.name", schedulerRegistry(), [](const SchedulerEntry& e) {
        return std::string(e.doc) + (*e.pytorch ? std::string(" (`") + e.pytorch + "`)" : std::string());
    });
    precisionTable();
    return 0;
}

int configKeysList()
{
    // As --set takes it: a string bare (an empty one as ""), anything else as JSON. A key several
    // entries share shows its first default (the order of the registries).
    std::map<std::string, std::string> keys;
    for (const ConfigKeyInfo& k : configKeyCatalog()) {
        const auto value = nlohmann::json::parse(k.defaultValue);
        const bool bare = value.is_string() && !value.get<std::string>().empty();
        keys.emplace(k.key, bare ? value.get<std::string>() : k.defaultValue);
    }
    size_t width = 0;
    for (const auto& [key, value] : keys)
        width = std::max(width, key.size());
    for (const auto& [key, value] : keys)
        std::printf("%-*s  %s\n", int(width), key.c_str(), value.c_str());
    return 0;
}

Runner declare(CLI::App& app)
{
    auto markdown = std::make_shared<bool>(false);
    flag(app, "--markdown", *markdown,
         "the tasks, data sets, models, optimizers, schedules and precisions, as the tables of configuration.md");
    return [markdown](const Invocation&) { return *markdown ? configKeysMarkdown() : configKeysList(); };
}

} // namespace

CommandInfo configKeysCommand()
{
    return {"config-keys", "[--markdown]", "every configuration key that --config and --set take, with its default",
            "One key per line: the dotted path and its default value. Keys that apply to only some choices "
            "(a scheduler's or an optimizer's parameters, csv's columns) are listed too.",
            &declare};
}

} // namespace entrena::cli
