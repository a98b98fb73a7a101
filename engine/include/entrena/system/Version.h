#pragma once

namespace entrena {
inline constexpr const char* kVersion = "0.1.0";
}
