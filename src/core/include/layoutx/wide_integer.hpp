// 128-bit integers, for the intermediate products and sums of 64-bit values
// that must not wrap. __int128 is a GCC and Clang extension, not ISO C++:
// __extension__ marks the one place it is named, so -Wpedantic holds elsewhere.
#pragma once

namespace layoutx {

__extension__ using Int128 = __int128;
__extension__ using UInt128 = unsigned __int128;

}  // namespace layoutx
