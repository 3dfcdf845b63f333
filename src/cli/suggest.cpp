#include "suggest.hpp"

#include <algorithm>

namespace layoutx::cli {

namespace {

// Levenshtein distance, counting a swap of neighbours as one edit ("evl" and "lev" are near "eval").
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

}  // namespace

std::string nearest(std::string_view word, const std::vector<std::string>& candidates) {
  if (word.empty() || word.size() > 64) return "";
  std::string best;
  std::size_t best_d = 3;
  for (const auto& c : candidates) {
    if (c.size() >= word.size() + best_d || word.size() >= c.size() + best_d) continue;
    const std::size_t d = edit_distance(word, c);
    if (d < best_d && d < std::max<std::size_t>(word.size(), 2)) {
      best_d = d;
      best = c;
    }
  }
  return best;
}

std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates) {
  const std::string best = nearest(word, candidates);
  return best.empty() ? "" : " (did you mean '" + best + "'?)";
}

}  // namespace layoutx::cli
