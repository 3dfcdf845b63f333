// The JSON API: each call evaluates its expressions as the command line does
// and answers the command line's text (the "text" member, byte for byte what
// the command writes on stdout) with the numbers the page draws from.
#include <fmt/format.h>

#include <charconv>
#include <new>
#include <optional>

#include "layoutx/analysis.hpp"
#include "layoutx/atom_language.hpp"
#include "layoutx/atoms.hpp"
#include "layoutx/json_text.hpp"
#include "layoutx/partition_setup.hpp"
#include "layoutx/render.hpp"
#include "layoutx/render_analysis.hpp"
#include "layoutx/render_bank.hpp"
#include "layoutx/render_code.hpp"
#include "layoutx/render_partition.hpp"
#include "layoutx/render_picture.hpp"
#include "layoutx/serve.hpp"
#include "layoutx/tiled_mma.hpp"
#include "layoutx/trace.hpp"
#include "picture_json.hpp"

namespace layoutx::serve {

namespace {

// A refused request that no expression is to blame for (a missing parameter).
struct BadRequest {
  std::string message;
};

// A refused expression: the message, and the expression for the caret.
struct Refusal {
  std::string message;
  std::string expression;
  std::size_t offset = 0;
  bool located = false;
  std::string parameter;  // which parameter held the expression
};

const std::string& param(const Params& p, std::string_view name) {
  static const std::string none;
  const auto it = p.find(name);
  return it == p.end() ? none : it->second;
}

const std::string& required(const Params& p, std::string_view name) {
  const std::string& v = param(p, name);
  if (v.empty()) throw BadRequest{fmt::format("the parameter '{}' is missing", name)};
  return v;
}

std::int64_t integer_param(const Params& p, std::string_view name, std::int64_t fallback, std::int64_t lo,
                           std::int64_t hi) {
  const std::string& text = param(p, name);
  if (text.empty()) return fallback;
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || v < lo || v > hi)
    throw BadRequest{fmt::format("the parameter '{}' takes an integer from {} to {}, not '{}'", name, lo, hi, text)};
  return v;
}

Notation notation_of(const Engine& e) { return Notation{.static_marks = e.language.dynamic}; }

// One evaluation's warnings, as the command line writes them on stderr.
std::string warnings_json(const Diagnostics& diag) {
  json::Array a;
  for (const auto& w : diag.warnings()) a.raw(json::quote(warning_text(w.message)));
  return a.done();
}

// Evaluates the expression held by parameter `name`; a refusal names it.
struct Evaluated {
  Value value;
  std::string text;
};

Evaluated evaluate(const Params& p, std::string_view name, const Engine& e, Diagnostics& diag) {
  const std::string& text = required(p, name);
  try {
    return {evaluate_expression(text, e.language, diag), text};
  } catch (const SourceError& err) {
    throw Refusal{err.message(notation_of(e)), text, err.offset(), true, std::string(name)};
  } catch (const Error& err) {
    throw Refusal{err.message(notation_of(e)), text, 0, false, std::string(name)};
  }
}

AnyLayout layout_of(const Evaluated& v, const char* command, const Engine& e) {
  try {
    return require_layout(v.value, command, notation_of(e));
  } catch (const Error& err) {
    throw Refusal{err.message(notation_of(e)), v.text, 0, false, ""};
  }
}

Layout plain_layout_of(const Evaluated& v, const char* what, const Engine& e) {
  const AnyLayout l = layout_of(v, "tv", e);
  if (!std::holds_alternative<Layout>(l))
    throw Error(
        fmt::format("the {} must be a plain layout, not the swizzled {}", what, to_text(v.value, notation_of(e))));
  return std::get<Layout>(l);
}

PictureOptions picture_options(const Engine& e) {
  PictureOptions o;
  o.max_cells = e.limits.picture_cells;
  o.max_cells_option = "serve --max-picture-cells";
  o.grid_max_cells = e.limits.grid_cells;
  o.notation = notation_of(e);
  return o;
}

GridOptions grid_options(const Engine& e) {
  GridOptions g;
  g.max_cells = e.limits.grid_cells;
  g.notation = notation_of(e);
  return g;
}

ColorBy color_param(const Params& p) {
  const std::string& c = param(p, "color");
  if (c.empty() || c == "offset") return ColorBy::Offset;
  if (c == "thread") return ColorBy::Thread;
  if (c == "value") return ColorBy::Value;
  if (c == "bank") return ColorBy::Bank;
  throw BadRequest{fmt::format("color is offset, thread, value or bank, not '{}'", c)};
}

// ---- the calls ------------------------------------------------------------

// evaluate?expr=E: `layoutx eval E`.
std::string call_evaluate(const Params& p, const Engine& e) {
  Diagnostics diag(e.strict, notation_of(e));
  const Evaluated v = evaluate(p, "expr", e, diag);
  const std::string value = render_notation(v.value, notation_of(e));
  return json::Object()
      .str("text", value + "\n")
      .str("value", value)
      .str("kind", kind_name(v.value))
      .raw("layout", json::boolean(v.value.as_layout().has_value()))
      .raw("warnings", warnings_json(diag))
      .done();
}

// grid?expr=E&color=C&bits=B[&text=0][&picture=0|grid][&hover=0]: `layoutx print E` as text, and the
// picture `layoutx draw E --color-by C --bits B` draws, cell by cell (picture=grid: its numbers in columns).
std::string call_grid(const Params& p, const Engine& e) {
  Diagnostics diag(e.strict, notation_of(e));
  const Evaluated v = evaluate(p, "expr", e, diag);
  const AnyLayout l = layout_of(v, "print", e);
  PictureOptions o = picture_options(e);
  o.color_by = color_param(p);
  o.bits = static_cast<int>(integer_param(p, "bits", 32, 1, 1024));
  // text=0 or picture=0 leave one out, hover=0 the cells' hover lines: the
  // page redraws the picture's numbers (picture=grid) at each key and asks
  // for the rest when needed.
  json::Object answer;
  answer.str("value", render_notation(v.value, notation_of(e)));
  if (param(p, "text") != "0") answer.str("text", render_grid(v.value, grid_options(e)));
  const std::string& picture = param(p, "picture");
  if (picture == "grid")
    answer.raw("picture", layout_grid_json(layout_cells(l, o), o.bits));
  else if (picture != "0")
    answer.raw("picture", picture_json(layout_picture(l, o), o.bits, param(p, "hover") != "0"));
  return answer.raw("warnings", warnings_json(diag)).done();
}

// offsets?expr=E: `layoutx offsets E`, up to the grid limit.
std::string call_offsets(const Params& p, const Engine& e) {
  Diagnostics diag(e.strict, notation_of(e));
  const Evaluated v = evaluate(p, "expr", e, diag);
  const AnyLayout l = layout_of(v, "offsets", e);
  const std::int64_t n = size(l).value;
  if (n > e.limits.grid_cells)
    throw Error(
        fmt::format("{} offsets are more than the server's limit of {} (serve --max-cells)", n, e.limits.grid_cells));
  std::string text;
  render_offsets(l, OffsetFormat::Plain, [&](std::string_view chunk) { text += chunk; });
  return json::Object().str("text", text).raw("warnings", warnings_json(diag)).done();
}

// info?expr=E: `layoutx info E` and `layoutx info E --json`.
std::string call_info(const Params& p, const Engine& e) {
  Diagnostics diag(e.strict, notation_of(e));
  const Evaluated v = evaluate(p, "expr", e, diag);
  InfoOptions o;
  o.notation = notation_of(e);
  o.tv = param(p, "tv") == "1";
  const std::string text = render_info(v.value, o);
  o.json = true;
  return json::Object()
      .str("text", text)
      .raw("info", render_info(v.value, o))
      .raw("warnings", warnings_json(diag))
      .done();
}

// explain?expr=E: `layoutx explain E` and its --json; a refused expression
// still answers the steps up to the failure.
std::string call_explain(const Params& p, const Engine& e) {
  const std::string& expr = required(p, "expr");
  const Notation n = notation_of(e);
  trace::Recorder recorder(n);
  Diagnostics diag(e.strict, n, &recorder);
  TraceView view{expr, std::nullopt, std::nullopt, false, false};
  std::optional<Refusal> refusal;
  try {
    view.result = render_notation(evaluate_expression(expr, e.language, diag), n);
  } catch (const SourceError& err) {
    view.error = err.message(n);
    refusal = Refusal{*view.error, expr, err.offset(), true, "expr"};
  } catch (const Error& err) {
    view.error = err.message(n);
    refusal = Refusal{*view.error, expr, 0, false, "expr"};
  }
  view.truncated = recorder.truncated();
  if (refusal && recorder.events().empty()) throw *refusal;
  const std::string text = render_trace(recorder.events(), view);
  view.json = true;
  json::Object o;
  o.str("text", text).raw("steps", render_trace(recorder.events(), view)).raw("warnings", warnings_json(diag));
  if (refusal) o.str("error", error_text(refusal->message, refusal->expression, refusal->offset, refusal->located));
  return o.done();
}

// eq?a=A&b=B: `layoutx eq A B` (text and --json), and every differing index
// up to the picture limit, for the page to mark.
std::string call_eq(const Params& p, const Engine& e) {
  Diagnostics diag(e.strict, notation_of(e));
  const Evaluated a = evaluate(p, "a", e, diag), b = evaluate(p, "b", e, diag);
  const AnyLayout la = layout_of(a, "eq", e), lb = layout_of(b, "eq", e);
  const Comparison shown = compare_functional(la, lb, ComparisonLimits{8, e.limits.grid_cells, false});
  const Comparison all = compare_functional(
      la, lb, ComparisonLimits{static_cast<std::size_t>(e.limits.picture_cells), e.limits.grid_cells, false});
  EqualityView view{false, false, true, e.limits.grid_cells, notation_of(e)};
  const std::string text = render_comparison(shown, la, lb, view);
  view.json = true;
  json::Array differing;
  for (const Difference& d : all.first) differing.num(d.index);
  return json::Object()
      .raw("equal", json::boolean(all.equal))
      .str("text", text)
      .raw("comparison", render_comparison(shown, la, lb, view))
      .raw("differing", differing.done())
      .raw("warnings", warnings_json(diag))
      .done();
}

// tv?tv=TV&tile=TILE[&thr_id=L]: `layoutx tv TV TILE [--thr-id L]` and its picture.
std::string call_tv(const Params& p, const Engine& e) {
  Diagnostics diag(e.strict, notation_of(e));
  const Evaluated tv = evaluate(p, "tv", e, diag), tile = evaluate(p, "tile", e, diag);
  const Notation n = notation_of(e);
  TvView view;
  view.tv = plain_layout_of(tv, "TV layout", e);
  view.tile = plain_layout_of(tile, "tile", e);
  if (view.tv.shape.rank() != 2)
    throw Error(fmt::format("a TV layout has two modes, (thread, value); {} has {}", to_text(view.tv, n),
                            view.tv.shape.rank()));
  if (param(p, "thr_id").empty()) {
    view.thr_id = make_layout(IntTuple(size(get(view.tv, 0))));
  } else {
    const Evaluated thr = evaluate(p, "thr_id", e, diag);
    view.thr_id = plain_layout_of(thr, "ThrID", e);
  }
  if (size(view.thr_id).value != size(get(view.tv, 0)).value)
    throw Error(fmt::format("ThrID {} numbers {} threads; the TV layout has {}", to_text(view.thr_id, n),
                            size(view.thr_id).value, size(get(view.tv, 0)).value));
  PictureOptions o = picture_options(e);
  o.max_cells_option = "--max-cells";
  o.max_cells = e.limits.grid_cells;
  const std::string text = render_tv_grid(view, o);
  o = picture_options(e);
  return json::Object()
      .str("text", text)
      .raw("picture", picture_json(tv_picture(view, o), 32))
      .raw("warnings", warnings_json(diag))
      .done();
}

// atom?name=NAME[&bits=B]: the picture `layoutx atom NAME --format svg`
// draws (an MMA atom's C with A and B around it; a copy atom's source and
// destination), and `layoutx atom NAME --grid`'s grids as text.
std::string call_atom(const Params& p, const Engine& e) {
  const std::string& name = required(p, "name");
  const Atom* atom = find_atom(name);
  if (!atom) {
    std::string message = fmt::format("no atom is called '{}'", name);
    const auto near = similar_atom_names(name, 3);
    for (std::size_t i = 0; i < near.size(); ++i)
      message += (i ? (i + 1 == near.size() ? " or " : ", ") : "; did you mean ") + near[i] +
                 (i + 1 == near.size() ? "?" : "");
    throw Error(message);
  }
  Diagnostics diag(false, notation_of(e));  // the catalogue's layouts raise no warning
  const PictureOptions o = picture_options(e);
  auto view = [](const OperandTv& op, const char* title, bool transposed) {
    return TvView{title, op.tv, op.thr_id, make_layout(IntTuple::tuple({op.rows, op.cols})), transposed};
  };
  Picture picture;
  std::string text;
  if (atom->kind == Atom::Kind::Mma) {
    const TiledMma mma = make_tiled_mma(
        atom->mma, make_layout(IntTuple::tuple({static_int(1), static_int(1), static_int(1)})), {}, diag);
    const TvView c = view(operand_C(mma, diag), "", false), a = view(operand_A(mma, diag), "A", false),
                 b = view(operand_B(mma, diag), "B", true);
    picture = mma_picture(c, a, b, o);
    text = render_mma_grids(c, a, b, o);
  } else {
    const int bits = static_cast<int>(integer_param(p, "bits", 16, 1, 1024));
    const CopyElements v = copy_elements(atom->copy, bits, diag);
    const TvView src{"Src", v.src, atom->copy.thr_id, v.tile, false},
        dst{"Dst", v.dst, atom->copy.thr_id, v.tile, false};
    picture = copy_picture(src, dst, o);
    text = "Src " + render_tv_grid(src, o) + "\nDst " + render_tv_grid(dst, o);
  }
  return json::Object()
      .str("name", atom->name)
      .str("text", text)
      .raw("picture", picture_json(picture, 32))
      .str("svg", render_svg(picture))
      .done();
}

// bank?expr=THREADS&access=A[&bits=B]: `layoutx bank THREADS --access A` (text and --json).
std::string call_bank(const Params& p, const Engine& e) {
  Diagnostics diag(e.strict, notation_of(e));
  const std::string& access_name = required(p, "access");
  const std::optional<SharedAccess> access = find_access(access_name);
  if (!access) throw BadRequest{fmt::format("no shared-memory access is called '{}'", access_name)};
  const Evaluated v = evaluate(p, "expr", e, diag);
  const AnyLayout threads = layout_of(v, "bank", e);
  const int bits = static_cast<int>(integer_param(p, "bits", 16, 1, 1024));
  const BankAnalysis a = analyze_banks(*access, threads, bits, diag, nullptr);
  return json::Object()
      .str("text", render_bank(a, BankFormat::Text, false))
      .raw("bank", render_bank(a, BankFormat::Json, false))
      .raw("warnings", warnings_json(diag))
      .done();
}

// export?expr=E&format=svg|tikz|cpp|type|python[&color=C&bits=B]: `layoutx
// draw E --format svg|tikz` or `layoutx emit E --as cpp|type|python`.
std::string call_export(const Params& p, const Engine& e) {
  Diagnostics diag(e.strict, notation_of(e));
  const Evaluated v = evaluate(p, "expr", e, diag);
  const std::string& format = param(p, "format");
  std::string text;
  if (format == "svg" || format == "tikz") {
    PictureOptions o = picture_options(e);
    o.color_by = color_param(p);
    o.bits = static_cast<int>(integer_param(p, "bits", 32, 1, 1024));
    const Picture picture = layout_picture(layout_of(v, "draw", e), o);
    text = format == "svg" ? render_svg(picture) : render_tikz(picture);
  } else if (format == "cpp" || format == "type" || format == "python") {
    const CodeForm form = format == "cpp"    ? CodeForm::CppExpression
                          : format == "type" ? CodeForm::CppType
                                             : CodeForm::Python;
    text = render_code(v.value, form) + "\n";
  } else {
    throw BadRequest{fmt::format("format is svg, tikz, cpp, type or python, not '{}'", format)};
  }
  return json::Object().str("text", text).raw("warnings", warnings_json(diag)).done();
}

// partition?tensor=T&mma=A[&atoms=..&permute=..]|copy=A&thr=..&val=..[&operand=O][&bits=B][&tile=..&tile_coord=..]
// [&problem=..][&thread=N][&owner=..][&picture=1]: `layoutx partition T --mma A ...` ("text") and its --json
// ("partition"); with picture=1 also the tile's threads as `--format svg` draws them.
std::string call_partition(const Params& p, const Engine& e) {
  const PartitionOptionTexts texts{param(p, "mma"),  param(p, "atoms"), param(p, "permute"),
                                   param(p, "copy"), param(p, "thr"),   param(p, "val")};
  if (const std::string mistake = partition_option_problem(texts); !mistake.empty()) throw BadRequest{mistake};
  const Atom& atom = partition_atom(texts);
  const Notation n = notation_of(e);
  Diagnostics diag(e.strict, n);
  const Evaluated tensor = evaluate(p, "tensor", e, diag);
  // The TiledMMA's and TiledCopy's layouts are C++ types, static in CuTe.
  Engine static_engine = e;
  static_engine.language.dynamic = false;
  auto given = [&](std::string_view name, const Engine& engine, bool tuple = false) -> std::optional<Value> {
    if (param(p, name).empty()) return std::nullopt;
    if (!tuple) return evaluate(p, name, engine, diag).value;
    Params as_tuple{{std::string(name), as_tuple_text(param(p, name))}};
    return evaluate(as_tuple, name, engine, diag).value;
  };
  PartitionOptionValues v;
  v.atoms = given("atoms", static_engine);
  v.permute = given("permute", static_engine);
  v.thr = given("thr", static_engine);
  v.val = given("val", static_engine);
  v.tile = given("tile", static_engine);
  v.tile_coord = given("tile_coord", e);
  v.problem = given("problem", e, true);
  const std::optional<Value> owner = given("owner", e, true);
  for (const auto& [counts, option] : {std::pair{&v.atoms, "--atoms"}, {&v.thr, "--thr"}, {&v.val, "--val"}})
    if (const std::string mistake = count_problem(*counts, option, n); !mistake.empty()) throw BadRequest{mistake};
  v.operand = param(p, "operand");
  v.bits = static_cast<int>(integer_param(p, "bits", 16, 1, 1024));
  if (!param(p, "thread").empty()) v.thread = integer_param(p, "thread", 0, 0, std::int64_t{1} << 30);

  const TilePartition t = partition_tile(atom, tensor.value, v, n, diag);
  const PartitionAnswer& a = t.answer;
  const PartitionView view{t.name,          a.threads,     a.tile, a.tile_origin, a.tile_coord_origin,
                           a.model.swizzle, a.model.bound, v.bits, a.no_fragment, n};
  const std::vector<ThreadAccesses> threads = thread_accesses(a.parts, a.model);
  json::Object answer;
  if (owner) {
    const std::vector<std::int64_t> c = owner_coordinate(*owner, n);
    const std::vector<Owner> owners = owners_of(threads, c);
    answer.str("text", render_owners(view, c, owners, false)).raw("partition", render_owners(view, c, owners, true));
  } else {
    answer.str("text", render_partition_text(view, threads, v.thread.has_value()))
        .raw("partition", render_partition_json(view, threads));
  }
  if (param(p, "picture") == "1") {
    // A tile too large to draw still answers its text; the page says why there is no picture.
    try {
      const TileTv tv = tile_tv(t.partitioner, a, diag);
      const TvView tile{"", tv.tv, tv.thr_id, make_layout(IntTuple::tuple({tv.rows, tv.cols})), false};
      answer.raw("picture", picture_json(tv_picture(tile, picture_options(e)), v.bits));
    } catch (const Error& err) {
      answer.str("picture_error", error_text(err.message(n), "", 0, false));
    }
  }
  return answer.raw("warnings", warnings_json(diag)).done();
}

using Call = std::string (*)(const Params&, const Engine&);

Call call_named(std::string_view name) {
  static const std::map<std::string_view, Call> calls = {{"evaluate", call_evaluate},
                                                         {"grid", call_grid},
                                                         {"offsets", call_offsets},
                                                         {"info", call_info},
                                                         {"explain", call_explain},
                                                         {"eq", call_eq},
                                                         {"tv", call_tv},
                                                         {"atom", call_atom},
                                                         {"bank", call_bank},
                                                         {"export", call_export},
                                                         {"partition", call_partition}};
  const auto it = calls.find(name);
  return it == calls.end() ? nullptr : it->second;
}

Answer refused(const Refusal& r) {
  json::Object o;
  o.str("error", error_text(r.message, r.expression, r.offset, r.located)).str("message", r.message);
  if (r.located) o.num("offset", static_cast<std::int64_t>(r.offset));
  if (!r.parameter.empty()) o.str("parameter", r.parameter);
  return {400, o.done()};
}

Answer failed(int status, const std::string& message) {
  return {status, json::Object().str("error", error_text(message, "", 0, false)).str("message", message).done()};
}

}  // namespace

Answer answer(std::string_view call, const Params& params, const Engine& engine) {
  const Call f = call_named(call);
  if (!f) return failed(404, fmt::format("no API call is named '{}'", call));
  Engine e = engine;
  e.language.extension = &atom_language();
  try {
    return {200, f(params, e)};
  } catch (const Refusal& r) {
    return refused(r);
  } catch (const BadRequest& b) {
    return failed(400, b.message);
  } catch (const Error& err) {
    return failed(400, err.message(notation_of(e)));
  } catch (const std::bad_alloc&) {
    return failed(503, "out of memory");
  }
}

}  // namespace layoutx::serve
