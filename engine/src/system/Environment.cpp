#include "system/Environment.h"

#include "entrena/system/Devices.h"

#include <nlohmann/json.hpp>
#include <unistd.h>

namespace entrena {

std::string environmentJson(int threads, int worldSize)
{
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    const DeviceReport r = probeDevices(false);
    nlohmann::json j = nlohmann::json::parse(toJson(r));
    j["threads"] = threads;
    j["world_size"] = worldSize;
    j["host"] = host;
    return j.dump();
}

} // namespace entrena
