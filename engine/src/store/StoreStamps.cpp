#include "store/StoreStamps.h"

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <random>
#include <unistd.h>

namespace entrena {

std::string isoNow()
{
    const auto now = std::chrono::system_clock::now();
    const std::time_t t = std::chrono::system_clock::to_time_t(now);
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[40];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
    char out[48];
    std::snprintf(out, sizeof out, "%s.%03dZ", buf, int(ms));
    return out;
}

double unixNow()
{
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

std::string hostName()
{
    char buf[256] = {};
    gethostname(buf, sizeof buf - 1);
    return buf;
}

std::string newUuid()
{
    std::random_device rd;
    std::mt19937_64 gen((uint64_t(rd()) << 32) ^ rd() ^ uint64_t(unixNow() * 1e6));
    uint64_t a = gen(), b = gen();
    a = (a & ~0xF000ULL) | 0x4000ULL;                        // version 4
    b = (b & 0x3FFFFFFFFFFFFFFFULL) | 0x8000000000000000ULL; // variant 1
    char out[40];
    std::snprintf(out, sizeof out, "%08x-%04x-%04x-%04x-%012llx", unsigned(a >> 32), unsigned((a >> 16) & 0xFFFF),
                  unsigned(a & 0xFFFF), unsigned(b >> 48), (unsigned long long)(b & 0xFFFFFFFFFFFFULL));
    return out;
}

} // namespace entrena
