#pragma once
// Which training samples are held out for validation: data.val_fraction of them drawn by the seed,
// or, under k-fold cross-validation, fold data.fold of data.folds (docs/experiments.md,
// "Cross-validation"). Every data set splits through here, so every one folds the same way.

#include "entrena/config/Config.h"

#include <torch/torch.h>

namespace entrena {

struct HeldOut {
    torch::Tensor train; ///< sample indices that train (int64)
    torch::Tensor val;   ///< sample indices held out for validation (int64)
};

/// Splits samples 0 … labels.numel() − 1. The seeded order is one randperm of `gen` in either case,
/// so a run without folds splits exactly as it always has. Folds: that order, sorted by class
/// (stably) when data.stratify, is dealt round-robin into data.folds folds, so fold sizes differ by
/// at most one and each class's share of a fold differs from its share of the data by less than one
/// sample. `what` names the samples in messages ("samples", "images"). Throws std::runtime_error
/// when nothing would train, or a stratified class has fewer samples than folds.
HeldOut holdOut(const torch::Tensor& labels, const DataSpec& spec, at::Generator& gen, const char* what,
                const std::vector<std::string>& classNames = {});

/// The fold (0 … folds − 1) of each sample, as holdOut deals them (for tests and the data preview).
std::vector<int> foldOf(const torch::Tensor& labels, const torch::Tensor& order, int folds, bool stratify);

/// Each class's weight for `balance: weights`: n / (classes × count), as scikit-learn's "balanced"
/// (a class absent from the training split gets 0). Throws std::runtime_error with fewer than two
/// classes present.
torch::Tensor balancedClassWeights(const torch::Tensor& labels, int64_t classes);

/// Each sample's weight for `balance: sampler`: 1 / its class's count, so every class is drawn
/// equally often.
torch::Tensor balancedSampleWeights(const torch::Tensor& labels, int64_t classes);

} // namespace entrena
