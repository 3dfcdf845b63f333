// partition: what each thread of a TiledMMA or TiledCopy touches of one CTA
// tile of a tensor, as a mainloop partitions it (local_tile, then
// partition_A/B/C or partition_S/D of the tensor and of the identity tensor
// over its shape): fragment layouts, coordinates, offsets, access widths and
// the elements the residue predicate masks off; or who owns a coordinate.
#include <fmt/format.h>

#include <cctype>
#include <optional>

#include "driver.hpp"
#include "layoutx/atoms.hpp"
#include "layoutx/notation.hpp"
#include "layoutx/partition_threads.hpp"
#include "layoutx/render_partition.hpp"
#include "layoutx/render_picture.hpp"
#include "io/output.hpp"
#include "commands/permutation_option.hpp"
#include "io/picture_output.hpp"

namespace layoutx::cli {

namespace {

struct PartitionOptions {
  std::string tensor, mma, atoms, permute, copy, thr, val, operand, tile, tile_coord, problem, owner, format;
  int bits = 16;
  std::int64_t thread = 0;
  const CLI::Option* thread_option = nullptr;
  bool json = false;
  PictureTarget target;
};

// "1000,1000" reads as the tuple (1000,1000).
std::string as_tuple_text(const std::string& text) {
  if (text.find(',') != std::string::npos && text.find('(') == std::string::npos) return "(" + text + ")";
  return text;
}

struct Evaluated {
  std::optional<Value> value;
  bool failed = false;
};

Evaluated evaluate_if_given(const Settings& s, const std::string& text, Diagnostics& diag) {
  if (text.empty()) return {};
  std::optional<Value> v = evaluate_option(s, text, {text}, diag);
  return {v, !v};
}

// --atoms, --thr and --val count atoms, threads and values along each mode.
bool positive_counts(const Evaluated& e, const char* option, Notation n) {
  const std::optional<Layout> l = e.value ? e.value->as_plain_layout() : std::nullopt;
  if (!l) return true;  // no layout: plain_option_layout names the problem
  for (const Int& count : leaves(l->shape))
    if (count.value <= 0) {
      report_error(fmt::format("{} counts atoms, threads or values along each mode: {} in {} is not positive", option,
                               count.value, to_text(l->shape, n)),
                   "", 0, false);
      return false;
    }
  return true;
}

Layout plain_option_layout(const Value& v, const char* option, Notation n) {
  if (const auto l = v.as_plain_layout()) return *l;
  throw Error(fmt::format("{} needs a layout or a shape, got {} {}", option, a_kind_name(v), to_text(v, n)));
}

IntTuple tuple_option(const Value& v, const char* option, Notation n) {
  if (!v.is_int_tuple()) throw Error(fmt::format("{} needs integers such as (1000,1000), got {} {}", option, a_kind_name(v), to_text(v, n)));
  return v.as_int_tuple();
}

char operand_letter(const std::string& text, bool mma) {
  std::string o;
  for (char c : text) o += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (o.empty()) return mma ? 'C' : 'S';
  if (mma && (o == "A" || o == "B" || o == "C")) return o[0];
  if (!mma && (o == "S" || o == "D" || o == "SRC" || o == "DST")) return o[0];
  throw Error(mma ? fmt::format("--operand of a TiledMMA is A, B or C, not '{}'", text)
                  : fmt::format("--operand of a TiledCopy is S or D (source or destination), not '{}'", text));
}

std::string partitioner_name(const Atom& atom, char operand) {
  return fmt::format("partition_{} of {} {}", operand, atom.kind == Atom::Kind::Mma ? "TiledMMA" : "TiledCopy", atom.name);
}

bool is_text_format(const std::string& f) { return f.empty() || f == "text" || f == "csv" || f == "json"; }

int run_partition(Settings& s, PartitionOptions& o) {
  if (o.mma.empty() == o.copy.empty()) {
    report_error("partition takes a TiledMMA (--mma ATOM) or a TiledCopy (--copy ATOM --thr L --val L)", "", 0, false);
    return kUsage;
  }
  if (!o.mma.empty() && (!o.thr.empty() || !o.val.empty())) {
    report_error("--thr and --val go with --copy; a TiledMMA takes --atoms and --permute", "", 0, false);
    return kUsage;
  }
  if (!o.copy.empty() && (!o.atoms.empty() || !o.permute.empty() || o.thr.empty() || o.val.empty())) {
    report_error("a TiledCopy takes --thr and --val (not --atoms or --permute)", "", 0, false);
    return kUsage;
  }
  if (o.json) o.format = "json";
  if (!o.owner.empty() && (o.format == "csv" || !is_text_format(o.format))) {
    report_error("--owner answers as text or JSON", "", 0, false);
    return kUsage;
  }
  PictureFormat picture = PictureFormat::Text;
  if (!is_text_format(o.format) || (!o.target.file.empty() && o.format.empty())) {
    if (!o.format.empty()) o.target.format = o.format;
    if (!resolve_format(o.target, PictureFormat::Svg, false, picture)) return kUsage;
  } else if (!o.target.file.empty() || (o.target.file_option && o.target.file_option->count() > 0)) {
    report_error("-o writes a picture (--format svg, tikz or html); text, csv and json go to standard output", "", 0, false);
    return kUsage;
  }
  const std::string& name = o.mma.empty() ? o.copy : o.mma;
  const Atom* atom = find_atom(name);
  if (!atom) {
    report_error(fmt::format("no atom is called '{}' (layoutx atom --list FILTER lists the catalogue)", excerpt(name)), "", 0, false);
    return kRejected;
  }
  if ((atom->kind == Atom::Kind::Mma) != !o.mma.empty()) {
    report_error(fmt::format("{} is {} atom; give it to {}", atom->name, atom->kind == Atom::Kind::Mma ? "an MMA" : "a copy",
                             atom->kind == Atom::Kind::Mma ? "--mma" : "--copy"),
                 "", 0, false);
    return kRejected;
  }
  Diagnostics diag = diagnostics(s);
  const Notation n = notation(s);
  const std::optional<Value> tensor = evaluate_option(s, o.tensor, {o.tensor}, diag);
  if (!tensor) return kRejected;
  // The TiledMMA's and TiledCopy's layouts are C++ types, static in CuTe.
  Settings static_settings = s;
  static_settings.language.dynamic = false;
  const std::string problem = as_tuple_text(o.problem), owner = as_tuple_text(o.owner);
  const Evaluated atoms = evaluate_if_given(static_settings, o.atoms, diag), permute = evaluate_if_given(static_settings, o.permute, diag),
                  thr = evaluate_if_given(static_settings, o.thr, diag), val = evaluate_if_given(static_settings, o.val, diag),
                  tile = evaluate_if_given(static_settings, o.tile, diag), coord = evaluate_if_given(s, o.tile_coord, diag),
                  bound = evaluate_if_given(s, problem, diag), who = evaluate_if_given(s, owner, diag);
  for (const Evaluated* e : {&atoms, &permute, &thr, &val, &tile, &coord, &bound, &who})
    if (e->failed) return kRejected;
  if (!positive_counts(atoms, "--atoms", n) || !positive_counts(thr, "--thr", n) || !positive_counts(val, "--val", n))
    return kUsage;

  std::string document;
  const int status = run_reporting_errors({}, notation(s), [&] {
    Partitioner p;
    p.operand = operand_letter(o.operand, atom->kind == Atom::Kind::Mma);
    if (atom->kind == Atom::Kind::Mma) {
      const Layout atom_layout = atoms.value ? plain_option_layout(*atoms.value, "--atoms", n)
                                             : make_layout(IntTuple::tuple({static_int(1), static_int(1), static_int(1)}));
      p.mma = make_tiled_mma(atom->mma, atom_layout, permute.value ? permutation_modes(*permute.value, n) : std::vector<Tiler>{},
                             diag);
    } else {
      p.copy = make_tiled_copy(atom->copy, o.bits, plain_option_layout(*thr.value, "--thr", n),
                               plain_option_layout(*val.value, "--val", n), diag);
    }
    PartitionRequest r{require_layout(*tensor, "partition", n), std::nullopt, coord.value, std::nullopt, std::nullopt, o.bits};
    if (tile.value) r.tile = tuple_option(*tile.value, "--tile", n);
    if (bound.value) r.problem = tuple_option(*bound.value, "--problem", n);
    if (o.thread_option->count() > 0) r.thread = o.thread;
    const PartitionAnswer a = partition_threads(p, r, diag);
    const PartitionView view{partitioner_name(*atom, p.operand), a.threads, a.tile, a.tile_origin, a.tile_coord_origin,
                             a.model.swizzle, a.model.bound, o.bits, a.no_fragment, n};
    if (picture != PictureFormat::Text) {
      const TileTv tv = tile_tv(p, a, diag);
      PictureOptions options;
      options.notation = n;
      options.max_cells = o.target.max_cells;
      options.grid_max_cells = s.grid.max_cells;
      const TvView v{"", tv.tv, tv.thr_id, make_layout(IntTuple::tuple({tv.rows, tv.cols})), false};
      document = write_picture(tv_picture(v, options), picture, view.partitioner);
      return kOk;
    }
    const std::vector<ThreadAccesses> threads = thread_accesses(a.parts, a.model);
    if (who.value) {
      std::vector<std::int64_t> c;
      for (const Int& leaf : leaves(tuple_option(*who.value, "--owner", n))) c.push_back(leaf.value);
      document = render_owners(view, c, owners_of(threads, c), o.format == "json");
    } else if (o.format == "json") {
      document = render_partition_json(view, threads);
    } else if (o.format == "csv") {
      document = render_partition_csv(view, threads);
    } else {
      document = render_partition_text(view, threads, r.thread.has_value());
    }
    return kOk;
  });
  if (status != kOk) return status;
  if (report_warnings(diag) && s.strict) return kRejected;
  if (picture != PictureFormat::Text) return deliver(o.target, document) ? kOk : kRejected;
  out(document);
  flush_out();
  return kOk;
}

}  // namespace

Command register_partition(CLI::App* sub, Settings& s) {
  auto o = std::make_shared<PartitionOptions>();
  sub->add_option("TENSOR", o->tensor,
                  "The tensor's layout: global memory, e.g. (1000,1000):(1000,1), or shared memory, swizzled allowed")
      ->required();
  sub->add_option("--mma", o->mma, "Partition by a TiledMMA of this MMA atom, e.g. SM80_16x8x16_F16F16F16F16_TN");
  sub->add_option("--atoms", o->atoms, "With --mma: the layout of atoms over (M,N,K), e.g. (2,2,1) (default (1,1,1))");
  sub->add_option("--permute", o->permute, "With --mma: make_tiled_mma's permutation of M, N, K, e.g. (32,32,16)");
  sub->add_option("--copy", o->copy, "Partition by a TiledCopy of this copy atom, e.g. SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>");
  sub->add_option("--thr", o->thr, "With --copy: make_tiled_copy's thread layout, e.g. (32,4):(4,1)");
  sub->add_option("--val", o->val, "With --copy: make_tiled_copy's value layout, e.g. (1,8)");
  sub->add_option("--operand", o->operand, "A, B or C (default C) of a TiledMMA; S or D (default S) of a TiledCopy");
  auto* bits = sub->add_option("--elem-bits,--bits", o->bits, "The width of an element in bits (default 16)")
                   ->check(integer_range(1, 1024));
  sub->add_option_function<int>(
         "--elem-bytes", [o](int bytes) { o->bits = 8 * bytes; }, "The width of an element in bytes (the same as --elem-bits 8*N)")
      ->check(integer_range(1, 128))
      ->excludes(bits);
  sub->add_option("--tile", o->tile, "The CTA tile local_tile cuts: (M,N,K) for a TiledMMA, else one extent per mode");
  sub->add_option("--tile-coord", o->tile_coord, "The CTA tile's coordinate, e.g. (7,7,31); _ keeps a mode, as kernels keep k");
  sub->add_option("--problem", o->problem,
                  "The predicate's bound, e.g. 1000,1000: elements whose coordinate is not below it are masked (default: the tensor's shape)");
  o->thread_option = sub->add_option("--thread,-t", o->thread, "One thread, with its elements listed (default: every thread)")
                         ->check(integer_range(0, std::int64_t{1} << 30));
  sub->add_option("--owner", o->owner, "Who owns a coordinate, e.g. 999,31: each thread and element index holding it");
  sub->add_option("-f,--format", o->format, "text, csv or json; svg, tikz or html draw the tile's threads (default text)")
      ->check(CLI::IsMember({"text", "csv", "json", "svg", "tikz", "html"}));
  sub->add_flag("--json", o->json, "The same as --format json");
  o->target.file_option = sub->add_option("-o,--output", o->target.file, "Write the picture to FILE (.svg, .tex, .html)");
  sub->add_option("--max-picture-cells", o->target.max_cells, "Largest picture drawn, in cells (default 65536)")
      ->check(integer_range(std::int64_t{1}, std::int64_t{1} << 32));
  return {sub, [&s, o] { return run_partition(s, *o); }};
}

}  // namespace layoutx::cli
