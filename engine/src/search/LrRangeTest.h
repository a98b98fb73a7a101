#pragma once
// The range test on a model and optimizer that exist already (the GUI's and the CLI's entry,
// findLearningRate, builds them): both are snapshotted first and restored exactly afterwards.

#include "data/Dataset.h"
#include "model/Model.h"
#include "entrena/search/LrFinder.h"

#include <torch/torch.h>

namespace entrena {

LrFinderResult rangeTest(Model& model, torch::optim::Optimizer& optimizer, const DataSplits& data, const RunConfig& config,
                         const torch::Device& device, const LrFinderOptions& options, const StopToken& stop,
                         const std::function<void(int, double, double)>& progress);

} // namespace entrena
