// Thread-value layouts as text: the tile with a T<thread>V<value> label in
// each cell, the inverse view (thread -> its cells), and the MMA arrangement.
#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>

#include "layoutx/algebra.hpp"
#include "layoutx/notation.hpp"
#include "layoutx/render_picture.hpp"
#include "tv_scan.hpp"

namespace layoutx {

namespace {

std::string label(const TvOwner& o) { return o.owned() ? fmt::format("T{}V{}", o.thread, o.value) : std::string(); }

// label(o).size() without building the label (a grid has many cells).
std::size_t label_size(const TvOwner& o) {
  return o.owned() ? 2 + fmt::formatted_size("{}", o.thread) + fmt::formatted_size("{}", o.value) : 0;
}

std::size_t widest(const std::vector<TvOwner>& owners, std::size_t at_least) {
  std::size_t w = at_least;
  for (const auto& o : owners) w = std::max(w, label_size(o));
  return w;
}

// "| label " with the label right-aligned to w.
void append_cell(std::string& out, const TvOwner& o, std::size_t w) {
  out += "| ";
  out.append(w - std::min(w, label_size(o)), ' ');
  if (o.owned()) fmt::format_to(std::back_inserter(out), "T{}V{}", o.thread, o.value);
  out += ' ';
}

// Whether ThrID numbers threads 0, 1, 2, ... (then it goes unmentioned).
bool is_identity(const Layout& thr_id) {
  const Layout c = coalesce(thr_id);
  return c.shape.is_leaf() && (c.shape.value().value == 1 || c.stride.value().value == 1);
}

std::string header(const TvView& view, Notation n) {
  std::string s = to_text(view.tv, n) + "\n(tile " + to_text(view.tile, n);
  if (!is_identity(view.thr_id)) s += ", ThrID " + to_text(view.thr_id, n);
  return s + ")\n";
}

// The labels of one panel as drawn (rows x cols after any transposition).
struct Labels {
  std::int64_t rows = 0, cols = 0;
  std::vector<TvOwner> owners;
  const TvOwner& at(std::int64_t r, std::int64_t c) const { return owners[static_cast<std::size_t>(r * cols + c)]; }
};

Labels drawn_labels(const TvView& view, const TvScan& scan) {
  Labels l{scan.extent.rows, scan.extent.cols, scan.owners};
  if (!view.transposed) return l;
  Labels t{l.cols, l.rows, std::vector<TvOwner>(l.owners.size())};
  for (std::int64_t r = 0; r < l.rows; ++r)
    for (std::int64_t c = 0; c < l.cols; ++c) t.owners[static_cast<std::size_t>(c * t.cols + r)] = l.at(r, c);
  return t;
}

// One row of boxes: "+-----+-----+" or "|T0V0 |T1V0 |".
std::string rule_row(std::int64_t n, std::size_t w) {
  std::string s;
  for (std::int64_t i = 0; i < n; ++i) {
    s += '+';
    s.append(w, '-');
  }
  return s + "+";
}

std::string label_row(const Labels& l, std::int64_t r, std::size_t w) {
  std::string s;
  for (std::int64_t c = 0; c < l.cols; ++c) s += fmt::format("|{:<{}}", label(l.at(r, c)), w);
  return s + "|";
}

// Broadcast layouts give a cell several owners; the grid shows the first, as
// print_latex_tv does, and this lists them all: "(0,1): T0..3V1", runs of
// consecutive threads holding the same value written as one.
std::string owner_runs(std::vector<TvOwner> owners) {
  std::sort(owners.begin(), owners.end(), [](const TvOwner& a, const TvOwner& b) {
    return a.value != b.value ? a.value < b.value : a.thread < b.thread;
  });
  std::string s;
  for (std::size_t i = 0; i < owners.size();) {
    std::size_t j = i;
    while (j + 1 < owners.size() && owners[j + 1].value == owners[i].value &&
           owners[j + 1].thread == owners[j].thread + 1)
      ++j;
    s += j == i ? fmt::format(" T{}V{}", owners[i].thread, owners[i].value)
                : fmt::format(" T{}..{}V{}", owners[i].thread, owners[j].thread, owners[i].value);
    i = j + 1;
  }
  return s;
}

std::string shared_cells(const TvView& view, const TvScan& scan) {
  constexpr std::size_t kListed = 32;
  constexpr std::int64_t kMostPairs = std::int64_t{1} << 22;  // the owners of each cell are held in memory
  const Layout threads = get(view.tv, 0), values = get(view.tv, 1);
  const std::int64_t pairs = size(threads).value * size(values).value;   // bounded by scan_tv
  if (static_cast<std::int64_t>(scan.order.size()) == pairs) return "";  // each pair claimed a cell of its own
  if (pairs > kMostPairs)
    return fmt::format(
        "some cells have more than one owner (the grid shows the first); {} (thread, value) pairs are "
        "too many to list them\n",
        pairs);
  const std::vector<std::int64_t> bases = layout_offsets(threads, INT64_MAX), steps = layout_offsets(values, INT64_MAX);
  const std::vector<std::int64_t> labels = thread_numbers(view.thr_id, static_cast<std::int64_t>(bases.size()));
  // Threads at one offset reach the same indices (GMMA's A and B: all 128
  // threads at offset 0), so they are walked once, as a group.
  std::vector<std::int64_t> group_offset;
  std::vector<std::vector<std::int64_t>> group_threads;  // the thread labels of each group, in thread order
  std::unordered_map<std::int64_t, std::size_t> group_of;
  for (std::size_t t = 0; t < bases.size(); ++t) {
    const auto [it, fresh] = group_of.try_emplace(bases[t], group_offset.size());
    if (fresh) {
      group_offset.push_back(bases[t]);
      group_threads.emplace_back();
    }
    group_threads[it->second].push_back(labels[t]);
  }
  // Each (group, value) with the index it reaches, sorted by index.
  struct Reach {
    std::int64_t index;
    std::size_t group;
    std::int64_t value;
  };
  std::vector<Reach> reach;
  reach.reserve(group_offset.size() * steps.size());
  for (std::size_t g = 0; g < group_offset.size(); ++g)
    for (std::size_t v = 0; v < steps.size(); ++v)
      reach.push_back({group_offset[g] + steps[v], g, static_cast<std::int64_t>(v)});
  const auto by_index = [](const Reach& a, const Reach& b) { return a.index < b.index; };
  std::sort(reach.begin(), reach.end(), by_index);
  std::string list;
  std::size_t shared = 0;
  std::vector<bool> told(reach.size(), false);  // an index held by several cells is told once (flag at its first entry)
  for (std::size_t c = 0; c < scan.index.size(); ++c) {
    const auto [first, last] = std::equal_range(reach.begin(), reach.end(), Reach{scan.index[c], 0, 0}, by_index);
    std::size_t owners = 0;
    for (auto it = first; it != last; ++it) owners += group_threads[it->group].size();
    if (owners < 2 || told[static_cast<std::size_t>(first - reach.begin())]) continue;
    told[static_cast<std::size_t>(first - reach.begin())] = true;
    if (++shared > kListed) continue;
    std::int64_t r = static_cast<std::int64_t>(c) / scan.extent.cols,
                 k = static_cast<std::int64_t>(c) % scan.extent.cols;
    if (view.transposed) std::swap(r, k);
    std::vector<TvOwner> every;
    for (auto it = first; it != last; ++it)
      for (const std::int64_t label : group_threads[it->group]) every.push_back({label, it->value});
    list += fmt::format("  ({},{}):{}\n", r, k, owner_runs(std::move(every)));
  }
  if (shared == 0) return "";
  if (shared > kListed) list += fmt::format("  ... and {} more\n", shared - kListed);
  return fmt::format("{} cells have more than one owner (the grid shows the first); every owner:\n", shared) + list;
}

}  // namespace

std::string render_tv_grid(const TvView& view, const PictureOptions& options) {
  const TvScan scan = scan_tv(view, options);
  const Labels l = drawn_labels(view, scan);
  const std::size_t w = widest(l.owners, fmt::formatted_size("{}", std::max<std::int64_t>(l.cols - 1, 0)));
  std::string out = header(view, options.notation);
  if (l.rows > 0 && l.cols > 0)  // a rule and a row of cells each
    out.reserve(static_cast<std::size_t>(2 * (l.rows + 1) * (l.cols * static_cast<std::int64_t>(w + 3) + 8)));
  out += "    ";
  for (std::int64_t c = 0; c < l.cols; ++c) fmt::format_to(std::back_inserter(out), "  {:>{}} ", c, w);
  out += "\n";
  std::string border = "    ";
  border += rule_row(l.cols, w + 2);
  border += '\n';
  for (std::int64_t r = 0; r < l.rows; ++r) {
    out += border;
    fmt::format_to(std::back_inserter(out), "{:>2}  ", r);
    for (std::int64_t c = 0; c < l.cols; ++c) append_cell(out, l.at(r, c), w);
    out += "|\n";
  }
  return out + border + shared_cells(view, scan);
}

std::string render_tv_threads(const TvView& view, const PictureOptions& options) {
  const TvScan scan = scan_tv(view, options);
  std::unordered_map<std::int64_t, std::int64_t> cell_of;  // index -> first cell holding it
  for (std::size_t c = 0; c < scan.index.size(); ++c) cell_of.emplace(scan.index[c], static_cast<std::int64_t>(c));
  const Layout threads = get(view.tv, 0), values = get(view.tv, 1);
  const std::vector<std::int64_t> bases = layout_offsets(threads, INT64_MAX), steps = layout_offsets(values, INT64_MAX);
  const std::vector<std::int64_t> labels = thread_numbers(view.thr_id, static_cast<std::int64_t>(bases.size()));
  std::string out = header(view, options.notation);
  for (std::size_t t = 0; t < bases.size(); ++t) {
    const std::int64_t label = labels[t];
    fmt::format_to(std::back_inserter(out), "T{}:", label);
    for (const std::int64_t step : steps) {
      const std::int64_t c = cell_of.at(bases[t] + step);
      fmt::format_to(std::back_inserter(out), " ({},{})", c / scan.extent.cols, c % scan.extent.cols);
    }
    out += "\n";
  }
  return out;
}

std::string render_mma_grids(const TvView& c, const TvView& a, const TvView& b, const PictureOptions& options) {
  const Labels lc = drawn_labels(c, scan_tv(c, options)), la = drawn_labels(a, scan_tv(a, options)),
               lb = drawn_labels(b, scan_tv(b, options));
  const std::size_t w = std::max({widest(lc.owners, 1), widest(la.owners, 1), widest(lb.owners, 1)});
  const std::string indent(static_cast<std::size_t>(la.cols) * (w + 1) + 4, ' ');
  std::string out;
  for (std::int64_t k = 0; k < lb.rows; ++k)
    out += indent + rule_row(lb.cols, w) + "\n" + indent + label_row(lb, k, w) + "\n";
  out += indent + rule_row(lb.cols, w) + "\n\n";
  for (std::int64_t m = 0; m < la.rows; ++m) {
    out += rule_row(la.cols, w) + "   " + rule_row(lc.cols, w) + "\n";
    out += label_row(la, m, w) + "   " + label_row(lc, m, w) + "\n";
  }
  return out + rule_row(la.cols, w) + "   " + rule_row(lc.cols, w) + "\n";
}

}  // namespace layoutx
