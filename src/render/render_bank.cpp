// The bank model's answer as text, as a bank-coloured grid, and as JSON.
#include <fmt/format.h>

#include "layoutx/json_text.hpp"
#include "layoutx/render.hpp"
#include "layoutx/render_bank.hpp"
#include "picture_palette.hpp"

namespace layoutx {

namespace {

// 0-7,9,12-13
std::string lane_ranges(const std::vector<int>& lanes) {
  std::string out;
  for (std::size_t i = 0; i < lanes.size();) {
    std::size_t j = i;
    while (j + 1 < lanes.size() && lanes[j + 1] == lanes[j] + 1) ++j;
    if (!out.empty()) out += ",";
    out += j == i ? std::to_string(lanes[i]) : fmt::format("{}-{}", lanes[i], lanes[j]);
    i = j + 1;
  }
  return out;
}

std::string plural(std::int64_t n, std::string_view word) { return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s"); }

std::string elem_size_text(std::int64_t bits) {
  return bits % 8 == 0 ? fmt::format("{}-byte elements", bits / 8) : fmt::format("{}-bit elements", bits);
}

std::string phase_rule(const AccessInfo& info, const InstructionBanks& r) {
  if (info.matrices) return "one 8x16-byte matrix per phase";
  if (r.packed)
    return fmt::format("lane n reads lane n^{}'s address: two lanes per slot, {} lanes per phase", r.pair_distance,
                       r.phases.empty() ? 0 : 2 * 128 / info.bytes);
  if (info.bytes <= kBankBytes) return "the whole warp in one phase";
  return info.bytes == 8 ? "half-warps" : "quarter-warps";
}

// Banks in a row with the same collision (the banks of one vector) print as one line.
std::vector<std::pair<int, int>> collision_runs(const BankPhase& p) {
  auto same = [](const std::vector<BankWord>& a, const std::vector<BankWord>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
      if (a[i].lanes != b[i].lanes) return false;
    return true;
  };
  std::vector<std::pair<int, int>> runs;
  for (int b = 0; b < kBanks; ++b) {
    if (p.banks[b].size() < 2) continue;
    if (!runs.empty() && runs.back().second == b - 1 && same(p.banks[runs.back().first], p.banks[b]))
      runs.back().second = b;
    else
      runs.emplace_back(b, b);
  }
  return runs;
}

std::string word_text(const BankWord& w) {
  return fmt::format("lane{} {} @ byte {}", w.lanes.size() > 1 ? "s" : "", lane_ranges(w.lanes), w.word * kBankBytes);
}

// One lane per word, lanes in a row, words evenly spaced (a column walk):
// "lanes 0-31 @ bytes 0..3968 step 128"; empty when the words are irregular.
std::string progression_text(const std::vector<BankWord>& words) {
  if (words.size() < 3) return "";
  const std::int64_t step = words[1].word - words[0].word;
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (words[i].lanes.size() != 1 || words[i].lanes[0] != words[0].lanes[0] + static_cast<int>(i)) return "";
    if (i && words[i].word - words[i - 1].word != step) return "";
  }
  return fmt::format("lanes {}-{} @ bytes {}..{} step {}", words.front().lanes[0], words.back().lanes[0],
                     words.front().word * kBankBytes, words.back().word * kBankBytes, step * kBankBytes);
}

void text_instruction(std::string& out, const AccessInfo& info, const InstructionBanks& r, const std::string& indent) {
  for (std::size_t i = 0; i < r.phases.size(); ++i) {
    const BankPhase& p = r.phases[i];
    out += fmt::format("{}phase {} (lanes {}): {}{}\n", indent, i, lane_ranges(p.lanes),
                       plural(p.wavefronts, "wavefront"), p.wavefronts == 1 ? ", no conflict" : "");
    for (auto [first, last] : collision_runs(p)) {
      const auto& words = p.banks[first];
      std::string list = progression_text(words);
      if (list.empty())
        for (const auto& w : words) list += (list.empty() ? "" : ", ") + word_text(w);
      out += fmt::format("{}  bank{} {}: {} words: {}\n", indent, first == last ? "" : "s",
                         first == last ? std::to_string(first) : fmt::format("{}-{}", first, last), words.size(), list);
    }
  }
  (void)info;
}

std::string render_text(const BankAnalysis& a) {
  const AccessInfo& info = access_info(a.access);
  std::string out;
  out += fmt::format("access: {} ({}), {} bytes per {}, {}\n", info.name, info.instruction, info.bytes,
                     info.matrices ? "matrix row" : "lane", elem_size_text(a.elem_bits));
  if (a.instructions.size() > 1) out += fmt::format("instructions: {}\n", a.instructions.size());
  out += fmt::format("wavefronts: {}\nideal: {}\nconflict degree: {}-way\n", a.wavefronts, a.ideal, a.conflict_degree);
  if (a.instructions.size() == 1) {
    const InstructionBanks& r = a.instructions[0];
    out += fmt::format("phases: {} ({})\n", r.phases.size(), phase_rule(info, r));
    text_instruction(out, info, r, "");
    return out;
  }
  for (std::size_t k = 0; k < a.instructions.size(); ++k) {
    const InstructionBanks& r = a.instructions[k];
    out += fmt::format("instruction {}: {} (ideal {}), phases: {}\n", k, plural(r.wavefronts, "wavefront"), r.ideal,
                       phase_rule(info, r));
    text_instruction(out, info, r, "  ");
  }
  return out;
}

// ---- grid ----

std::string paint(const std::string& cell, int bank, bool color) {
  if (!color) return cell;
  const Rgb c = palette_color(Palette::Bank32, bank);
  return fmt::format("\x1b[48;5;{};{}m{}\x1b[0m", xterm256(c), is_dark(c) ? 97 : 30, cell);
}

int bank_of_byte(std::int64_t byte) { return static_cast<int>((byte / kBankBytes) % kBanks); }

// Lanes in rows of 8 (a quarter-warp per row), each cell the bank of the lane's first word.
void grid_lanes(std::string& out, const InstructionBanks& r, int used, bool color) {
  out += "bank of each lane's first word (rows of 8 lanes):\n      ";
  for (int c = 0; c < 8; ++c) out += fmt::format("{:>4}", c);
  out += "\n";
  for (int row = 0; row * 8 < used; ++row) {
    out += fmt::format("{:>4}  ", row * 8);
    for (int c = 0; c < 8; ++c) {
      const int lane = row * 8 + c;
      if (lane >= used) break;
      const int bank = bank_of_byte(r.byte_offsets[lane]);
      out += paint(fmt::format("{:>4}", bank), bank, color);
    }
    out += "\n";
  }
}

// A row per wavefront, a column per bank: the lane (lowest of those sharing
// the word, '+' when several) that the bank serves in that wavefront.
void grid_schedule(std::string& out, const InstructionBanks& r, bool color) {
  out += "wavefronts (columns are banks; a cell is the lane served, + when several lanes share the word):\n         ";
  for (int b = 0; b < kBanks; ++b) out += fmt::format("{:>3} ", b);
  out += "\n";
  for (std::size_t p = 0; p < r.phases.size(); ++p) {
    const BankPhase& phase = r.phases[p];
    for (int w = 0; w < phase.wavefronts; ++w) {
      out += fmt::format("  p{} w{:<2} ", p, w);
      for (int b = 0; b < kBanks; ++b) {
        const auto& words = phase.banks[b];
        if (static_cast<std::size_t>(w) >= words.size()) {
          out += "  . ";
          continue;
        }
        const BankWord& word = words[w];
        const std::string cell = fmt::format("{:>3}{}", word.lanes[0], word.lanes.size() > 1 ? "+" : " ");
        out += paint(cell, b, color);
      }
      out += "\n";
    }
  }
}

std::string render_grid_view(const BankAnalysis& a, bool color) {
  const AccessInfo& info = access_info(a.access);
  std::string out =
      fmt::format("access: {} ({}), {}\nwavefronts: {}\nideal: {}\nconflict degree: {}-way\n", info.name,
                  info.instruction, elem_size_text(a.elem_bits), a.wavefronts, a.ideal, a.conflict_degree);
  for (std::size_t k = 0; k < a.instructions.size(); ++k) {
    const InstructionBanks& r = a.instructions[k];
    if (a.instructions.size() > 1) out += fmt::format("\ninstruction {}: {}\n", k, plural(r.wavefronts, "wavefront"));
    const int used = info.matrices ? 8 * info.matrices : static_cast<int>(r.byte_offsets.size());
    grid_lanes(out, r, used, color);
    grid_schedule(out, r, color);
  }
  return out;
}

// ---- JSON ----

std::string int_array(const std::vector<int>& v) {
  json::Array out;
  for (int x : v) out.num(x);
  return out.done();
}

std::string json_phase(const BankPhase& p) {
  json::Array conflicts;
  for (int b = 0; b < kBanks; ++b) {
    if (p.banks[b].size() < 2) continue;
    json::Array words;
    for (const auto& w : p.banks[b])
      words.raw(json::Object().num("byte", w.word * kBankBytes).raw("lanes", int_array(w.lanes)).done());
    conflicts.raw(json::Object().num("bank", b).raw("words", words.done()).done());
  }
  return json::Object()
      .raw("lanes", int_array(p.lanes))
      .num("wavefronts", p.wavefronts)
      .raw("conflicts", conflicts.done())
      .done();
}

void json_instruction(json::Object& o, const InstructionBanks& r) {
  json::Array offsets, phases;
  for (const auto x : r.byte_offsets) offsets.num(x);
  for (const BankPhase& p : r.phases) phases.raw(json_phase(p));
  o.num("wavefronts", r.wavefronts)
      .num("ideal", r.ideal)
      .num("conflict_degree", r.conflict_degree)
      .raw("packed", json::boolean(r.packed))
      .raw("byte_offsets", offsets.done())
      .raw("phases", phases.done());
}

std::string render_json(const BankAnalysis& a) {
  const AccessInfo& info = access_info(a.access);
  json::Object o;
  o.str("access", info.name).str("instruction", info.instruction).num("elem_bits", a.elem_bits);
  if (a.elem_bits % 8 == 0) o.num("elem_bytes", a.elem_bits / 8);
  o.num("instructions", static_cast<std::int64_t>(a.instructions.size()));
  if (a.instructions.size() == 1) {
    json_instruction(o, a.instructions[0]);
    return o.done() + "\n";
  }
  o.num("wavefronts", a.wavefronts).num("ideal", a.ideal).num("conflict_degree", a.conflict_degree);
  json::Array each;
  for (std::size_t k = 0; k < a.instructions.size(); ++k) {
    json::Object i;
    json_instruction(i, a.instructions[k]);
    each.raw(i.done());
  }
  o.raw("per_instruction", each.done());
  return o.done() + "\n";
}

// ---- search ----

std::string json_candidate(const SearchCandidate& c, const std::vector<AccessPattern>& patterns, Notation n) {
  json::Array scores;
  for (std::size_t i = 0; i < c.scores.size(); ++i) {
    const PatternScore& s = c.scores[i];
    scores.raw(json::Object()
                   .str("role", patterns[i].role)
                   .str("access", access_info(s.access).name)
                   .num("wavefronts", s.wavefronts)
                   .num("ideal", s.ideal)
                   .num("instructions", s.instructions)
                   .num("vector_bytes", s.vector_bytes)
                   .done());
  }
  json::Object o;
  o.str("layout", to_text(c.layout, n))
      .raw("swizzle", c.swizzle ? json::quote(to_text(*c.swizzle)) : "null")
      .raw("padding", c.padding ? json::Object().num("row", c.row).num("elements", c.padding).done() : "null")
      .num("wavefronts", c.wavefronts)
      .num("ideal", c.ideal)
      .num("vector_bytes", c.vector_bytes)
      .num("extra_bytes", c.extra_bytes)
      .raw("patterns", scores.done());
  return o.done();
}

std::string score_cell(const PatternScore& s) {
  return fmt::format("{}/{} {}", s.wavefronts, s.ideal, access_info(s.access).name);
}

}  // namespace

std::string render_bank(const BankAnalysis& a, BankFormat format, bool color) {
  switch (format) {
    case BankFormat::Json: return render_json(a);
    case BankFormat::Grid: return render_grid_view(a, color);
    case BankFormat::Text: break;
  }
  return render_text(a);
}

std::string render_search(const SearchResult& r, const Layout& tile, std::int64_t elem_bits,
                          const std::vector<AccessPattern>& patterns, bool json, Notation n) {
  if (json) {
    json::Array ranked;
    for (const SearchCandidate& c : r.ranked) ranked.raw(json_candidate(c, patterns, n));
    return json::Object()
               .str("tile", to_text(tile, n))
               .num("elem_bits", elem_bits)
               .num("evaluated", r.evaluated)
               .num("infeasible", r.infeasible)
               .raw("given", json_candidate(r.base, patterns, n))
               .raw("ranked", ranked.done())
               .done() +
           "\n";
  }
  std::string out = fmt::format("tile: {}, {}\n", to_text(tile, n), elem_size_text(elem_bits));
  for (const auto& p : patterns)
    out += fmt::format("{}: {} over {}\n", p.role, access_info(p.access).name, to_text(p.lanes, n));
  out += fmt::format("candidates: {} evaluated", r.evaluated);
  if (r.infeasible) out += fmt::format(", {} split ldmatrix/stmatrix rows and were dropped", r.infeasible);
  out += "\n\n";

  // Columns: rank, total, one "wavefronts/ideal instruction" cell and vector width per pattern, extra bytes, layout.
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> header = {"rank", "wavefronts"};
  for (const auto& p : patterns) {
    header.push_back(p.role);
    header.push_back("vec");
  }
  header.push_back("extra");
  header.push_back("layout");
  rows.push_back(header);
  auto add = [&](std::string rank, const SearchCandidate& c) {
    std::vector<std::string> row = {std::move(rank), std::to_string(c.wavefronts)};
    for (const auto& s : c.scores) {
      row.push_back(score_cell(s));
      row.push_back(fmt::format("{}B", s.vector_bytes));
    }
    row.push_back(fmt::format("{}B", c.extra_bytes));
    row.push_back(to_text(c.layout, n));
    rows.push_back(std::move(row));
  };
  for (std::size_t i = 0; i < r.ranked.size(); ++i) add(std::to_string(i + 1), r.ranked[i]);
  add("given", r.base);

  std::vector<std::size_t> width(header.size(), 0);
  for (const auto& row : rows)
    for (std::size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t c = 0; c < row.size(); ++c) {
      const bool last = c + 1 == row.size();
      line += last ? row[c] : fmt::format("{:<{}}  ", row[c], width[c]);
    }
    out += line + "\n";
  }
  return out;
}

}  // namespace layoutx
