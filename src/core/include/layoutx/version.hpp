#pragma once

namespace layoutx {
inline constexpr const char* kVersion = "0.1.0";
}
