#include "train/RankSync.h"

#include "dist/DistGroup.h"
#include "system/ProcessMemory.h"

namespace entrena {

double RankSync::exchangeAtLog(double localLoss, std::vector<int64_t>& rankMemory)
{
    const int64_t memory = device_.is_cuda() ? cudaMemory(device_.index()).allocated : residentMemoryBytes();
    RankReports all = ranks_->exchange(localLoss, stop_.stopRequested(), memory);
    agreedStop_ = agreedStop_ || all.anyStop;
    rankMemory = std::move(all.memoryBytes);
    return all.meanLoss;
}

void RankSync::sumEpoch(double& lossSum, double& samples)
{
    if (!ranks_)
        return;
    auto sums = torch::tensor({lossSum, samples, stop_.stopRequested() ? 1.0 : 0.0}, torch::kFloat64);
    ranks_->allreduceSum({sums});
    lossSum = sums[0].item<double>();
    samples = sums[1].item<double>();
    agreedStop_ = agreedStop_ || sums[2].item<double>() > 0;
}

} // namespace entrena
