// partition: what each thread of a TiledMMA or TiledCopy touches of one CTA
// tile of a tensor, as a mainloop partitions it (local_tile, then
// partition_A/B/C or partition_S/D of the tensor and of the identity tensor
// over its shape): fragment layouts, coordinates, offsets, access widths and
// the elements the residue predicate masks off; or who owns a coordinate.
#include <fmt/format.h>

#include <optional>

#include "driver.hpp"
#include "layoutx/atoms.hpp"
#include "layoutx/notation.hpp"
#include "layoutx/permutation_modes.hpp"
#include "layoutx/partition_setup.hpp"
#include "layoutx/render_partition.hpp"
#include "layoutx/render_picture.hpp"
#include "io/output.hpp"
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

struct Evaluated {
  std::optional<Value> value;
  bool failed = false;
};

Evaluated evaluate_if_given(const Settings& s, const std::string& text, Diagnostics& diag) {
  if (text.empty()) return {};
  std::optional<Value> v = evaluate_option(s, text, {text}, diag);
  return {v, !v};
}

bool is_text_format(const std::string& f) { return f.empty() || f == "text" || f == "csv" || f == "json"; }

int run_partition(Settings& s, PartitionOptions& o) {
  const PartitionOptionTexts texts{o.mma, o.atoms, o.permute, o.copy, o.thr, o.val};
  if (const std::string mistake = partition_option_problem(texts); !mistake.empty()) {
    report_error(mistake, "", 0, false);
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
    report_error("-o writes a picture (--format svg, tikz or html); text, csv and json go to standard output", "", 0,
                 false);
    return kUsage;
  }
  const Atom* atom = nullptr;
  try {
    atom = &partition_atom(texts);
  } catch (const Error& e) {
    report_error(e.message(notation(s)), "", 0, false);
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
  const Evaluated atoms = evaluate_if_given(static_settings, o.atoms, diag),
                  permute = evaluate_if_given(static_settings, o.permute, diag),
                  thr = evaluate_if_given(static_settings, o.thr, diag),
                  val = evaluate_if_given(static_settings, o.val, diag),
                  tile = evaluate_if_given(static_settings, o.tile, diag),
                  coord = evaluate_if_given(s, o.tile_coord, diag), bound = evaluate_if_given(s, problem, diag),
                  who = evaluate_if_given(s, owner, diag);
  for (const Evaluated* e : {&atoms, &permute, &thr, &val, &tile, &coord, &bound, &who})
    if (e->failed) return kRejected;
  for (const auto& [counts, option] : {std::pair{&atoms, "--atoms"}, {&thr, "--thr"}, {&val, "--val"}})
    if (const std::string mistake = count_problem(counts->value, option, n); !mistake.empty()) {
      report_error(mistake, "", 0, false);
      return kUsage;
    }

  std::string document;
  const int status = run_reporting_errors({}, notation(s), [&] {
    const PartitionOptionValues values{
        atoms.value, permute.value,
        thr.value,   val.value,
        tile.value,  coord.value,
        bound.value, o.operand,
        o.bits,      o.thread_option->count() > 0 ? std::optional<std::int64_t>(o.thread) : std::nullopt};
    const TilePartition t = partition_tile(*atom, *tensor, values, n, diag);
    const PartitionAnswer& a = t.answer;
    const PartitionView view{t.name,          a.threads,     a.tile, a.tile_origin, a.tile_coord_origin,
                             a.model.swizzle, a.model.bound, o.bits, a.no_fragment, n};
    if (picture != PictureFormat::Text) {
      const TileTv tv = tile_tv(t.partitioner, a, diag);
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
      const std::vector<std::int64_t> c = owner_coordinate(*who.value, n);
      document = render_owners(view, c, owners_of(threads, c), o.format == "json");
    } else if (o.format == "json") {
      document = render_partition_json(view, threads);
    } else if (o.format == "csv") {
      document = render_partition_csv(view, threads);
    } else {
      document = render_partition_text(view, threads, t.request.thread.has_value());
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
  sub->add_option("--copy", o->copy,
                  "Partition by a TiledCopy of this copy atom, e.g. SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>");
  sub->add_option("--thr", o->thr, "With --copy: make_tiled_copy's thread layout, e.g. (32,4):(4,1)");
  sub->add_option("--val", o->val, "With --copy: make_tiled_copy's value layout, e.g. (1,8)");
  sub->add_option("--operand", o->operand, "A, B or C (default C) of a TiledMMA; S or D (default S) of a TiledCopy");
  auto* bits = sub->add_option("--elem-bits,--bits", o->bits, "The width of an element in bits (default 16)")
                   ->check(integer_range(1, 1024));
  sub->add_option_function<int>(
         "--elem-bytes", [o](int bytes) { o->bits = 8 * bytes; },
         "The width of an element in bytes (the same as --elem-bits 8*N)")
      ->check(integer_range(1, 128))
      ->excludes(bits);
  sub->add_option("--tile", o->tile, "The CTA tile local_tile cuts: (M,N,K) for a TiledMMA, else one extent per mode");
  sub->add_option("--tile-coord", o->tile_coord,
                  "The CTA tile's coordinate, e.g. (7,7,31); _ keeps a mode, as kernels keep k");
  sub->add_option("--problem", o->problem,
                  "The predicate's bound, e.g. 1000,1000: elements whose coordinate is not below it are masked "
                  "(default: the tensor's shape)");
  o->thread_option =
      sub->add_option("--thread,-t", o->thread, "One thread, with its elements listed (default: every thread)")
          ->check(integer_range(0, std::int64_t{1} << 30));
  sub->add_option("--owner", o->owner, "Who owns a coordinate, e.g. 999,31: each thread and element index holding it");
  sub->add_option("-f,--format", o->format,
                  "text, csv or json; svg, tikz or html draw the tile's threads (default text)")
      ->check(CLI::IsMember({"text", "csv", "json", "svg", "tikz", "html"}));
  sub->add_flag("--json", o->json, "The same as --format json");
  o->target.file_option =
      sub->add_option("-o,--output", o->target.file, "Write the picture to FILE (.svg, .tex, .html)");
  sub->add_option("--max-picture-cells", o->target.max_cells, "Largest picture drawn, in cells (default 65536)")
      ->check(integer_range(std::int64_t{1}, std::int64_t{1} << 32));
  return {sub, [&s, o] { return run_partition(s, *o); }};
}

}  // namespace layoutx::cli
