#pragma once
// What the ranks of a data-parallel run agree on besides gradients: each logged step's global
// loss, every rank's memory, when to stop (all at the same step), and each epoch's loss sums.
// In one process it only reads the stop request.

#include "entrena/train/Events.h"

#include <cstdint>
#include <torch/torch.h>
#include <vector>

namespace entrena {

class DistGroup;

class RankSync {
public:
    RankSync(DistGroup* ranks, const torch::Device& device, const StopToken& stop)
        : ranks_(ranks)
        , device_(device)
        , stop_(stop)
    {
    }

    /// Whether to stop before the next step: on request, or (ranks) once every rank has agreed.
    bool shouldStop() const { return ranks_ ? agreedStop_ : stop_.stopRequested(); }

    /// At a logged step (ranks only): the global batch's mean loss; fills `rankMemory`.
    double exchangeAtLog(double localLoss, std::vector<int64_t>& rankMemory);

    /// At an epoch's end: the loss sum and sample count over every rank (as given in one process).
    void sumEpoch(double& lossSum, double& samples);

private:
    DistGroup* ranks_;
    torch::Device device_;
    const StopToken& stop_;
    bool agreedStop_ = false;
};

} // namespace entrena
