#include "entrena/export/Export.h"

#include "data/Dataset.h"
#include "entrena/config/Registry.h"
#include "entrena/store/AtomicFile.h"
#include "entrena/store/RunStore.h"
#include "entrena/system/Version.h"
#include "export/CheckpointChoice.h"
#include "export/OnnxExport.h"
#include "model/Model.h"
#include "model/Models.h"
#include "store/CheckpointFile.h"
#include "train/SplitEvaluation.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <torch/script.h>
#include <torch/torch.h>

namespace entrena {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string lowerExtension(const std::string& path)
{
    std::string ext = fs::path(path).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return ext;
}

const char* safetensorsDtype(torch::ScalarType t)
{
    switch (t) {
    case torch::kFloat32: return "F32";
    case torch::kFloat64: return "F64";
    case torch::kFloat16: return "F16";
    case torch::kBFloat16: return "BF16";
    case torch::kInt64: return "I64";
    case torch::kInt32: return "I32";
    case torch::kInt16: return "I16";
    case torch::kInt8: return "I8";
    case torch::kUInt8: return "U8";
    case torch::kBool: return "BOOL";
    default: throw std::runtime_error(std::string("safetensors has no type for ") + c10::toString(t));
    }
}

// The safetensors layout (github.com/huggingface/safetensors, "Format"): an 8-byte little-endian
// header length N, N bytes of JSON {name: {dtype, shape, data_offsets: [begin, end]}} padded with
// spaces to a multiple of 8, then the tensors' bytes, little-endian, row-major, back to back.
// As the reference writer does, the tensors are laid out by element size, largest first (then by
// name), so that every tensor's data starts at an offset that is a multiple of its element size
// and a reader can map it in place (numpy.frombuffer, torch.frombuffer) without copying.
std::vector<char> safetensorsBytes(std::vector<std::pair<std::string, torch::Tensor>> tensors,
                                   const std::map<std::string, std::string>& metadata)
{
    std::stable_sort(tensors.begin(), tensors.end(), [](const auto& a, const auto& b) {
        const auto sa = a.second.element_size(), sb = b.second.element_size();
        return sa != sb ? sa > sb : a.first < b.first;
    });
    json header = json::object();
    header["__metadata__"] = metadata;
    size_t offset = 0;
    std::vector<torch::Tensor> data;
    for (const auto& [name, t] : tensors) {
        auto c = t.detach().cpu().contiguous();
        const size_t bytes = size_t(c.numel()) * c.element_size();
        header[name] = {
            {"dtype", safetensorsDtype(c.scalar_type())}, {"shape", c.sizes().vec()}, {"data_offsets", {offset, offset + bytes}}};
        offset += bytes;
        data.push_back(c);
    }
    std::string text = header.dump();
    text.append((8 - text.size() % 8) % 8, ' ');
    std::vector<char> out(8 + text.size() + offset);
    uint64_t n = text.size();
    for (int i = 0; i < 8; ++i)
        out[size_t(i)] = char((n >> (8 * i)) & 0xff); // little-endian regardless of the host
    std::memcpy(out.data() + 8, text.data(), text.size());
    char* p = out.data() + 8 + text.size();
    for (const auto& c : data) {
        const size_t bytes = size_t(c.numel()) * c.element_size();
        std::memcpy(p, c.data_ptr(), bytes);
        p += bytes;
    }
    return out;
}

// What the weights expect as input: shape and the normalisation the training data received.
json inputJson(const DataSplits& d)
{
    return {{"shape", d.inputShape()},
            {"classes", d.classes},
            {"class_names", d.classNames},
            {"normalization", json::parse(d.normalizationJson())}};
}

json optionalNumber(const std::optional<double>& v)
{
    return v ? json(*v) : json(nullptr);
}

/// The checkpoint's tensors, through the model when it can be built (the architecture is checked, and
/// the weights are measured on the test set), with the data the weights expect.
struct Weights {
    std::optional<DataSplits> data;
    std::string dataProblem; ///< why the data could not be loaded ("" when it was)
    std::optional<Model> model;
    std::vector<std::pair<std::string, torch::Tensor>> tensors;
    bool script = false;
};

Weights loadWeights(const RunConfig& config, const std::string& environmentJson, const CheckpointRecord& record,
                    ExportResult& result)
{
    Weights w;
    w.script = registryEntry(config.model.arch).fromFile;
    // The data set gives the input shape and the normalisation the weights expect, and a test set
    // to measure the exported weights on. Without it the export still happens, with less said.
    try {
        w.data = loadData(config.data, config.seed);
    } catch (const std::exception& e) {
        w.dataProblem = e.what();
    }
    if (!w.data && !w.script) {
        w.tensors = checkpointTensors(record.path, record.checksum);
        return w;
    }
    const auto& d = w.data;
    w.model = d ? Model::build(config.model, d->channels(), d->height(), d->width(), d->classes)
                : Model::build(config.model, 1, 28, 28, 10); // a TorchScript module brings its own shapes
    const bool channelsLast = trainedChannelsLast(config.model, environmentJson);
    if (channelsLast)
        w.model->toChannelsLast(); // as it trained, so that the measured accuracy is the recorded one
    loadModelWeights(record.path, record.checksum, *w.model);
    w.tensors = w.model->namedTensors();
    if (d && d->testX.size(0) > 0)
        result.testAccuracy = evaluate(*w.model, d->testX, d->testY, torch::kCPU, channelsLast, config.data.task).accuracy;
    return w;
}

void writeWeights(AtomicFile& file, const std::string& ext, Weights& w, const std::string& runName, ExportResult& result)
{
    try {
        if (ext == ".onnx") {
            result.format = "onnx";
            if (!w.model || !w.data)
                throw std::runtime_error("cannot write '" + result.file + "' as ONNX without the run's data set (" +
                                         w.dataProblem + "): the graph needs the input's shape, and its users the normalisation");
            const std::string bytes =
                onnxBytes(*w.model, w.data->channels(), w.data->height(), w.data->width(), w.data->classes, runName);
            file.write(bytes.data(), bytes.size());
        } else if (ext == ".safetensors") {
            result.format = "safetensors";
            const auto bytes = safetensorsBytes(w.tensors, {{"format", "pt"}, {"entrena_run", runName}});
            file.write(bytes.data(), bytes.size());
        } else if (w.script) {
            result.format = "torchscript";
            w.model->train(false);
            // To memory first: the module's file writer aborts the process on a short write.
            std::ostringstream bytes;
            w.model->script().save(bytes);
            file.write(bytes.str());
        } else {
            result.format = "state_dict";
            c10::Dict<std::string, torch::Tensor> dict;
            for (const auto& [name, t] : w.tensors)
                dict.insert(name, t.detach().cpu().contiguous());
            const std::vector<char> bytes = torch::pickle_save(dict);
            file.write(bytes.data(), bytes.size());
        }
    } catch (const c10::Error& e) {
        throw std::runtime_error("cannot write '" + result.file + "': " + e.what_without_backtrace());
    }
}

json sidecarJson(const RunRecord& run, const CheckpointRecord& record, const std::string& which, const RunConfig& config,
                 const Weights& w, const ExportResult& result)
{
    json names = json::array();
    for (const auto& [name, t] : w.tensors)
        names.push_back({{"name", name}, {"shape", t.sizes().vec()}, {"dtype", c10::toString(t.scalar_type())}});
    json sidecar = {
        {"entrena_version", kVersion},
        {"format", result.format},
        {"file", fs::path(result.file).filename().string()},
        {"run",
         {{"id", run.id}, {"uuid", run.uuid}, {"name", run.name}, {"status", toString(run.status)}, {"created", run.created}}},
        {"checkpoint", {{"which", which}, {"step", record.step}, {"epoch", record.epoch}, {"checksum", record.checksum}}},
        {"config", json::parse(run.configJson)},
        {"metrics",
         {{"test_accuracy_recorded", optionalNumber(run.testAccuracy)},
          {"best_val_accuracy", optionalNumber(run.bestValAccuracy)},
          {"final_train_loss", optionalNumber(run.finalTrainLoss)},
          {"samples_per_s", optionalNumber(run.samplesPerSec)},
          {"test_accuracy_of_these_weights", result.testAccuracy >= 0 ? json(result.testAccuracy) : json(nullptr)}}},
        {"input", w.data ? inputJson(*w.data) : json{{"unavailable", w.dataProblem}}},
        {"classes", w.data ? json(w.data->classNames) : json(nullptr)},
        {"input_shape", w.data ? json(w.data->inputShape()) : json(nullptr)},
        {"tensors", names}};
    return sidecar;
}

} // namespace

ExportResult exportCheckpoint(RunStore& store, int64_t runId, const std::string& which, const std::string& out)
{
    if (which != "best" && which != "last")
        throw std::runtime_error("--checkpoint must be best or last, not '" + which + "'");
    const auto run = store.findRun(std::to_string(runId));
    if (!run)
        throw std::runtime_error("no run " + std::to_string(runId) + " in " + store.path());
    const auto record = chooseCheckpoint(store, runId, which);
    if (!record)
        throw CheckpointError(
            "run " + std::to_string(runId) + " ('" + run->name + "') has no " +
            (which == "best" ? "best checkpoint (it had no validation split?)" : "checkpoint") +
            "; it ended before its first one, kept none (train.checkpoint_every 0 and no validation split), or they "
            "were deleted to free space (its events say so)");
    const std::string ext = lowerExtension(out);
    if (ext != ".pt" && ext != ".pth" && ext != ".safetensors" && ext != ".onnx")
        throw std::runtime_error("cannot tell the format of '" + out + "': name it .pt (PyTorch), .safetensors or .onnx");
    if (ext == ".onnx" && registryEntry(RunConfig::fromJson(run->configJson).model.arch).fromFile)
        throw std::runtime_error("a TorchScript model cannot be exported to ONNX here: its graph is the user's own code. "
                                 "Export it as .pt and convert it with torch.onnx.export in Python");

    const RunConfig config = RunConfig::fromJson(run->configJson);
    ExportResult result;
    result.file = out;
    result.sidecar = out + ".json";
    result.checkpoint = record->path;
    Weights w = loadWeights(config, run->environmentJson, *record, result);
    result.tensors = int(w.tensors.size());
    AtomicFile file(out);
    writeWeights(file, ext, w, run->name, result);
    const std::string text = sidecarJson(*run, *record, which, config, w, result).dump(2) + "\n";
    AtomicFile side(result.sidecar);
    side.write(text.data(), text.size());
    file.commit();
    side.commit();
    return result;
}

} // namespace entrena
