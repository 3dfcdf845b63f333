#pragma once

namespace layoutx {
inline constexpr const char* kVersion = "0.1.0";
// The CuTe whose answers layoutx reproduces: include/cute of this CUTLASS commit.
inline constexpr const char* kCutlassCommit = "7107b05";
inline constexpr const char* kCutlassCommitDate = "2026-08-20";
}  // namespace layoutx
