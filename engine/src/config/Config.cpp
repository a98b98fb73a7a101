#include "entrena/config/Config.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <fstream>
#include <set>
#include <sstream>

namespace entrena {
namespace {

using nlohmann::json;

// Reads one JSON object's keys into typed fields, remembering which keys it knew, so that
// whatever is left over can be reported as unknown. Every message names the full key path.
class Section {
public:
    Section(const json& root, std::string prefix) : prefix_(std::move(prefix))
    {
        if (!root.is_object())
            throw ConfigError(where() + " must be a JSON object");
        object_ = &root;
    }

    std::string key(const std::string& name) const { return prefix_.empty() ? name : prefix_ + "." + name; }

    const json* find(const std::string& name)
    {
        known_.insert(name);
        auto it = object_->find(name);
        return it == object_->end() || it->is_null() ? nullptr : &*it;
    }

    void number(const std::string& name, double& out, double lo, double hi)
    {
        if (const json* v = find(name)) {
            if (!v->is_number())
                throw ConfigError(key(name) + " must be a number, got " + v->dump());
            out = v->get<double>();
        }
        if (!std::isfinite(out) || out < lo || out > hi)
            throw ConfigError(key(name) + " must be between " + fmt(lo) + " and " + fmt(hi) + ", got " + fmt(out));
    }

    template <typename Int> void integer(const std::string& name, Int& out, int64_t lo, int64_t hi)
    {
        if (const json* v = find(name)) {
            if (!v->is_number_integer() && !(v->is_number_float() && std::floor(v->get<double>()) == v->get<double>()))
                throw ConfigError(key(name) + " must be a whole number, got " + v->dump());
            const double d = v->get<double>();
            if (d < double(lo) || d > double(hi))
                throw ConfigError(key(name) + " must be between " + std::to_string(lo) + " and " + std::to_string(hi) +
                                  ", got " + v->dump());
            out = static_cast<Int>(v->get<int64_t>());
        }
    }

    void boolean(const std::string& name, bool& out)
    {
        if (const json* v = find(name)) {
            if (!v->is_boolean())
                throw ConfigError(key(name) + " must be true or false, got " + v->dump());
            out = v->get<bool>();
        }
    }

    void text(const std::string& name, std::string& out) { text(name, out, {}); }

    void text(const std::string& name, std::string& out, const std::vector<std::string>& allowed)
    {
        if (const json* v = find(name)) {
            if (!v->is_string())
                throw ConfigError(key(name) + " must be a string, got " + v->dump());
            out = v->get<std::string>();
        }
        if (!allowed.empty() && std::find(allowed.begin(), allowed.end(), out) == allowed.end()) {
            std::string list;
            for (const auto& a : allowed)
                list += (list.empty() ? "" : ", ") + a;
            throw ConfigError(key(name) + " must be one of " + list + "; got '" + out + "'");
        }
    }

    void integers(const std::string& name, std::vector<int64_t>& out, int64_t lo, int64_t hi)
    {
        if (const json* v = find(name)) {
            if (!v->is_array())
                throw ConfigError(key(name) + " must be a list of whole numbers, got " + v->dump());
            out.clear();
            for (const auto& item : *v) {
                if (!item.is_number_integer() || item.get<int64_t>() < lo || item.get<int64_t>() > hi)
                    throw ConfigError(key(name) + " must hold whole numbers between " + std::to_string(lo) + " and " +
                                      std::to_string(hi) + ", got " + item.dump());
                out.push_back(item.get<int64_t>());
            }
        }
    }

    // Keys present but never asked for are unknown: an error, so that a typo is not silently ignored.
    void rejectUnknown(const std::string& hint = {}) const
    {
        for (auto it = object_->begin(); it != object_->end(); ++it) {
            if (!known_.count(it.key()))
                throw ConfigError("unknown key '" + key(it.key()) + "'" + (hint.empty() ? "" : " (" + hint + ")") +
                                  "; see docs/configuration.md for the keys");
        }
    }

    static std::string fmt(double v)
    {
        std::ostringstream s;
        s << v;
        return s.str();
    }

private:
    std::string where() const { return prefix_.empty() ? "the configuration" : "'" + prefix_ + "'"; }

    std::string prefix_;
    const json* object_ = nullptr;
    std::set<std::string> known_;
};

const json& sectionOf(const json& root, const char* name)
{
    static const json empty = json::object();
    auto it = root.find(name);
    return it == root.end() || it->is_null() ? empty : *it;
}

constexpr double kHuge = 1e12;
constexpr int64_t kBig = 1'000'000'000'000LL;

// Which scheduler keys apply to which scheduler (PyTorch's parameters of the same name).
const std::vector<std::string>& schedulerKeys(const std::string& name)
{
    static const std::vector<std::string> none;
    static const std::vector<std::string> step = {"step_size", "gamma"};
    static const std::vector<std::string> multistep = {"milestones", "gamma"};
    static const std::vector<std::string> exponential = {"gamma"};
    static const std::vector<std::string> cosine = {"T_max", "eta_min"};
    static const std::vector<std::string> oneCycle = {"max_lr",    "total_steps",      "pct_start",
                                                      "anneal_strategy", "div_factor", "final_div_factor",
                                                      "three_phase", "cycle_momentum", "base_momentum",
                                                      "max_momentum"};
    static const std::vector<std::string> plateau = {"metric", "mode", "factor", "patience", "threshold",
                                                     "threshold_mode", "cooldown", "min_lr", "eps"};
    if (name == "step") return step;
    if (name == "multistep") return multistep;
    if (name == "exponential") return exponential;
    if (name == "cosine") return cosine;
    if (name == "one_cycle") return oneCycle;
    if (name == "reduce_on_plateau") return plateau;
    return none;
}

bool applies(const std::string& scheduler, const std::string& key)
{
    const auto& keys = schedulerKeys(scheduler);
    return std::find(keys.begin(), keys.end(), key) != keys.end();
}

RunConfig parse(const json& root)
{
    RunConfig c;
    Section top(root, "");
    top.text("name", c.name);
    top.integer("seed", c.seed, 0, std::numeric_limits<int64_t>::max());
    for (const char* s : {"data", "model", "optimizer", "scheduler", "train", "devices"})
        top.find(s);
    top.rejectUnknown();

    Section d(sectionOf(root, "data"), "data");
    d.text("dataset", c.data.dataset, {"fashion-mnist", "mnist", "csv", "synthetic"});
    d.text("path", c.data.path);
    if (c.data.dataset == "csv") {
        d.text("test_path", c.data.testPath);
        d.text("label_column", c.data.labelColumn);
        d.boolean("header", c.data.header);
    }
    d.integer("augment_crop", c.data.augmentCrop, 0, 64);
    d.boolean("augment_flip", c.data.augmentFlip);
    d.number("val_fraction", c.data.valFraction, 0.0, 0.9);
    d.integer("batch_size", c.data.batchSize, 1, 1 << 20);
    d.integer("workers", c.data.workers, 0, 64);
    d.integer("train_limit", c.data.trainLimit, 0, kBig);
    d.integer("test_limit", c.data.testLimit, 0, kBig);
    d.rejectUnknown(c.data.dataset == "csv" ? "" : "test_path, label_column and header apply to csv data");

    Section m(sectionOf(root, "model"), "model");
    m.text("arch", c.model.arch, {"mlp", "cnn", "resnet", "torchscript"});
    if (c.model.arch == "torchscript") {
        m.text("path", c.model.path);
        if (c.model.path.empty())
            throw ConfigError("model.path must name the TorchScript file when model.arch is 'torchscript'");
    }
    if (c.model.arch == "resnet")
        c.model.channels = {16, 32, 64}; // the resnet's own default; "channels" below may override
    m.integers("hidden", c.model.hidden, 1, 1 << 16);
    m.integers("channels", c.model.channels, 1, 4096);
    m.integer("blocks", c.model.blocks, 1, 64);
    m.number("dropout", c.model.dropout, 0.0, 0.95);
    m.rejectUnknown();

    Section o(sectionOf(root, "optimizer"), "optimizer");
    o.text("name", c.optimizer.name, {"sgd", "adam", "adamw", "rmsprop"});
    if (c.optimizer.name == "adamw")
        c.optimizer.weightDecay = 0.01; // PyTorch's AdamW default; "weight_decay" below may override
    else if (c.optimizer.name != "sgd")
        c.optimizer.weightDecay = 0.0; // PyTorch's default for adam and rmsprop
    o.number("lr", c.optimizer.lr, 0.0, kHuge);
    if (c.optimizer.lr <= 0.0)
        throw ConfigError("optimizer.lr must be positive, got " + Section::fmt(c.optimizer.lr));
    o.number("weight_decay", c.optimizer.weightDecay, 0.0, kHuge);
    if (c.optimizer.name == "sgd") {
        o.number("momentum", c.optimizer.momentum, 0.0, 1.0);
        o.boolean("nesterov", c.optimizer.nesterov);
        o.number("dampening", c.optimizer.dampening, 0.0, 1.0);
        if (c.optimizer.nesterov && (c.optimizer.momentum <= 0.0 || c.optimizer.dampening != 0.0))
            throw ConfigError("optimizer.nesterov needs optimizer.momentum > 0 and optimizer.dampening = 0 "
                              "(as in PyTorch); set nesterov to false or give a momentum");
        o.rejectUnknown("for sgd: lr, momentum, nesterov, dampening, weight_decay");
    } else if (c.optimizer.name == "rmsprop") {
        c.optimizer.momentum = 0.0;
        o.number("alpha", c.optimizer.alpha, 0.0, 1.0);
        o.number("eps", c.optimizer.eps, 0.0, 1.0);
        o.number("momentum", c.optimizer.momentum, 0.0, 1.0);
        o.boolean("centered", c.optimizer.centered);
        o.rejectUnknown("for rmsprop: lr, alpha, eps, momentum, centered, weight_decay");
    } else {
        o.number("beta1", c.optimizer.beta1, 0.0, 0.999999);
        o.number("beta2", c.optimizer.beta2, 0.0, 0.999999);
        o.number("eps", c.optimizer.eps, 0.0, 1.0);
        o.rejectUnknown("for " + c.optimizer.name + ": lr, beta1, beta2, eps, weight_decay");
    }

    const json& sj = sectionOf(root, "scheduler");
    Section s(sj, "scheduler");
    s.text("name", c.scheduler.name,
           {"constant", "step", "multistep", "exponential", "cosine", "one_cycle", "reduce_on_plateau"});
    s.integer("warmup_steps", c.scheduler.warmupSteps, 0, kBig);
    const std::string& sn = c.scheduler.name;
    for (auto it = sj.begin(); it != sj.end(); ++it) {
        const std::string& k = it.key();
        if (k != "name" && k != "warmup_steps" && !applies(sn, k))
            throw ConfigError("scheduler." + k + " does not apply to scheduler '" + sn + "'; remove it or pick " +
                              "the scheduler it belongs to");
    }
    if (sn == "step") {
        s.integer("step_size", c.scheduler.stepSize, 1, kBig);
        s.number("gamma", c.scheduler.gamma, 0.0, 1.0);
    } else if (sn == "multistep") {
        s.integers("milestones", c.scheduler.milestones, 1, kBig);
        s.number("gamma", c.scheduler.gamma, 0.0, 1.0);
        if (c.scheduler.milestones.empty())
            throw ConfigError("scheduler.milestones must list at least one epoch for 'multistep'");
        if (!std::is_sorted(c.scheduler.milestones.begin(), c.scheduler.milestones.end()))
            throw ConfigError("scheduler.milestones must be increasing");
    } else if (sn == "exponential") {
        s.number("gamma", c.scheduler.gamma, 0.0, 1.0);
    } else if (sn == "cosine") {
        s.integer("T_max", c.scheduler.tMax, 0, kBig);
        s.number("eta_min", c.scheduler.etaMin, 0.0, kHuge);
    } else if (sn == "one_cycle") {
        s.number("max_lr", c.scheduler.maxLr, 0.0, kHuge);
        s.integer("total_steps", c.scheduler.totalSteps, 0, kBig);
        s.number("pct_start", c.scheduler.pctStart, 0.0, 1.0);
        s.text("anneal_strategy", c.scheduler.annealStrategy, {"cos", "linear"});
        s.number("div_factor", c.scheduler.divFactor, 1e-12, kHuge);
        s.number("final_div_factor", c.scheduler.finalDivFactor, 1e-12, kHuge);
        s.boolean("three_phase", c.scheduler.threePhase);
        s.boolean("cycle_momentum", c.scheduler.cycleMomentum);
        s.number("base_momentum", c.scheduler.baseMomentum, 0.0, 1.0);
        s.number("max_momentum", c.scheduler.maxMomentum, 0.0, 1.0);
        if (c.scheduler.pctStart <= 0.0 || c.scheduler.pctStart >= 1.0)
            throw ConfigError("scheduler.pct_start must be between 0 and 1 (exclusive), got " +
                              Section::fmt(c.scheduler.pctStart));
        if (c.scheduler.cycleMomentum && c.optimizer.name == "sgd" && c.optimizer.momentum <= 0.0)
            throw ConfigError("scheduler.cycle_momentum needs an optimizer with momentum: set optimizer.momentum > 0 "
                              "or scheduler.cycle_momentum to false");
    } else if (sn == "reduce_on_plateau") {
        s.text("metric", c.scheduler.metric, {"val_loss", "val_accuracy", "train_loss"});
        s.text("mode", c.scheduler.mode, {"min", "max"});
        s.number("factor", c.scheduler.factor, 0.0, 1.0);
        if (c.scheduler.factor >= 1.0)
            throw ConfigError("scheduler.factor must be below 1 (the LR is multiplied by it), got " +
                              Section::fmt(c.scheduler.factor));
        s.integer("patience", c.scheduler.patience, 0, kBig);
        s.number("threshold", c.scheduler.threshold, 0.0, kHuge);
        s.text("threshold_mode", c.scheduler.thresholdMode, {"rel", "abs"});
        s.integer("cooldown", c.scheduler.cooldown, 0, kBig);
        s.number("min_lr", c.scheduler.minLr, 0.0, kHuge);
        s.number("eps", c.scheduler.eps, 0.0, kHuge);
    }
    s.rejectUnknown();

    Section t(sectionOf(root, "train"), "train");
    t.integer("epochs", c.train.epochs, 1, 1'000'000);
    t.integer("max_steps", c.train.maxSteps, 0, kBig);
    t.number("grad_clip", c.train.gradClip, 0.0, kHuge);
    t.integer("accumulate", c.train.accumulate, 1, 1 << 16);
    t.text("precision", c.train.precision, {"fp32", "bf16", "fp16"});
    t.integer("log_every", c.train.logEvery, 1, kBig);
    t.integer("checkpoint_every", c.train.checkpointEvery, 0, 1'000'000);
    t.number("label_smoothing", c.train.labelSmoothing, 0.0, 0.5);
    t.integer("early_stop_patience", c.train.earlyStopPatience, 0, 1'000'000);
    t.text("early_stop_metric", c.train.earlyStopMetric, {"val_loss", "val_accuracy"});
    t.number("early_stop_min_delta", c.train.earlyStopMinDelta, 0.0, kHuge);
    t.boolean("divergence_guard", c.train.divergenceGuard);
    t.number("divergence_spike", c.train.divergenceSpike, 0.0, kHuge);
    t.integer("snapshot_every", c.train.snapshotEvery, 1, kBig);
    t.number("rollback_lr_factor", c.train.rollbackLrFactor, 1e-6, 1.0);
    t.integer("max_rollbacks", c.train.maxRollbacks, 0, 1000);
    t.boolean("oom_recovery", c.train.oomRecovery);
    t.number("memory_budget_mb", c.train.memoryBudgetMb, 0.0, kHuge);
    t.rejectUnknown();

    Section v(sectionOf(root, "devices"), "devices");
    v.text("type", c.devices.type, {"cpu", "cuda"});
    v.integers("ids", c.devices.ids, 0, 1024);
    v.integer("threads", c.devices.threads, 0, 1024);
    v.number("bucket_mb", c.devices.bucketMb, 0.01, 1024.0);
    v.number("timeout_s", c.devices.timeoutS, 1.0, 86400.0);
    v.rejectUnknown();
    return c;
}

// `a.b.c=value`: the value is JSON when it parses as JSON, else a plain string, so that
// `--set model.arch=mlp` and `--set optimizer.lr=0.1` both do what one expects.
void applyOverride(json& root, const std::string& assignment)
{
    const auto eq = assignment.find('=');
    if (eq == std::string::npos || eq == 0)
        throw ConfigError("--set needs key.path=value, got '" + assignment + "'");
    const std::string path = assignment.substr(0, eq);
    const std::string raw = assignment.substr(eq + 1);
    json value = json::parse(raw, nullptr, false);
    if (value.is_discarded())
        value = raw;

    json* node = &root;
    std::string part;
    std::istringstream parts(path);
    std::vector<std::string> keys;
    while (std::getline(parts, part, '.')) {
        if (part.empty())
            throw ConfigError("--set key '" + path + "' has an empty part");
        keys.push_back(part);
    }
    for (size_t i = 0; i + 1 < keys.size(); ++i) {
        json& next = (*node)[keys[i]];
        if (next.is_null())
            next = json::object();
        if (!next.is_object())
            throw ConfigError("--set " + path + ": '" + keys[i] + "' is not a section");
        node = &next;
    }
    (*node)[keys.back()] = value;
}

} // namespace

RunConfig RunConfig::fromJson(const std::string& text, const std::vector<std::string>& overrides)
{
    json root = json::parse(text, nullptr, false);
    if (root.is_discarded())
        throw ConfigError("the configuration is not valid JSON; check for a missing comma or quote");
    if (!root.is_object())
        throw ConfigError("the configuration must be a JSON object ({...})");
    for (const auto& o : overrides)
        applyOverride(root, o);
    RunConfig c = parse(root);
    c.validate();
    return c;
}

RunConfig RunConfig::fromFile(const std::string& path, const std::vector<std::string>& overrides)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw ConfigError("cannot read configuration file '" + path + "'; check the path");
    std::ostringstream buffer;
    buffer << in.rdbuf();
    return fromJson(buffer.str(), overrides);
}

void RunConfig::validate() const
{
    if (devices.type == "cpu" && devices.ids.size() > 1)
        throw ConfigError("devices.ids lists " + std::to_string(devices.ids.size()) +
                          " devices for devices.type 'cpu', which has one; for several CPU ranks use "
                          "`entrena-cli train --nproc N`");
    if (train.precision == "fp16" && devices.type != "cuda")
        throw ConfigError("train.precision 'fp16' needs a CUDA device (its loss scaling is for GPUs); "
                          "on the CPU use bf16 or fp32");
    if (model.arch == "resnet" && model.channels.empty())
        throw ConfigError("model.channels must list at least one stage width for the resnet");
    if (data.dataset == "csv" && (data.augmentCrop > 0 || data.augmentFlip))
        throw ConfigError("data.augment_crop and data.augment_flip apply to images, not to csv data");
    if (data.dataset == "csv" && model.arch != "mlp" && model.arch != "torchscript")
        throw ConfigError("model.arch '" + model.arch + "' needs images; csv data trains an mlp");
    if (model.arch == "cnn" && model.channels.size() != 2)
        throw ConfigError("model.channels must list 2 channel counts for the cnn, got " +
                          std::to_string(model.channels.size()));
    if (model.arch == "mlp" && model.hidden.empty())
        throw ConfigError("model.hidden must list at least one layer width for the mlp");
    if (data.dataset != "synthetic" && data.path.empty())
        throw ConfigError("data.path must name the folder holding the data set's files");
}

std::string RunConfig::toJson(int indent) const
{
    json j;
    j["name"] = name;
    j["seed"] = seed;
    j["data"] = {{"dataset", data.dataset},       {"path", data.path},
                 {"val_fraction", data.valFraction}, {"batch_size", data.batchSize},
                 {"workers", data.workers},       {"train_limit", data.trainLimit},
                 {"test_limit", data.testLimit},  {"augment_crop", data.augmentCrop},
                 {"augment_flip", data.augmentFlip}};
    if (data.dataset == "csv") {
        j["data"]["test_path"] = data.testPath;
        j["data"]["label_column"] = data.labelColumn;
        j["data"]["header"] = data.header;
    }
    j["model"] = {{"arch", model.arch}, {"dropout", model.dropout}};
    if (model.arch == "mlp")
        j["model"]["hidden"] = model.hidden;
    else
        j["model"]["channels"] = model.channels;
    if (model.arch == "resnet")
        j["model"]["blocks"] = model.blocks;
    if (model.arch == "torchscript")
        j["model"]["path"] = model.path;
    j["optimizer"] = {{"name", optimizer.name}, {"lr", optimizer.lr}, {"weight_decay", optimizer.weightDecay}};
    if (optimizer.name == "sgd") {
        j["optimizer"]["momentum"] = optimizer.momentum;
        j["optimizer"]["nesterov"] = optimizer.nesterov;
        j["optimizer"]["dampening"] = optimizer.dampening;
    } else if (optimizer.name == "rmsprop") {
        j["optimizer"]["alpha"] = optimizer.alpha;
        j["optimizer"]["eps"] = optimizer.eps;
        j["optimizer"]["momentum"] = optimizer.momentum;
        j["optimizer"]["centered"] = optimizer.centered;
    } else {
        j["optimizer"]["beta1"] = optimizer.beta1;
        j["optimizer"]["beta2"] = optimizer.beta2;
        j["optimizer"]["eps"] = optimizer.eps;
    }
    json s = {{"name", scheduler.name}, {"warmup_steps", scheduler.warmupSteps}};
    if (scheduler.name == "step") {
        s["step_size"] = scheduler.stepSize;
        s["gamma"] = scheduler.gamma;
    } else if (scheduler.name == "multistep") {
        s["milestones"] = scheduler.milestones;
        s["gamma"] = scheduler.gamma;
    } else if (scheduler.name == "exponential") {
        s["gamma"] = scheduler.gamma;
    } else if (scheduler.name == "cosine") {
        s["T_max"] = scheduler.tMax;
        s["eta_min"] = scheduler.etaMin;
    } else if (scheduler.name == "one_cycle") {
        s.update({{"max_lr", scheduler.maxLr},
                  {"total_steps", scheduler.totalSteps},
                  {"pct_start", scheduler.pctStart},
                  {"anneal_strategy", scheduler.annealStrategy},
                  {"div_factor", scheduler.divFactor},
                  {"final_div_factor", scheduler.finalDivFactor},
                  {"three_phase", scheduler.threePhase},
                  {"cycle_momentum", scheduler.cycleMomentum},
                  {"base_momentum", scheduler.baseMomentum},
                  {"max_momentum", scheduler.maxMomentum}});
    } else if (scheduler.name == "reduce_on_plateau") {
        s.update({{"metric", scheduler.metric},   {"mode", scheduler.mode},
                  {"factor", scheduler.factor},   {"patience", scheduler.patience},
                  {"threshold", scheduler.threshold}, {"threshold_mode", scheduler.thresholdMode},
                  {"cooldown", scheduler.cooldown}, {"min_lr", scheduler.minLr},
                  {"eps", scheduler.eps}});
    }
    j["scheduler"] = s;
    j["train"] = {{"epochs", train.epochs},       {"max_steps", train.maxSteps},
                  {"grad_clip", train.gradClip},   {"accumulate", train.accumulate},
                  {"precision", train.precision},  {"log_every", train.logEvery},
                  {"checkpoint_every", train.checkpointEvery}, {"label_smoothing", train.labelSmoothing},
                  {"early_stop_patience", train.earlyStopPatience}, {"early_stop_metric", train.earlyStopMetric},
                  {"early_stop_min_delta", train.earlyStopMinDelta}, {"divergence_guard", train.divergenceGuard},
                  {"divergence_spike", train.divergenceSpike}, {"snapshot_every", train.snapshotEvery},
                  {"rollback_lr_factor", train.rollbackLrFactor}, {"max_rollbacks", train.maxRollbacks},
                  {"oom_recovery", train.oomRecovery}, {"memory_budget_mb", train.memoryBudgetMb}};
    j["devices"] = {{"type", devices.type}, {"ids", devices.ids}, {"threads", devices.threads},
                      {"bucket_mb", devices.bucketMb}, {"timeout_s", devices.timeoutS}};
    return j.dump(indent);
}

} // namespace entrena
