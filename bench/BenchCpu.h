#pragma once
// What the C++ benchmarks print beside every figure: the CPU they ran on.

#include <fstream>
#include <string>

namespace entrena::bench {

/// /proc/cpuinfo's "model name" ("AMD EPYC", "Intel(R) Xeon(R) …"), or "unknown CPU".
inline std::string cpuName()
{
    std::ifstream info("/proc/cpuinfo");
    for (std::string line; std::getline(info, line);)
        if (line.rfind("model name", 0) == 0)
            return line.substr(line.find(':') + 2);
    return "unknown CPU";
}

} // namespace entrena::bench
