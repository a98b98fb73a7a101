#include "train/OomRecovery.h"

#include "entrena/config/Config.h"
#include "store/CheckpointFile.h"
#include "train/Recorder.h"

#include <stdexcept>

namespace entrena {

void OomRecovery::operator()(const OomRetry& retry, const TrainStep& step)
{
    if (distributed_)
        throw std::runtime_error(retry.cause + "; OOM recovery works on one device only: lower data.batch_size "
                                               "(it is per rank)");
    if (!spec_.oomRecovery)
        throw std::runtime_error(retry.cause + "; train.oom_recovery is off");
    state_.microSplit = step.split();
    recorder_.notice({"oom_retry", state_.step + 1, state_.epoch, retry.describe()});
}

} // namespace entrena
