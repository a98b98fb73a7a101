#include "train/MlpStep.h"

#include "entrena/config/Config.h"
#include "entrena/config/Registry.h"
#include "model/Model.h"
#include "model/PoolRelu.h"
#include "train/TrainStep.h"

#include <ATen/Parallel.h>

#include <atomic>
#include <cstdlib>
#include <dlfcn.h>
#include <limits>
#include <stdexcept>
#include <string>

namespace entrena {
namespace {

std::atomic<int64_t> taken{0};

using SetThreads = void (*)(int);
using GetThreads = int (*)();

template <typename F> F blasSymbol(const char* name) { return reinterpret_cast<F>(dlsym(RTLD_DEFAULT, name)); }

using GetParallel = int (*)();

/// The cblas_sgemm the step calls, and whether the step's threads may call it side by side, each
/// product on its caller: OpenBLAS built with threads (openblas_get_parallel: 1 pthreads, 2 OpenMP; a
/// serial build without locking is not safe to call from two threads at once), its sgemm taken from the
/// same library as the thread switch (Debian's libblas.so.3 is a thin front of libopenblas.so.0).
struct Blas {
    mlp::Sgemm sgemm = nullptr;
    bool confinable = false;
};

const Blas& blas()
{
    static const Blas found = [] {
        Blas b;
        b.sgemm = blasSymbol<mlp::Sgemm>("cblas_sgemm");
        const auto parallel = blasSymbol<GetParallel>("openblas_get_parallel");
        const auto set = blasSymbol<SetThreads>("openblas_set_num_threads");
        Dl_info info{};
        if (!parallel || !set || !blasSymbol<GetThreads>("openblas_get_num_threads") || parallel() < 1 ||
            !dladdr(reinterpret_cast<void*>(set), &info) || !info.dli_fname)
            return b;
        if (void* library = dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD)) {
            if (auto own = reinterpret_cast<mlp::Sgemm>(dlsym(library, "cblas_sgemm"))) {
                b.sgemm = own;
                b.confinable = true;
            }
            dlclose(library); // only drops the reference RTLD_NOLOAD took
        }
        return b;
    }();
    return found;
}

bool blasConfinable() { return blas().confinable; }

/// OpenBLAS computes each product on the calling thread while this lives: the step's threads share
/// the products out themselves, and a BLAS thread pool beside them would fight them for the cores.
class BlasOnCallingThread {
public:
    BlasOnCallingThread()
    {
        static const auto get = blasSymbol<GetThreads>("openblas_get_num_threads");
        static const auto set = blasSymbol<SetThreads>("openblas_set_num_threads");
        if (get && set && (before_ = get()) != 1) {
            set_ = set;
            set_(1);
        }
    }
    ~BlasOnCallingThread()
    {
        if (set_)
            set_(before_);
    }
    BlasOnCallingThread(const BlasOnCallingThread&) = delete;
    BlasOnCallingThread& operator=(const BlasOnCallingThread&) = delete;

private:
    SetThreads set_ = nullptr;
    int before_ = 1;
};

bool plainFloat(const torch::Tensor& t)
{
    return t.defined() && t.device().is_cpu() && t.scalar_type() == torch::kFloat32 && t.is_contiguous();
}

} // namespace

std::unique_ptr<MlpStep> MlpStep::make(Model& model, const torch::Device& device, const TrainSpec& train, Task task,
                                       bool dataParallel)
{
    // It computes softmax cross-entropy by hand: a task whose labels are classes.
    if (!fusedKernelsWanted() || !registryEntry(task).classes)
        return nullptr;
    if (model.isScript() || !device.is_cpu() || !registryEntry(train.precision).ownFp32Paths() || dataParallel)
        return nullptr;
    const auto sgemm = blas().sgemm;
    if (!sgemm)
        return nullptr;
    // More than one thread needs OpenBLAS's switch to keep each product on its caller; with any other
    // BLAS the step would run on one thread, slower than autograd on several.
    if (at::get_num_threads() > 1 && !blasConfinable())
        return nullptr;
    std::vector<torch::nn::Linear> layers;
    const auto& modules = model.sequential()->children();
    if (modules.empty() || !modules.front()->as<torch::nn::Flatten>())
        return nullptr;
    for (size_t i = 1; i < modules.size(); ++i) {
        const auto& m = modules[i];
        const bool linearTurn = (i % 2) == 1; // Flatten, Linear, ReLU, Linear, …, Linear
        if (linearTurn) {
            auto* linear = m->as<torch::nn::Linear>();
            if (!linear || !linear->options.bias())
                return nullptr;
            layers.emplace_back(std::dynamic_pointer_cast<torch::nn::LinearImpl>(m));
        } else if (!m->as<torch::nn::ReLU>() || m->as<torch::nn::ReLU>()->options.inplace()) {
            return nullptr;
        }
    }
    if (layers.empty() || modules.size() % 2 != 0) // ends with a Linear
        return nullptr;
    for (size_t k = 1; k < layers.size(); ++k)
        if (layers[k]->options.in_features() != layers[k - 1]->options.out_features())
            return nullptr;
    for (const auto& l : layers)
        if (!plainFloat(l->weight) || !plainFloat(l->bias))
            return nullptr;
    return std::unique_ptr<MlpStep>(new MlpStep(std::move(layers), train.labelSmoothing, sgemm));
}

MlpStep::MlpStep(std::vector<torch::nn::Linear> layers, double smoothing, mlp::Sgemm sgemm)
    : layers_(std::move(layers))
    , smoothing_(smoothing)
    , sgemm_(sgemm)
{
}

bool MlpStep::accepts(const torch::Tensor& x, const torch::Tensor& y) const
{
    // The optimizer or a loaded checkpoint may have replaced a parameter: look again each step.
    for (const auto& l : layers_)
        if (!plainFloat(l->weight) || !plainFloat(l->bias))
            return false;
    return x.device().is_cpu() && x.scalar_type() == torch::kFloat32 && x.dim() >= 2 && x.size(0) > 0 &&
           x.numel() / x.size(0) == layers_.front()->options.in_features() && y.device().is_cpu() &&
           y.scalar_type() == torch::kInt64 && y.dim() == 1 && y.size(0) == x.size(0) &&
           x.size(0) <= std::numeric_limits<int>::max() / layers_.front()->options.in_features();
}

MlpStep::Result MlpStep::run(const torch::Tensor& xIn, const torch::Tensor& yIn)
{
    torch::NoGradGuard noGrad;
    const torch::Tensor x = xIn.contiguous(), y = yIn.contiguous();
    const int rows = int(x.size(0));
    const int64_t classes = layers_.back()->options.out_features();
    const int64_t* labels = y.data_ptr<int64_t>();
    for (int i = 0; i < rows; ++i)
        if (labels[i] < 0 || labels[i] >= classes)
            throw std::runtime_error("label " + std::to_string(labels[i]) + " is outside the model's " +
                                     std::to_string(classes) + " classes (0 to " + std::to_string(classes - 1) +
                                     "): check the data set's labels");
    if (weightGrads_.empty()) // made at the first step: a step that never comes costs no memory
        for (const auto& l : layers_) {
            weightGrads_.push_back(torch::empty_like(l->weight));
            biasGrads_.push_back(torch::empty_like(l->bias));
        }
    std::vector<mlp::Layer> layers;
    for (size_t k = 0; k < layers_.size(); ++k) {
        auto& l = *layers_[k];
        l.weight.mutable_grad() = weightGrads_[k];
        l.bias.mutable_grad() = biasGrads_[k];
        layers.push_back({l.weight.data_ptr<float>(), l.bias.data_ptr<float>(), weightGrads_[k].data_ptr<float>(),
                          biasGrads_[k].data_ptr<float>(), int(l.options.in_features()), int(l.options.out_features())});
    }
    // One thread where BLAS cannot be confined (the thread count may have been raised since make()).
    const int threads = at::in_parallel_region() || !blasConfinable() ? 1 : at::get_num_threads();
    mlp::StepResult r;
    try {
        BlasOnCallingThread confined;
        r = mlp::trainStep(sgemm_, layers, workspace_, x.data_ptr<float>(), labels, rows, smoothing_, threads);
    } catch (const std::bad_alloc&) {
        throw OutOfMemory{"the step's activations did not fit in memory"}; // TrainStep retries smaller
    }
    taken.fetch_add(1, std::memory_order_relaxed);
    return {torch::tensor(float(r.loss)), r.forwardEnd};
}

int64_t MlpStep::stepsTaken() { return taken.load(); }

bool MlpStep::threadsShareBlas() { return blasConfinable(); }

} // namespace entrena
