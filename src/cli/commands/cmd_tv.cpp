// tv: a thread-value layout over a tile, as CuTe's print_latex_tv shows it:
// each cell labelled with the thread and value that own it; or, inverted,
// each thread with the cells of its values.
#include <fmt/format.h>

#include <cctype>
#include <optional>

#include "driver.hpp"
#include "layoutx/atoms.hpp"
#include "layoutx/notation.hpp"
#include "layoutx/triton_encoding.hpp"
#include "io/output.hpp"
#include "io/picture_output.hpp"

namespace layoutx::cli {

namespace {

struct TvOptions {
  std::string tv, tile, thr_id, atom, operand;
  int bits = 16;
  bool by_thread = false;
  PictureTarget target;
};

std::optional<Value> evaluate_one(const Settings& s, const std::string& text) {
  std::optional<Value> value;
  if (for_each_expression(s, {text}, [&](const Value& v) { value = v; }) != kOk) return std::nullopt;
  return value;
}

Layout plain_layout(const Value& v, const char* what, Notation n) {
  const AnyLayout l = require_offset_layout(v, "tv", n);
  if (!std::holds_alternative<Layout>(l))
    throw Error(fmt::format("the {} must be a plain layout, not the swizzled {}", what, to_text(v, n)));
  return std::get<Layout>(l);
}

// --atom: the TV layout, tile and ThrID of one operand of an atom (A, B or C of
// an MMA atom, its tile M x K, N x K or M x N; src or dst of a copy atom in
// elements of --bits, its tile 128-bit rows).
TvView atom_view(const Atom& a, std::string operand, int bits, Diagnostics& diag) {
  for (char& c : operand) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  TvView view;
  if (a.kind == Atom::Kind::Mma) {
    if (operand.empty()) operand = "c";
    const MmaAtom& m = a.mma;
    const Int M = m.shape_mnk[0].value(), N = m.shape_mnk[1].value(), K = m.shape_mnk[2].value();
    auto tile = [](Int r, Int c) { return make_layout(IntTuple::tuple({r, c})); };
    if (operand == "a")
      view = {"A", m.a, m.thr_id, tile(M, K), false};
    else if (operand == "b")
      view = {"B", m.b, m.thr_id, tile(N, K), false};
    else if (operand == "c")
      view = {"C", m.c, m.thr_id, tile(M, N), false};
    else
      throw Error(fmt::format("{} is an MMA atom: --operand is A, B or C, not '{}'", a.name, operand));
    return view;
  }
  if (operand.empty()) operand = "src";
  const CopyElements e = copy_elements(a.copy, bits, diag);
  if (operand == "src") return {"Src", e.src, a.copy.thr_id, e.tile, false};
  if (operand == "dst") return {"Dst", e.dst, a.copy.thr_id, e.tile, false};
  throw Error(fmt::format("{} is a copy atom: --operand is src or dst, not '{}'", a.name, operand));
}

// A Triton layout covers a whole tensor: without TILE, the tile is that
// tensor (--shape, or the shape a linear layout carries), column-major.
std::string triton_tile(const Settings& s, const std::string& tv) {
  if (!triton::is_triton_text(tv)) return {};
  std::vector<std::int64_t> shape = s.shape;
  if (shape.empty()) {
    try {
      shape = triton::covered_shape(read_triton(s, tv));
    } catch (const Error&) {
      return {};  // evaluating TV_LAYOUT reports it
    }
  }
  return fmt::format("({})", fmt::join(shape, ","));
}

}  // namespace

Command register_tv(CLI::App* sub, Settings& s) {
  auto o = std::make_shared<TvOptions>();
  sub->add_option("TV_LAYOUT", o->tv, "(thread, value) -> index into the tile, e.g. ((4,8),(2,2)):((32,1),(16,8))");
  sub->add_option(
      "TILE", o->tile,
      "The tile: a shape (M,N) (column-major), or a layout (m,n) -> index; for a Triton layout, its shape by default");
  auto* thr_id_option =
      sub->add_option("--thr-id", o->thr_id, "Thread numbers to show: a layout thread -> number (CuTe's ThrID)");
  sub->add_option("--atom", o->atom,
                  "An MMA or copy atom instead of TV_LAYOUT and TILE, e.g. SM80_16x8x16_F16F16F16F16_TN")
      ->excludes(thr_id_option);
  sub->add_option("--operand", o->operand,
                  "With --atom: A, B or C (default C) of an MMA atom, src or dst (default src) of a copy atom");
  auto* bits = sub->add_option("--elem-bits,--bits", o->bits,
                               "With --atom, a copy atom: the width of a value in bits (default 16)")
                   ->check(integer_range(1, 1024));
  sub->add_option_function<int>(
         "--elem-bytes", [o](int bytes) { o->bits = 8 * bytes; },
         "With --atom, a copy atom: the width of a value in bytes")
      ->check(integer_range(1, 128))
      ->excludes(bits);
  sub->add_flag("--by-thread,--inverse", o->by_thread, "List each thread with the (row,col) cells of its values");
  add_picture_options(sub, o->target, true);
  return {sub, [&s, o] {
            PictureFormat format = PictureFormat::Text;
            if (!resolve_format(o->target, PictureFormat::Text, true, format)) return kUsage;
            if (o->tile.empty() && o->atom.empty()) o->tile = triton_tile(s, o->tv);
            if (o->atom.empty() == (o->tv.empty() || o->tile.empty()) || (!o->atom.empty() && !o->tv.empty())) {
              report_error("tv takes TV_LAYOUT and TILE, or --atom NAME", "", 0, false);
              return kUsage;
            }
            if (o->atom.empty() && !o->operand.empty()) {
              report_error("--operand goes with --atom", "", 0, false);
              return kUsage;
            }
            const Atom* atom = o->atom.empty() ? nullptr : find_atom(o->atom);
            if (!o->atom.empty() && !atom) {
              report_error(fmt::format("no atom is called '{}' (layoutx atom --list FILTER lists the catalogue)",
                                       excerpt(o->atom)),
                           "", 0, false);
              return kRejected;
            }
            std::optional<Value> tv, tile, thr_id;
            if (!atom) {
              tv = evaluate_one(s, o->tv);
              tile = evaluate_one(s, o->tile);
              thr_id = o->thr_id.empty() ? std::optional<Value>() : evaluate_one(s, o->thr_id);
              if (!tv || !tile || (!o->thr_id.empty() && !thr_id)) return kRejected;
            }
            std::string document;
            const int status = run_reporting_errors({}, notation(s), [&] {
              PictureOptions options;
              const Notation n = notation(s);
              options.notation = n;
              // Text grids answer to --max-cells only; pictures to --max-picture-cells too.
              options.max_cells = format == PictureFormat::Text ? s.grid.max_cells : o->target.max_cells;
              if (format == PictureFormat::Text) options.max_cells_option = "--max-cells";
              options.grid_max_cells = s.grid.max_cells;
              TvView view;
              if (atom) {
                Diagnostics diag = diagnostics(s);  // the catalogue's layouts raise no warning
                view = atom_view(*atom, o->operand, o->bits, diag);
                view.title.clear();
                document = format != PictureFormat::Text
                               ? write_picture(tv_picture(view, options), format, "tv --atom " + atom->name)
                           : o->by_thread ? render_tv_threads(view, options)
                                          : render_tv_grid(view, options);
                return kOk;
              }
              view.tv = plain_layout(*tv, "TV layout", n);
              view.tile = plain_layout(*tile, "tile", n);
              if (view.tv.shape.rank() != 2)
                throw Error(fmt::format("a TV layout has two modes, (thread, value); {} has {}", to_text(view.tv, n),
                                        view.tv.shape.rank()));
              view.thr_id = thr_id ? plain_layout(*thr_id, "ThrID", n) : make_layout(IntTuple(size(get(view.tv, 0))));
              if (size(view.thr_id).value != size(get(view.tv, 0)).value)
                throw Error(fmt::format("ThrID {} numbers {} threads; the TV layout has {}", to_text(view.thr_id, n),
                                        size(view.thr_id).value, size(get(view.tv, 0)).value));
              if (format != PictureFormat::Text)
                document = write_picture(tv_picture(view, options), format, fmt::format("tv {} {}", o->tv, o->tile));
              else
                document = o->by_thread ? render_tv_threads(view, options) : render_tv_grid(view, options);
              return kOk;
            });
            if (status != kOk) return status;
            return deliver(o->target, document) ? kOk : kRejected;
          }};
}

}  // namespace layoutx::cli
