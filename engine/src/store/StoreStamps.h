#pragma once
// The stamps the run store writes on what it records: times, the host, ids.

#include <string>

namespace entrena {

std::string isoNow();   ///< "2026-12-04T22:19:11.123Z" (UTC)
double unixNow();       ///< seconds since the Unix epoch
std::string hostName();
std::string newUuid();  ///< a random (version 4) UUID

} // namespace entrena
