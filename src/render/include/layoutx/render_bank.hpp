// Renderers of the bank model and the swizzle search: text, a bank-coloured
// grid, JSON. They read engine results only.
#pragma once

#include <string>
#include <vector>

#include "layoutx/bank.hpp"
#include "layoutx/swizzle_search.hpp"

namespace layoutx {

enum class BankFormat { Text, Grid, Json };

// Text: the counts, then each phase and the lanes that collide in each bank.
// Grid: the counts, the bank of every lane, and the wavefront schedule (a row
// per wavefront, a column per bank, each cell the lane served), cells
// coloured by bank when `color`. JSON: one object on one line.
std::string render_bank(const BankAnalysis& a, BankFormat format, bool color);

// The ranking: the best candidates with their wavefronts per pattern, and the
// tile as given for comparison; as a table or one JSON object.
std::string render_search(const SearchResult& r, const Layout& tile, std::int64_t elem_bits,
                          const std::vector<AccessPattern>& patterns, bool json, Notation n);

}  // namespace layoutx
