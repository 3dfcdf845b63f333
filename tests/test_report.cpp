// The report's model of memory traffic against what Nsight Compute measured
// on an H200 for the kernel programs of tests/data/report: each program's
// copy call sites (sites.tsv, partitioned here as CuTe partitions them) give
// predicted counters for one CTA that must equal the measured ones
// (measured.tsv).
#include <doctest/doctest.h>

#include <map>
#include <sstream>

#include "layout_of.hpp"
#include "layoutx/memory_traffic.hpp"
#include "layoutx/nsight_counters.hpp"
#include "layoutx/partition_threads.hpp"
#include "layoutx/traffic_findings.hpp"
#include "test_support.hpp"

namespace layoutx::test {

namespace {

std::vector<std::string> words(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream ss(text);
  for (std::string w; ss >> w;) out.push_back(w);
  return out;
}

const Atom& atom_named(const std::string& name) {
  const Atom* a = find_atom(name);
  REQUIRE_MESSAGE(a != nullptr, "no atom " << name);
  return *a;
}

Layout plain_layout(const std::string& text) {
  const AnyLayout l = layout_of(text);
  REQUIRE_MESSAGE(std::holds_alternative<Layout>(l), text << " is no plain layout");
  return std::get<Layout>(l);
}

// CuTe's UniversalFMA: one thread, a 1x1x1 tile.
MmaAtom universal_fma() {
  const Layout one = plain_layout("(1,1):(0,0)");
  return MmaAtom{"UniversalFMA", IntTuple::tuple({static_int(1), static_int(1), static_int(1)}), plain_layout("1:0"),
                 one, one, one};
}

// `MMA_ATOM ATOM_LAYOUT [PERMUTATION]`
TiledMma tiled_mma_of(const std::vector<std::string>& w, std::size_t at, Diagnostics& diag) {
  const MmaAtom atom = w.at(at) == "UniversalFMA" ? universal_fma() : atom_named(w.at(at)).mma;
  std::vector<Tiler> permutation;
  if (w.size() > at + 2) {
    const Layout extents = plain_layout(w[at + 2]);
    for (const IntTuple& e : extents.shape.elems()) permutation.push_back(Tiler::of(e.value()));
  }
  return make_tiled_mma(atom, plain_layout(w.at(at + 1)), permutation, diag);
}

// make_tiled_copy_A / _B: the atom over the TiledMMA's A or B thread-value layout.
TiledCopy tiled_copy_of_operand(char operand, const Atom& atom, int bits, const TiledMma& mma, Diagnostics& diag) {
  TiledCopy copy;
  copy.atom = atom.copy;
  copy.bits = bits;
  copy.values = copy_elements(atom.copy, bits, diag);
  copy.layout_tv = operand == 'A' ? layout_A_TV(mma, diag) : layout_B_TV(mma, diag);
  copy.tiler_mn = IntTuple::tuple({tile_size(mma, operand == 'A' ? 0 : 1), tile_size(mma, 2)});
  return copy;
}

Partitioner partitioner_of(const std::string& text, int bits, Diagnostics& diag) {
  const auto w = words(text);
  Partitioner p;
  if (w.at(0) == "copy") {
    p.copy = make_tiled_copy(atom_named(w.at(1)).copy, bits, plain_layout(w.at(2)), plain_layout(w.at(3)), diag);
  } else if (w.at(0) == "copy_A" || w.at(0) == "copy_B") {
    p.copy = tiled_copy_of_operand(w[0].back(), atom_named(w.at(1)), bits, tiled_mma_of(w, 2, diag), diag);
  } else {
    REQUIRE_MESSAGE(w.at(0) == "mma", "unknown partitioner " << text);
    p.mma = tiled_mma_of(w, 1, diag);
  }
  return p;
}

MemorySpace space_of(const std::string& s) {
  if (s == "global") return MemorySpace::Global;
  if (s == "shared") return MemorySpace::Shared;
  return MemorySpace::Register;
}

// Every thread's element offsets of the partition `part` of `tensor`
// (`LAYOUT` or `LAYOUT+N`).
std::vector<std::vector<std::int64_t>> partition_offsets(Partitioner p, char part, const std::string& tensor, int bits,
                                                         Diagnostics& diag) {
  const std::size_t plus = tensor.rfind('+');
  const std::int64_t shift = plus == std::string::npos ? 0 : std::stoll(tensor.substr(plus + 1));
  p.operand = part;
  PartitionRequest r;
  r.tensor = layout_of(tensor.substr(0, plus));
  r.bits = bits;
  const PartitionAnswer a = partition_threads(p, r, diag);
  std::vector<std::vector<std::int64_t>> out;
  for (ThreadAccesses& t : thread_accesses(a.parts, a.model)) {
    for (std::int64_t& o : t.offsets) o += shift;
    out.push_back(std::move(t.offsets));
  }
  return out;
}

// A register fragment holds the other side's elements in their order.
std::vector<std::vector<std::int64_t>> fragment_offsets(const std::vector<std::vector<std::int64_t>>& other) {
  std::vector<std::vector<std::int64_t>> out;
  for (const auto& o : other) {
    out.emplace_back(o.size());
    for (std::size_t i = 0; i < o.size(); ++i) out.back()[i] = static_cast<std::int64_t>(i);
  }
  return out;
}

CopySite site_of(const std::vector<std::string>& r, int threads, Diagnostics& diag) {
  CopySite s;
  s.label = r[0] + " " + r[1];
  s.element_bits = std::stoi(r[3]);
  s.executions = std::stoll(r[11]);
  s.kind = r[2] == "auto" ? CopyKind::AutoVectorizing : r[2] == "tma" ? CopyKind::Tma : CopyKind::Atom;
  if (s.kind == CopyKind::Atom) s.atom = &atom_named(r[2]);
  s.src.space = space_of(r[5]);
  s.dst.space = space_of(r[8]);
  s.src.static_layout = s.src.space != MemorySpace::Global;  // the programs' gmem strides are run-time
  s.dst.static_layout = s.dst.space != MemorySpace::Global;
  if (s.kind == CopyKind::Tma) {
    s.src.offsets.resize(static_cast<std::size_t>(threads));
    s.dst.offsets = s.src.offsets;
    return s;
  }
  const Partitioner p = partitioner_of(r[4], s.element_bits, diag);
  if (r[6] != "reg") s.src.offsets = partition_offsets(p, r[6][0], r[7], s.element_bits, diag);
  if (r[9] != "reg") s.dst.offsets = partition_offsets(p, r[9][0], r[10], s.element_bits, diag);
  if (r[6] == "reg") s.src.offsets = fragment_offsets(s.dst.offsets);
  if (r[9] == "reg") s.dst.offsets = fragment_offsets(s.src.offsets);
  return s;
}

// Each instruction of the kernel's sites, for a mismatch's message.
std::string breakdown(const std::vector<SiteTraffic>& sites) {
  std::ostringstream out;
  for (const SiteTraffic& t : sites)
    for (const InstructionTraffic& x : t.instructions)
      out << "\n  " << t.label << ": " << sass_name(x.op) << "." << x.bits << " x" << x.instructions << ", requests "
          << x.requests << ", sectors " << x.sectors << " (min " << x.min_sectors << "), wavefronts " << x.wavefronts
          << " (ideal " << x.ideal << ")";
  return out.str();
}

}  // namespace

TEST_CASE("report: every kernel's predicted counters equal what Nsight Compute measured on the H200") {
  Diagnostics diag;
  std::map<std::string, std::vector<SiteTraffic>> kernels;
  for (const auto& r : read_tsv("report/sites.tsv")) {
    REQUIRE(r.size() == 12);
    kernels[r[0]].push_back(predict_traffic(site_of(r, 256, diag)));
  }
  std::map<std::string, std::map<std::string, std::int64_t>> measured;
  for (const auto& r : read_tsv("report/measured.tsv")) {
    REQUIRE(r.size() >= 3);
    measured[r[0]][r[1]] = std::stoll(r[2]);
  }
  REQUIRE(kernels.size() >= 10);
  Mismatches mismatches(40);
  for (const auto& [kernel, sites] : kernels) {
    REQUIRE_MESSAGE(measured.count(kernel), "nothing measured for " << kernel);
    std::string wrong;
    for (const Counter& c : cta_counters(sites)) {
      const auto m = measured[kernel].find(std::string(c.metric));
      if (m == measured[kernel].end()) continue;  // a counter that ncu did not give
      if (m->second != c.value)
        wrong += "\n  " + std::string(c.metric) + ": predicted " + std::to_string(c.value) + ", measured " +
                 std::to_string(m->second);
    }
    if (!wrong.empty() && mismatches.report()) FAIL_CHECK(kernel << wrong << "\n  the model's instructions:" << breakdown(sites));
  }
  CHECK(mismatches.count() == 0);
}

TEST_CASE("report: each call site's findings are the faults its kernel was written with") {
  Diagnostics diag;
  std::map<std::string, std::string> found;
  for (const auto& r : read_tsv("report/sites.tsv")) {
    std::string kinds;
    for (const Finding& f : traffic_findings(predict_traffic(site_of(r, 256, diag))))
      kinds += (kinds.empty() ? "" : ",") + std::string(finding_name(f.kind));
    found[r[0] + " " + r[1]] = kinds.empty() ? "-" : kinds;
  }
  const auto rows = read_tsv("report/findings.tsv");
  CHECK(rows.size() == found.size());
  for (const auto& r : rows) {
    REQUIRE(r.size() == 3);
    CHECK_MESSAGE(found[r[0] + " " + r[1]] == r[2], r[0] << " " << r[1]);
  }
}

}  // namespace layoutx::test
