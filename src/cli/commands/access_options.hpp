// What bank and swizzle-search share: the element size, and a shared-memory
// access named by its instruction or by a copy atom.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "layoutx/bank.hpp"

namespace layoutx::cli {

struct ElementSize {
  std::int64_t bytes = 0;
  std::int64_t bits = 0;
  std::int64_t in_bits() const { return bits ? bits : bytes * 8; }
};

// --elem-bytes or --elem-bits, one of the two.
void add_element_size(CLI::App* sub, ElementSize& e);

// The instructions --access names.
std::vector<std::string> access_names();

// KIND of --access / KIND:PATTERN: an instruction name, or a copy atom whose
// instruction it is (its store when `store`); nothing, and `why`, when neither.
std::optional<SharedAccess> access_named(const std::string& kind, bool store, std::string& why);

}  // namespace layoutx::cli
