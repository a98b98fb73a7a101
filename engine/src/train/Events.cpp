#include "entrena/train/Events.h"

#include <nlohmann/json.hpp>

namespace entrena {

const char* toString(RunStatus status)
{
    switch (status) {
    case RunStatus::Running: return "running";
    case RunStatus::Finished: return "finished";
    case RunStatus::Stopped: return "stopped";
    case RunStatus::Failed: return "failed";
    case RunStatus::Diverged: return "diverged";
    case RunStatus::Interrupted: return "interrupted";
    case RunStatus::Pruned: return "pruned";
    }
    return "failed";
}

RunStatus runStatusFromString(const std::string& text)
{
    for (RunStatus s : {RunStatus::Running, RunStatus::Finished, RunStatus::Stopped, RunStatus::Failed, RunStatus::Diverged,
                        RunStatus::Interrupted, RunStatus::Pruned}) {
        if (text == toString(s))
            return s;
    }
    return RunStatus::Failed;
}

std::string evaluationToJson(const EvaluationReport& r)
{
    if (r.empty())
        return {};
    using nlohmann::json;
    json perClass = json::array(), wrong = json::array();
    for (const ClassScore& c : r.perClass)
        perClass.push_back({{"class", c.name}, {"precision", c.precision}, {"recall", c.recall}, {"support", c.support}});
    const auto name = [&](int64_t k) { return size_t(k) < r.classes.size() ? r.classes[size_t(k)] : std::to_string(k); };
    for (const WrongExample& w : r.wrong) {
        json one = {{"index", w.index},
                    {"true", name(w.trueClass)},
                    {"predicted", name(w.predicted)},
                    {"confidence", w.confidence},
                    {"image", w.image}};
        if (!w.file.empty())
            one["file"] = w.file;
        wrong.push_back(std::move(one));
    }
    return json{{"split", r.split}, {"classes", r.classes}, {"confusion", r.confusion}, {"per_class", perClass}, {"wrong", wrong}}
        .dump();
}

EvaluationReport evaluationFromJson(const std::string& text)
{
    EvaluationReport r;
    const auto j = nlohmann::json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object())
        return r;
    try {
        r.split = j.value("split", "");
        r.classes = j.value("classes", std::vector<std::string>{});
        r.confusion = j.value("confusion", std::vector<std::vector<int64_t>>{});
        for (const auto& c : j.value("per_class", nlohmann::json::array()))
            r.perClass.push_back(
                {c.value("class", ""), c.value("precision", 0.0), c.value("recall", 0.0), c.value("support", int64_t(0))});
        const auto index = [&](const std::string& name) {
            for (size_t k = 0; k < r.classes.size(); ++k)
                if (r.classes[k] == name)
                    return int64_t(k);
            return int64_t(-1);
        };
        for (const auto& w : j.value("wrong", nlohmann::json::array()))
            r.wrong.push_back({w.value("index", int64_t(0)), index(w.value("true", "")), index(w.value("predicted", "")),
                               w.value("confidence", 0.0), w.value("image", ""), w.value("file", "")});
    } catch (const nlohmann::json::exception&) {
        return EvaluationReport{};
    }
    return r;
}

} // namespace entrena
