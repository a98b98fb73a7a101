#include "entrena/train/Events.h"

namespace entrena {

const char* toString(RunStatus status)
{
    switch (status) {
    case RunStatus::Running: return "running";
    case RunStatus::Finished: return "finished";
    case RunStatus::Stopped: return "stopped";
    case RunStatus::Failed: return "failed";
    case RunStatus::Diverged: return "diverged";
    case RunStatus::Interrupted: return "interrupted";
    }
    return "failed";
}

RunStatus runStatusFromString(const std::string& text)
{
    for (RunStatus s : {RunStatus::Running, RunStatus::Finished, RunStatus::Stopped, RunStatus::Failed, RunStatus::Diverged,
                        RunStatus::Interrupted}) {
        if (text == toString(s))
            return s;
    }
    return RunStatus::Failed;
}

} // namespace entrena
