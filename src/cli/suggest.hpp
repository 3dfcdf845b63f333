// "Did you mean": the known word nearest to a mistyped one.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace layoutx::cli {

// The candidate within two edits of `word` (the nearest, the first among
// equals), or "" when none is that close.
std::string nearest(std::string_view word, const std::vector<std::string>& candidates);

// " (did you mean 'X'?)" for the nearest candidate, or "".
std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace layoutx::cli
