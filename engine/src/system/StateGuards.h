#pragma once
// Small shared pieces of process state: the per-user cache file, and a guard that puts the global
// random generator back as it was.

#include <ATen/CPUGeneratorImpl.h>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <string>
#include <torch/torch.h>

namespace entrena {

/// $XDG_CACHE_HOME/entrena/NAME (~/.cache when unset); empty without either variable.
inline std::filesystem::path cacheFilePath(const std::string& name)
{
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
        return std::filesystem::path(xdg) / "entrena" / name;
    if (const char* home = std::getenv("HOME"); home && *home)
        return std::filesystem::path(home) / ".cache" / "entrena" / name;
    return {};
}

/// The global CPU generator as it was when constructed, put back when destroyed: work that draws from
/// it (building a model for a summary, a path trial's dropout) must not change what a run draws next.
class GeneratorStateGuard {
public:
    GeneratorStateGuard()
        : gen_(at::detail::getDefaultCPUGenerator())
    {
        std::lock_guard<std::mutex> lock(gen_.mutex());
        state_ = gen_.get_state();
    }
    ~GeneratorStateGuard()
    {
        std::lock_guard<std::mutex> lock(gen_.mutex());
        gen_.set_state(state_);
    }
    GeneratorStateGuard(const GeneratorStateGuard&) = delete;
    GeneratorStateGuard& operator=(const GeneratorStateGuard&) = delete;

private:
    at::Generator gen_;
    at::Tensor state_;
};

} // namespace entrena
