#pragma once
// What /proc/cpuinfo says about the first CPU: read in one place for the environment tuning and
// the device report.

#include <string>

namespace entrena {

/// The value of `field` ("model name", "flags", "vendor_id") of the first CPU, trimmed; "" if absent.
std::string cpuinfoField(const std::string& field);

/// Whether the space-separated `flags` list holds `flag` exactly.
bool hasCpuFlag(const std::string& flags, const char* flag);

} // namespace entrena
