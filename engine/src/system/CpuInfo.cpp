#include "system/CpuInfo.h"

#include <fstream>
#include <sstream>

namespace entrena {

std::string cpuinfoField(const std::string& field)
{
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind(field, 0) != 0)
            continue;
        const auto colon = line.find(':');
        if (colon == std::string::npos)
            return {};
        const auto begin = line.find_first_not_of(" \t", colon + 1);
        return begin == std::string::npos ? std::string() : line.substr(begin);
    }
    return {};
}

bool hasCpuFlag(const std::string& flags, const char* flag)
{
    std::istringstream words(flags);
    std::string w;
    while (words >> w) {
        if (w == flag)
            return true;
    }
    return false;
}

} // namespace entrena
