#include "data/Holdout.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace entrena {

std::vector<int> foldOf(const torch::Tensor& labels, const torch::Tensor& order, int folds, bool stratify)
{
    const int64_t n = order.numel();
    const auto o = order.contiguous();
    const auto y = labels.to(torch::kInt64).contiguous();
    const int64_t* op = o.data_ptr<int64_t>();
    const int64_t* yp = y.data_ptr<int64_t>();
    std::vector<int64_t> dealt(op, op + n); // positions in the seeded order
    if (stratify)
        std::stable_sort(dealt.begin(), dealt.end(), [yp](int64_t a, int64_t b) { return yp[a] < yp[b]; });
    std::vector<int> fold(size_t(labels.numel()), -1);
    for (int64_t j = 0; j < n; ++j)
        fold[size_t(dealt[size_t(j)])] = int(j % folds);
    return fold;
}

HeldOut holdOut(const torch::Tensor& labels, const DataSpec& spec, at::Generator& gen, const char* what,
                const std::vector<std::string>& classNames)
{
    const int64_t n = labels.numel();
    const auto order = torch::randperm(n, gen, torch::kInt64);
    if (spec.folds < 2) {
        const int64_t nVal = int64_t(double(n) * spec.valFraction);
        if (n - nVal < 1)
            throw std::runtime_error("data.val_fraction leaves no training " + std::string(what) + " (" + std::to_string(n) +
                                     " in all)");
        return {order.slice(0, nVal, n), order.slice(0, 0, nVal)};
    }
    if (n < spec.folds)
        throw std::runtime_error("data.folds " + std::to_string(spec.folds) + " is more than the " + std::to_string(n) +
                                 " training " + what + "; use fewer folds");
    if (spec.stratify && n > 0) {
        const auto counts = torch::bincount(labels.to(torch::kInt64)).contiguous();
        const int64_t* c = counts.data_ptr<int64_t>();
        int64_t k = -1; // the smallest class present, whose size is the most folds there can be
        for (int64_t j = 0; j < counts.numel(); ++j)
            if (c[j] > 0 && (k < 0 || c[j] < c[k]))
                k = j;
        if (k >= 0 && c[k] < spec.folds) {
            const std::string name = size_t(k) < classNames.size() ? classNames[size_t(k)] : std::to_string(k);
            const std::string problem = "data.folds (--folds) " + std::to_string(spec.folds) + " is more than class '" + name +
                                        "' has " + what + " (" + std::to_string(c[k]) + "), so a stratified fold would miss it; ";
            throw std::runtime_error(problem + (c[k] >= 2 ? "use at most " + std::to_string(c[k]) + " folds, or " : "use ") +
                                     "data.stratify false (--no-stratify), or more data");
        }
    }
    const std::vector<int> fold = foldOf(labels, order, spec.folds, spec.stratify);
    // Both parts in the seeded order, as the single split keeps them.
    std::vector<int64_t> train, val;
    const int64_t* op = order.data_ptr<int64_t>();
    for (int64_t j = 0; j < n; ++j)
        (fold[size_t(op[j])] == spec.fold ? val : train).push_back(op[j]);
    auto tensor = [](const std::vector<int64_t>& v) { return torch::tensor(v, torch::kInt64); };
    return {tensor(train), tensor(val)};
}

torch::Tensor balancedClassWeights(const torch::Tensor& labels, int64_t classes)
{
    const auto counts = torch::bincount(labels.to(torch::kInt64), {}, classes).to(torch::kFloat64);
    const int64_t present = (counts > 0).sum().item<int64_t>();
    if (present < 2)
        throw std::runtime_error("data.balance needs at least two classes in the training data; it has " +
                                 std::to_string(present) + ", so there is nothing to balance: set data.balance to none");
    const double n = double(labels.numel());
    auto w = torch::where(counts > 0, n / (double(present) * counts), torch::zeros_like(counts));
    return w.to(torch::kFloat32);
}

torch::Tensor balancedSampleWeights(const torch::Tensor& labels, int64_t classes)
{
    const auto y = labels.to(torch::kInt64);
    const auto counts = torch::bincount(y, {}, classes).to(torch::kFloat64).clamp_min(1.0);
    return (1.0 / counts).index_select(0, y);
}

} // namespace entrena
