#include "commands/access_options.hpp"

#include <fmt/format.h>

#include "driver.hpp"
#include "layoutx/atoms.hpp"

namespace layoutx::cli {

void add_element_size(CLI::App* sub, ElementSize& e) {
  auto* group = sub->add_option_group("element size", "The size of one element of the layout (one of the two)");
  group->add_option("--elem-bytes", e.bytes, "Bytes per element (2 for half, 4 for float)")
      ->check(integer_range(1, 1024));
  group->add_option("--elem-bits", e.bits, "Bits per element, for sub-byte types (4 for int4)")
      ->check(integer_range(1, 8192));
  group->require_option(1);
}

std::vector<std::string> access_names() {
  std::vector<std::string> names;
  for (const auto& a : all_accesses()) names.emplace_back(a.name);
  return names;
}

std::optional<SharedAccess> access_named(const std::string& kind, bool store, std::string& why) {
  if (const auto a = find_access(kind)) return a;
  const Atom* atom = find_atom(kind);
  if (!atom) {
    why = fmt::format("'{}' is neither an access ({}) nor an atom (layoutx atom --list)", kind,
                      fmt::join(access_names(), " "));
    return std::nullopt;
  }
  try {
    return shared_access_of(*atom, store);
  } catch (const Error& e) {
    why = e.what();
  }
  return std::nullopt;
}

}  // namespace layoutx::cli
