// atom: CuTe's MMA and copy atoms from the built-in catalogue: their shape,
// ThrID and thread-value layouts in CuTe notation, as text grids and as
// pictures (print_latex(MMA_Atom) / print_latex(TiledCopy)); MMA atoms tiled
// with make_tiled_mma's atom layout and permutation.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <optional>
#include <sstream>

#include "commands/atom_tma.hpp"
#include "driver.hpp"
#include "layoutx/atoms.hpp"
#include "layoutx/notation.hpp"
#include "layoutx/permutation_modes.hpp"
#include "layoutx/tiled_mma.hpp"
#include "layoutx/tma_copy.hpp"
#include "layoutx/umma_tmem.hpp"
#include "io/output.hpp"
#include "io/picture_output.hpp"

namespace layoutx::cli {

namespace {

struct AtomOptions {
  std::vector<std::string> words;
  bool list = false, grid = false;
  std::string arch, kind, type;
  std::string tile, permute;
  int bits = 16;
  std::string gmem, smem;  // a TMA operation's tensor and tile
  std::int64_t multicast = 1;
  PictureTarget target;
};

// TiledMMA's atom layout and permutation are C++ types, static in CuTe: plain
// integers stay static here even under --dynamic.
std::optional<Value> evaluate_static(const Settings& s, const std::string& text) {
  Settings static_settings = s;
  static_settings.language.dynamic = false;
  std::optional<Value> value;
  if (for_each_expression(static_settings, {text}, [&](const Value& v) { value = v; }) != kOk) return std::nullopt;
  return value;
}

std::string join(const std::vector<std::string>& words) {
  std::string s;
  for (const auto& w : words) s += (s.empty() ? "" : " ") + w;
  return s;
}

// What --list keeps besides the words of the name.
struct ListFilter {
  std::string arch, kind, type;  // "" keeps all
};

bool kept(const AtomHeading& a, const ListFilter& f) {
  if (!f.arch.empty() && atom_arch(a.name) != f.arch) return false;
  if (!f.kind.empty() && f.kind != (a.kind == Atom::Kind::Mma ? "mma" : "copy")) return false;
  if (f.type.empty()) return true;
  const auto types = atom_value_types(a.name);
  return std::find(types.begin(), types.end(), f.type) != types.end();
}

std::string describe(const std::string& words, const ListFilter& f, const std::string& type_asked) {
  std::vector<std::string> parts;
  if (!words.empty()) parts.push_back(fmt::format("whose name contains '{}'", words));
  if (!f.arch.empty()) parts.push_back("of " + f.arch);
  if (!f.kind.empty()) parts.push_back("of kind " + f.kind);
  if (!f.type.empty()) parts.push_back(fmt::format("with value type {} ({})", type_asked, f.type));
  std::string s;
  for (std::size_t i = 0; i < parts.size(); ++i) s += (i ? (i + 1 == parts.size() ? " and " : ", ") : "") + parts[i];
  return s;
}

// The TMA operations (not catalogue atoms: make_tma_copy builds their atom
// from the tensors) whose names contain every word, ignoring case; copy
// operations of SM90 or SM100 for any value type.
std::vector<std::string> tma_operations_listed(const std::string& words, const ListFilter& f) {
  const auto upper = [](std::string t) {
    for (char& c : t) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return t;
  };
  std::vector<std::string> out;
  if (f.kind == "mma") return out;
  for (const std::string& op : tma_operations()) {
    if (!f.arch.empty() && atom_arch(op) != f.arch) continue;
    bool all = true;
    std::istringstream in(upper(words));
    for (std::string w; in >> w;) all = all && upper(op).find(w) != std::string::npos;
    if (all) out.push_back(op);
  }
  return out;
}

int list_atoms(const std::string& words, const AtomOptions& o, Notation n) {
  ListFilter f{o.arch.empty() ? "" : arch_name(o.arch), o.kind, o.type.empty() ? "" : value_type_letters(o.type)};
  if (!o.arch.empty() && f.arch.empty()) {
    report_error(fmt::format("--arch takes an architecture such as SM90, sm100 or 80, not '{}'", o.arch), "", 0, false);
    return kUsage;
  }
  if (!o.type.empty() && f.type.empty()) {
    report_error(fmt::format("--type takes a value type such as half_t, bfloat16_t, float, tfloat32_t, float_e4m3_t, "
                             "int8_t, uint128_t or F16, not '{}'",
                             o.type),
                 "", 0, false);
    return kUsage;
  }
  std::vector<AtomHeading> atoms;
  for (AtomHeading& a : atom_headings(words))
    if (kept(a, f)) atoms.push_back(std::move(a));
  const std::vector<std::string> tma = tma_operations_listed(words, f);
  if (atoms.empty() && tma.empty()) {
    const std::string what = describe(words, f, o.type);
    report_error(
        what.empty() ? "the catalogue is empty" : fmt::format("no atom {} (layoutx atom --list shows them all)", what),
        "", 0, false);
    return kRejected;
  }
  std::size_t width = 0;
  for (const AtomHeading& a : atoms) width = std::max(width, a.name.size());
  for (const std::string& op : tma) width = std::max(width, op.size());
  std::string text;
  for (const AtomHeading& a : atoms)
    text += a.kind == Atom::Kind::Mma ? fmt::format("{:<{}}  mma   {}\n", a.name, width, to_text(a.shape_mnk, n))
                                      : fmt::format("{:<{}}  copy\n", a.name, width);
  for (const std::string& op : tma)
    text += fmt::format("{:<{}}  copy  (TMA: make_tma_copy, with --gmem --smem --type)\n", op, width);
  out(text);
  flush_out();
  return kOk;
}

// --tile: the layout of atoms over M, N and K (a shape is its compact layout).
Layout atom_layout(const Value& v, Notation n) {
  if (const auto l = v.as_plain_layout()) return *l;
  throw Error(
      fmt::format("--tile needs a layout or a shape such as (2,2,1), got {} {}", a_kind_name(v), to_text(v, n)));
}

Value permutation_value(const std::optional<Value>& v) {
  std::vector<Value> modes = v ? v->elems : std::vector<Value>{};
  modes.resize(3, Value::tag(Value::Kind::Underscore));
  return Value::tuple(modes);
}

std::string mma_info(const Atom& a, Notation n) {
  const MmaAtom& m = a.mma;
  return fmt::format(
      "{} (MMA atom, {})\nMMA_Atom\n  ThrID:      {}\n  Shape_MNK:  {}\n  LayoutA_TV: {}\n"
      "  LayoutB_TV: {}\n  LayoutC_TV: {}\n",
      a.name, a.origin, to_text(m.thr_id, n), to_text(m.shape_mnk, n), to_text(m.a, n), to_text(m.b, n),
      to_text(m.c, n));
}

std::string tiled_info(const TiledMma& mma, const Value& perm, const Atom& a, Notation n, Diagnostics& diag) {
  return fmt::format("TiledMMA\n  ThrLayoutVMNK:  {}\n  PermutationMNK: {}\n", to_text(mma.thr_layout_vmnk, n),
                     render_notation(perm, n)) +
         mma_info(a, n) +
         fmt::format(
             "TiledMMA layouts, (thread index, value) -> index into the tile\n  Tile_MNK:   {}\n"
             "  LayoutA_TV: {}\n  LayoutB_TV: {}\n  LayoutC_TV: {}\n",
             to_text(tile_shape(mma), n), to_text(layout_A_TV(mma, diag), n), to_text(layout_B_TV(mma, diag), n),
             to_text(layout_C_TV(mma, diag), n));
}

// The caption: the atom's own TV layouts, or the tiled ones.
std::vector<std::string> picture_comments(const Atom& a, const TiledMma* tiled, Notation n, Diagnostics& diag) {
  if (!tiled)
    return {a.name, "LayoutA_TV: " + to_text(a.mma.a, n), "LayoutB_TV: " + to_text(a.mma.b, n),
            "LayoutC_TV: " + to_text(a.mma.c, n)};
  return {fmt::format("{} tiled: ThrLayoutVMNK {}, Tile_MNK {}", a.name, to_text(tiled->thr_layout_vmnk, n),
                      to_text(tile_shape(*tiled), n)),
          "LayoutA_TV: " + to_text(layout_A_TV(*tiled, diag), n),
          "LayoutB_TV: " + to_text(layout_B_TV(*tiled, diag), n),
          "LayoutC_TV: " + to_text(layout_C_TV(*tiled, diag), n)};
}

TvView operand_view(const OperandTv& op, const char* title, bool transposed) {
  return {title, op.tv, op.thr_id, make_layout(IntTuple::tuple({op.rows, op.cols})), transposed};
}

std::string copy_info(const Atom& a, const CopyElements& v, int bits, Notation n) {
  const CopyAtom& c = a.copy;
  return fmt::format(
      "{} (copy atom, {})\nCopy_Traits (layouts in bits)\n  ThrID:     {}\n  SrcLayout: {}\n"
      "  DstLayout: {}\n  RefLayout: {}\nCopy_Atom\n  ThrID:        {}\n  ValLayoutSrc: {}\n"
      "  ValLayoutDst: {}\n  ValLayoutRef: {}\n  ValueType:    {}b\n",
      a.name, a.origin, to_text(c.thr_id, n), to_text(c.src, n), to_text(c.dst, n), to_text(c.ref, n),
      to_text(c.thr_id, n), to_text(v.src, n), to_text(v.dst, n), to_text(v.ref, n), bits);
}

// UMMA atoms keep C (and A for _TS) in tensor memory: CTA 0's layouts there.
std::string tmem_info(const Atom& a, Notation n, Diagnostics& diag) {
  const auto tmem = umma_tmem_layouts(a, diag);
  if (!tmem) return "";
  std::string text =
      "TMEM (make_fragment_C of the atom's tile, CTA 0; a lane is TMEM::DP<T> addresses, a column 1)\n"
      "  Accumulator: " +
      to_text(tmem->accumulator, n) + "\n";
  if (tmem->a) text += "  A:           " + to_text(*tmem->a, n) + "   (make_fragment_A)\n";
  return text;
}

// What `atom NAME` was asked for, once the arguments are checked.
struct AtomRequest {
  const Atom& atom;
  PictureFormat format;
  bool grid;
  int bits;
  std::optional<Value> tile, permute;
  PictureOptions options;  // its notation is also the text's
  Diagnostics& diag;       // where the tiling's algebra warns
};

std::string describe_mma(const AtomRequest& r) {
  const bool tiled = r.tile || r.permute;
  const Notation n = r.options.notation;
  const Layout thr =
      r.tile ? atom_layout(*r.tile, n) : make_layout(IntTuple::tuple({static_int(1), static_int(1), static_int(1)}));
  const TiledMma mma =
      make_tiled_mma(r.atom.mma, thr, r.permute ? permutation_modes(*r.permute, n) : std::vector<Tiler>{}, r.diag);
  const TvView c = operand_view(operand_C(mma, r.diag), "", false),
               a = operand_view(operand_A(mma, r.diag), "A", false),
               b = operand_view(operand_B(mma, r.diag), "B", true);
  if (r.format != PictureFormat::Text) {
    Picture picture = mma_picture(c, a, b, r.options);
    picture.comments = picture_comments(r.atom, tiled ? &mma : nullptr, n, r.diag);
    return write_picture(picture, r.format, r.atom.name);
  }
  std::string text = tiled ? tiled_info(mma, permutation_value(r.permute), r.atom, n, r.diag) : mma_info(r.atom, n);
  if (!tiled) text += tmem_info(r.atom, n, r.diag);
  if (r.grid)
    text += "\nCells T<ThrID(thread)>V<value>: B (K x N) above C (M x N), A (M x K) left of C\n" +
            render_mma_grids(c, a, b, r.options);
  return text;
}

std::string describe_copy(const AtomRequest& r) {
  const CopyElements v = copy_elements(r.atom.copy, r.bits, r.diag);
  const TvView src{"Src", v.src, r.atom.copy.thr_id, v.tile, false};
  const TvView dst{"Dst", v.dst, r.atom.copy.thr_id, v.tile, false};
  if (r.format != PictureFormat::Text) return write_picture(copy_picture(src, dst, r.options), r.format, r.atom.name);
  std::string text = copy_info(r.atom, v, r.bits, r.options.notation);
  if (r.grid) text += "\nSrc " + render_tv_grid(src, r.options) + "\nDst " + render_tv_grid(dst, r.options);
  return text;
}

int unknown_atom(const std::string& name) {
  std::string message = fmt::format("no atom is called '{}'", excerpt(name));
  const auto near = similar_atom_names(name, 3);
  if (!near.empty()) {
    message += "; did you mean ";
    for (std::size_t i = 0; i < near.size(); ++i)
      message += (i ? (i + 1 == near.size() ? " or " : ", ") : "") + near[i];
    message += "?";
  }
  report_error(message + " (layoutx atom --list FILTER lists the catalogue)", "", 0, false);
  return kRejected;
}

}  // namespace

std::string atom_picture(const Atom& atom, PictureFormat format, int bits, const PictureOptions& options) {
  Diagnostics diag(false, options.notation);  // the catalogue's layouts raise no warning
  const AtomRequest request{atom, format, false, bits, std::nullopt, std::nullopt, options, diag};
  return atom.kind == Atom::Kind::Mma ? describe_mma(request) : describe_copy(request);
}

Command register_atom(CLI::App* sub, Settings& s) {
  auto o = std::make_shared<AtomOptions>();
  sub->add_option("NAME", o->words, "The atom, e.g. SM80_16x8x16_F16F16F16F16_TN; with --list, words to look for");
  sub->add_flag("--list", o->list, "List the atoms whose names contain every word given (all without words)");
  sub->add_option("--arch", o->arch, "With --list: only the atoms of this architecture, e.g. SM90 or sm100");
  sub->add_option("--kind", o->kind, "With --list: only MMA or only copy atoms")->check(CLI::IsMember({"mma", "copy"}));
  sub->add_option("--type", o->type,
                  "With --list: only the atoms with this value type, e.g. half_t, float_e4m3_t or F16; with a TMA "
                  "operation: the element type");
  sub->add_option("--gmem", o->gmem,
                  "TMA operations (SM90_TMA_LOAD...): the global tensor's layout, plain integers dynamic as in CuTe "
                  "code, e.g. (4096,1024):(1024,_1)");
  sub->add_option(
      "--smem", o->smem,
      "TMA operations: the shared-memory tile, e.g. tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>,(128,64))");
  sub->add_option("--multicast", o->multicast,
                  "TMA operations: the CTAs sharing each box (make_tma_copy's cluster size)")
      ->check(integer_range(1, 16));
  sub->add_flag("--grid", o->grid, "Also draw the A, B, C (or Src, Dst) grids as text");
  sub->add_option("--tile", o->tile, "Tile the MMA atom: the layout of atoms over (M,N,K), e.g. (2,2,1)");
  sub->add_option("--permute", o->permute, "make_tiled_mma's permutation of M, N, K, e.g. (32,32,16) or (_,_,_)");
  sub->add_option("--elem-bits,--bits", o->bits, "Copy atoms: the width of a value in bits (default 16)")
      ->check(integer_range(1, 1024));
  add_picture_options(sub, o->target, true);
  return {sub, [&s, o] {
            if (o->list) return list_atoms(join(o->words), *o, notation(s));
            const bool tma_options = !o->gmem.empty() || !o->smem.empty() || o->multicast != 1;
            if (o->words.size() == 1 && is_tma_operation(o->words.front()) && o->arch.empty() && o->kind.empty())
              return describe_tma(s, {o->words.front(), o->gmem, o->smem, o->type, o->multicast});
            if (tma_options) {
              report_error(
                  "--gmem, --smem and --multicast go with a TMA operation (SM90_TMA_LOAD, SM90_TMA_LOAD_MULTICAST, "
                  "SM90_TMA_STORE, SM90_TMA_REDUCE_ADD, SM100_TMA_2SM_LOAD, SM100_TMA_2SM_LOAD_MULTICAST)",
                  "", 0, false);
              return kUsage;
            }
            if (!o->arch.empty() || !o->kind.empty() || !o->type.empty()) {
              report_error("--arch, --kind and --type filter --list", "", 0, false);
              return kUsage;
            }
            if (o->words.size() != 1) {
              report_error("atom takes one NAME (or --list [FILTER])", "", 0, false);
              return kUsage;
            }
            PictureFormat format = PictureFormat::Text;
            if (!resolve_format(o->target, PictureFormat::Text, true, format)) return kUsage;
            const Atom* atom = find_atom(o->words.front());
            if (!atom) return unknown_atom(o->words.front());
            const bool tiled = !o->tile.empty() || !o->permute.empty();
            if (tiled && atom->kind != Atom::Kind::Mma) {
              report_error("--tile and --permute apply to MMA atoms", "", 0, false);
              return kUsage;
            }
            const auto tile = o->tile.empty() ? std::optional<Value>() : evaluate_static(s, o->tile);
            const auto perm = o->permute.empty() ? std::optional<Value>() : evaluate_static(s, o->permute);
            if ((!o->tile.empty() && !tile) || (!o->permute.empty() && !perm)) return kRejected;

            Diagnostics diag = diagnostics(s);
            AtomRequest request{*atom, format, o->grid, o->bits, tile, perm, {}, diag};
            request.options.notation = notation(s);
            // Text grids answer to --max-cells only; pictures to --max-picture-cells too.
            request.options.max_cells = format == PictureFormat::Text ? s.grid.max_cells : o->target.max_cells;
            if (format == PictureFormat::Text) request.options.max_cells_option = "--max-cells";
            request.options.grid_max_cells = s.grid.max_cells;
            std::string document;
            const int status = run_reporting_errors({}, notation(s), [&] {
              document = atom->kind == Atom::Kind::Mma ? describe_mma(request) : describe_copy(request);
              return kOk;
            });
            if (status != kOk) return status;
            return deliver(o->target, document) ? kOk : kRejected;
          }};
}

}  // namespace layoutx::cli
