#include "store/CheckpointFile.h"

#include "entrena/store/AtomicFile.h"

#include <ATen/CPUGeneratorImpl.h>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <vector>
#include <zlib.h>

namespace entrena {
namespace {

namespace fs = std::filesystem;

// Doubles and integers of the state, in a fixed order: one tensor in the archive.
std::vector<double> pack(const TrainingState& s)
{
    return {double(s.step),
            double(s.epoch),
            double(s.batchInEpoch),
            s.epochLossSum,
            double(s.epochSamples),
            double(s.samplesSeen),
            s.trainSeconds,
            s.bestVal,
            double(s.scheduler.steps),
            double(s.scheduler.epochs),
            s.scheduler.plateauLr,
            s.scheduler.best,
            double(s.scheduler.numBadEpochs),
            double(s.scheduler.cooldownCounter),
            s.earlyBest,
            double(s.earlyBadEpochs),
            s.earlyStarted ? 1.0 : 0.0,
            s.lossScale,
            double(s.lossScaleGoodSteps),
            s.lrScale,
            double(s.microSplit)};
}

TrainingState unpack(const std::vector<double>& v)
{
    // 19 fields: written before the divergence guard's rate cut and OOM recovery's split were kept.
    if (v.size() != 19 && v.size() != 21)
        throw CheckpointError("the checkpoint's training state has " + std::to_string(v.size()) +
                              " fields, 21 expected: it was written by another version of Entrena");
    TrainingState s;
    s.step = int64_t(v[0]);
    s.epoch = int(v[1]);
    s.batchInEpoch = int64_t(v[2]);
    s.epochLossSum = v[3];
    s.epochSamples = int64_t(v[4]);
    s.samplesSeen = int64_t(v[5]);
    s.trainSeconds = v[6];
    s.bestVal = v[7];
    s.scheduler = {int64_t(v[8]), int64_t(v[9]), v[10], v[11], int64_t(v[12]), int64_t(v[13])};
    s.earlyBest = v[14];
    s.earlyBadEpochs = int64_t(v[15]);
    s.earlyStarted = v[16] != 0.0;
    s.lossScale = v[17];
    s.lossScaleGoodSteps = int64_t(v[18]);
    if (v.size() == 21) {
        s.lrScale = v[19];
        s.microSplit = std::max(1, int(v[20]));
    }
    return s;
}

std::string shapeText(const torch::Tensor& t)
{
    std::ostringstream s;
    s << t.sizes();
    return s.str();
}

// The model is stored as a list of names and a list of tensors in the same order, which serves
// Entrena's own models and TorchScript modules alike.
void writeModel(torch::serialize::OutputArchive& archive, const Model& model)
{
    c10::List<std::string> names;
    c10::List<torch::Tensor> tensors;
    for (const auto& [name, tensor] : model.namedTensors()) {
        names.push_back(name);
        tensors.push_back(tensor.detach().cpu());
    }
    archive.write("model_names", c10::IValue(names));
    archive.write("model_tensors", c10::IValue(tensors));
}

std::vector<std::pair<std::string, torch::Tensor>> readModel(torch::serialize::InputArchive& archive)
{
    c10::IValue names, tensors;
    if (!archive.try_read("model_names", names) || !archive.try_read("model_tensors", tensors) || !names.isList() ||
        !tensors.isTensorList())
        throw CheckpointError("this file is not an Entrena checkpoint (no model tensors)");
    const auto n = names.toList();
    const auto t = tensors.toTensorList();
    if (n.size() != t.size())
        throw CheckpointError("the checkpoint's model section is damaged");
    std::vector<std::pair<std::string, torch::Tensor>> out;
    for (size_t i = 0; i < n.size(); ++i)
        out.emplace_back(n.get(i).toStringRef(), t.get(i));
    return out;
}

} // namespace

std::string fileChecksum(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw CheckpointError("cannot read checkpoint '" + path + "'");
    uLong crc = crc32(0L, Z_NULL, 0);
    std::vector<char> buf(1 << 16);
    while (in) {
        in.read(buf.data(), std::streamsize(buf.size()));
        if (in.gcount() > 0)
            crc = crc32(crc, reinterpret_cast<const Bytef*>(buf.data()), uInt(in.gcount()));
    }
    char hex[16];
    std::snprintf(hex, sizeof hex, "%08lx", static_cast<unsigned long>(crc));
    return hex;
}

WrittenCheckpoint writeCheckpoint(const std::string& path, const Model& model, torch::optim::Optimizer& optimizer,
                                  const TrainingState& state)
{
    const fs::path file(path);
    fs::create_directories(file.parent_path());
    torch::serialize::OutputArchive archive, optimizerArchive;
    writeModel(archive, model);
    optimizer.save(optimizerArchive);
    archive.write("optimizer", optimizerArchive);
    archive.write("state", torch::tensor(pack(state), torch::kFloat64));
    {
        auto gen = at::detail::getDefaultCPUGenerator();
        std::lock_guard<std::mutex> lock(gen.mutex());
        archive.write("rng", gen.get_state());
    }
    // Through a sink that never reports a short write: LibTorch's archive writer aborts the process
    // on one (it throws, then throws again from its destructor). The first error, a full disk
    // above all, is thrown by commit(), and the partial file is removed.
    AtomicFile out(path); // synced before it is renamed into place
    archive.save_to(out.sink());
    out.commit();
    return {int64_t(fs::file_size(file)), fileChecksum(path)};
}

namespace {

void verifyFile(const std::string& path, const std::string& expectedChecksum)
{
    if (!fs::exists(path))
        throw CheckpointError("checkpoint '" + path + "' does not exist (deleted or moved?)");
    if (!expectedChecksum.empty()) {
        const std::string actual = fileChecksum(path);
        if (actual != expectedChecksum)
            throw CheckpointError("checkpoint '" + path + "' is damaged: its checksum is " + actual + ", " + expectedChecksum +
                                  " was recorded when it was written");
    }
}

} // namespace

std::vector<std::pair<std::string, torch::Tensor>> checkpointTensors(const std::string& path, const std::string& expectedChecksum)
{
    verifyFile(path, expectedChecksum);
    try {
        torch::serialize::InputArchive archive;
        archive.load_from(path);
        return readModel(archive);
    } catch (const c10::Error& e) {
        throw CheckpointError("checkpoint '" + path + "' cannot be read: " + e.what_without_backtrace());
    }
}

namespace {

// Compares the architecture first, so a mismatch is named rather than a LibTorch error; then copies.
void copyModel(torch::serialize::InputArchive& archive, const std::string& path, Model& model)
{
    const auto stored = readModel(archive);
    const auto mine = model.namedTensors();
    std::map<std::string, torch::Tensor> byName(stored.begin(), stored.end());
    for (const auto& [name, tensor] : mine) {
        auto it = byName.find(name);
        if (it == byName.end())
            throw CheckpointError("checkpoint '" + path + "' was written for another model: it has no '" + name + "'");
        if (!it->second.sizes().equals(tensor.sizes()))
            throw CheckpointError("checkpoint '" + path + "' was written for another model: '" + name + "' has shape " +
                                  shapeText(it->second) + " there and " + shapeText(tensor) + " here");
    }
    if (stored.size() != mine.size())
        throw CheckpointError("checkpoint '" + path + "' was written for another model: it holds " +
                              std::to_string(stored.size()) + " tensors, this model " + std::to_string(mine.size()));
    torch::NoGradGuard noGrad;
    for (const auto& [name, tensor] : mine)
        tensor.copy_(byName.at(name));
}

} // namespace

void loadModelWeights(const std::string& path, const std::string& expectedChecksum, Model& model)
{
    verifyFile(path, expectedChecksum);
    try {
        torch::serialize::InputArchive archive;
        archive.load_from(path);
        copyModel(archive, path, model);
    } catch (const c10::Error& e) {
        throw CheckpointError("checkpoint '" + path + "' cannot be read: " + e.what_without_backtrace());
    }
}

TrainingState readCheckpoint(const std::string& path, const std::string& expectedChecksum, Model& model,
                             torch::optim::Optimizer& optimizer)
{
    verifyFile(path, expectedChecksum);
    try {
        torch::serialize::InputArchive archive, optimizerArchive;
        archive.load_from(path);
        copyModel(archive, path, model);
        archive.read("optimizer", optimizerArchive);
        optimizer.load(optimizerArchive);
        torch::Tensor state, rng;
        archive.read("state", state);
        archive.read("rng", rng);
        auto gen = at::detail::getDefaultCPUGenerator();
        {
            std::lock_guard<std::mutex> lock(gen.mutex());
            gen.set_state(rng);
        }
        state = state.contiguous().to(torch::kFloat64);
        return unpack(std::vector<double>(state.data_ptr<double>(), state.data_ptr<double>() + state.numel()));
    } catch (const c10::Error& e) {
        throw CheckpointError("checkpoint '" + path + "' cannot be read: " + e.what_without_backtrace());
    }
}

std::vector<std::pair<std::string, double>> tensorChanges(const std::string& a, const std::string& b)
{
    const auto ta = checkpointTensors(a);
    const auto tb = checkpointTensors(b);
    if (ta.size() != tb.size())
        throw CheckpointError("the checkpoints hold different models (" + std::to_string(ta.size()) + " and " +
                              std::to_string(tb.size()) + " tensors)");
    std::map<std::string, torch::Tensor> byName(tb.begin(), tb.end());
    std::vector<std::pair<std::string, double>> out;
    for (const auto& [name, t] : ta) {
        auto it = byName.find(name);
        if (it == byName.end() || !it->second.sizes().equals(t.sizes()))
            throw CheckpointError("the checkpoints hold different models ('" + name + "')");
        out.emplace_back(name, (t.to(torch::kFloat64) - it->second.to(torch::kFloat64)).abs().max().item<double>());
    }
    return out;
}

double maxParameterDifference(const std::string& a, const std::string& b)
{
    double worst = 0;
    for (const auto& [name, change] : tensorChanges(a, b))
        worst = std::max(worst, change);
    return worst;
}

} // namespace entrena
