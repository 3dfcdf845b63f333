// The offset table, streamed in constant memory. The common case walks the
// flattened modes with an odometer (layout_walk.hpp) and writes rows straight
// into a fixed block; a layout the walk cannot prove exact for (non-positive
// extents, offsets near the 64-bit limit) is evaluated index by index with the
// engine's checked arithmetic, after a first pass that finds any error before
// a byte is written.
#include <string>
#include <type_traits>

#include "chunk_buffer.hpp"
#include "layoutx/arithmetic_tuple.hpp"
#include "layoutx/layout_walk.hpp"
#include "layoutx/render.hpp"

namespace layoutx {

using namespace render_detail;
using walk::leaf_modes;
using walk::Mode;
using walk::Odometer;
using walk::SwizzleChain;
using walk::walk_is_exact;

namespace {

// The fixed text of a row: lead, start, INDEX, before, COORD, after, OFFSET, end.
struct RowStyle {
  std::string_view header, first_lead, lead, start, before, after, end, footer, empty_footer;
  std::string_view open = "(", close = ")", comma = ",";
};

RowStyle style_of(OffsetFormat f) {
  switch (f) {
    case OffsetFormat::Csv: return {"index,coordinate,offset\n", "", "", "", ",\"", "\",", "\n", "", ""};
    case OffsetFormat::Tsv: return {"index\tcoordinate\toffset\n", "", "", "", "\t", "\t", "\n", "", ""};
    case OffsetFormat::Json:
      return {"[\n", "  ", ",\n  ", "{\"index\":", ",\"coord\":", ",\"offset\":", "}", "\n]\n", "]\n", "[", "]"};
    case OffsetFormat::Jsonl:
      return {"", "", "", "{\"index\":", ",\"coord\":", ",\"offset\":", "}\n", "", "", "[", "]"};
    // One column per leaf of the coordinate; the header is made per layout (split_header).
    case OffsetFormat::CsvSplit: return {"", "", "", "", ",", ",", "\n", "", "", "", "", ","};
    case OffsetFormat::TsvSplit: return {"", "", "", "", "\t", "\t", "\n", "", "", "", "", "\t"};
    case OffsetFormat::Plain: break;
  }
  return {};
}

// The literal text between the leaves of a coordinate: "(" "," ",(" ... ")".
void coordinate_segments(const IntTuple& shape, const RowStyle& st, std::vector<std::string>& seg) {
  if (shape.is_leaf()) {
    seg.emplace_back();
    return;
  }
  seg.back() += st.open;
  for (int i = 0; i < shape.rank(); ++i) {
    if (i) seg.back() += st.comma;
    coordinate_segments(shape[i], st, seg);
  }
  seg.back() += st.close;
}

std::size_t total_size(const std::vector<std::string>& parts) {
  std::size_t n = 0;
  for (const auto& p : parts) n += p.size();
  return n;
}

// Runs up to this long have the text of each coordinate digit made up front.
constexpr std::int64_t kMaxListedDigits = 4096;

// The offset map of a plain layout.
struct Unswizzled {
  std::int64_t operator()(std::int64_t x) const { return x; }
};

bool in_decimal_range(std::int64_t x) { return x >= 0 && static_cast<std::uint64_t>(x) < BcdNumber::kLimit; }

// Whether the offsets x0, x0 + d, ..., x0 + (e-1)d of a run are kept in
// decimal; a short run does not pay back setting up the decimal form.
template <class Map>
bool run_in_decimal(std::int64_t x0, std::int64_t d, std::int64_t e) {
  constexpr std::int64_t kShortRun = 4;
  if constexpr (!std::is_same_v<Map, Unswizzled>) return false;
  return e >= kShortRun && x0 >= 0 && d >= 0 && in_decimal_range(x0 + (e - 1) * d);
}

// Plain: one offset per line. A run is the innermost (coalesced) mode: as many
// of its rows as the block holds go in one tight loop, and the odometer only
// moves between runs.
template <class Map>
void stream_plain(const std::vector<Mode>& leaves, const Map& map, ChunkBuffer& out) {
  constexpr std::size_t kRow = kMaxIntChars + 1;
  const std::vector<Mode> modes = walk::walked_modes(leaves);
  const std::int64_t extent = modes.front().shape, stride = modes.front().stride;
  Odometer od(modes);
  const BcdNumber step(in_decimal_range(stride) ? stride : 0);
  do {
    std::int64_t x = od.offset();
    const bool decimal = run_in_decimal<Map>(x, stride, extent);
    BcdNumber text(decimal ? x : 0);
    for (std::int64_t k = 0; k < extent;) {
      const std::int64_t rows = std::min(extent - k, static_cast<std::int64_t>(out.rows_that_fit(kRow)));
      char* p = out.cursor();
      if (decimal) {
        for (std::int64_t r = 0; r < rows; ++r, text.add(step)) {
          p = text.put(p);
          *p++ = '\n';
        }
      } else {
        for (std::int64_t r = 0; r < rows; ++r, x += stride) {
          p = put_int(p, map(x));
          *p++ = '\n';
        }
      }
      out.advance_to(p);
      k += rows;
    }
  } while (od.step(1) < od.modes());
}

// Index, coordinate and offset, run by run over the fastest-moving leaf (the
// first with extent > 1). Within a run only the index, that leaf's digit and
// the offset change, and all three count up in decimal; the coordinate text
// before the digit is fixed and the text after it is rebuilt once per run.
// Each row ends with the row end, the next row's lead and start in one piece;
// after the last row the lead and start are taken back.
template <class Map>
void stream_rows(const Layout& l, const std::vector<Mode>& leaves, std::int64_t n, const Map& map, const RowStyle& st,
                 std::size_t row_bytes, ChunkBuffer& out) {
  std::vector<std::string> seg{""};
  coordinate_segments(l.shape, st, seg);
  std::size_t fast = 0;
  while (fast + 1 < leaves.size() && leaves[fast].shape == 1) ++fast;
  std::string prefix(st.before);
  for (std::size_t i = 0; i < fast; ++i) prefix += seg[i] + "0";
  prefix += seg[fast];

  const std::int64_t extent = leaves[fast].shape, stride = leaves[fast].stride;
  const bool counts_in_decimal = static_cast<std::uint64_t>(n) <= BcdNumber::kLimit;
  const bool listed = counts_in_decimal && extent <= kMaxListedDigits;
  // The coordinate text up to and including the fast digit, for each digit of a short run.
  std::vector<Piece> heads;
  if (listed)
    for (std::int64_t k = 0; k < extent; ++k) heads.emplace_back(prefix + std::to_string(k));
  std::vector<PieceView> head;
  for (const Piece& h : heads) head.push_back(h.view());
  const Piece before_digit_text(prefix);
  const Piece joint_text(std::string(st.end) + std::string(st.lead) + std::string(st.start));
  const PieceView before_digit = before_digit_text.view(), joint = joint_text.view();

  Odometer od(leaves);
  // The text after the fast digit, written once per run into a padded buffer.
  std::vector<Piece> tail_segments;
  for (std::size_t i = fast + 1; i < leaves.size(); ++i) tail_segments.emplace_back(seg[i]);
  const Piece tail_end(seg[leaves.size()] + std::string(st.after));
  std::string tail_text(row_bytes + kBlock, '\0');
  auto rebuild_tail = [&] {
    char* p = tail_text.data();
    for (std::size_t i = fast + 1; i < leaves.size(); ++i) {
      p = tail_segments[i - fast - 1].view().put(p);
      p = put_int(p, od.digits()[i]);
    }
    p = tail_end.view().put(p);
    return PieceView{tail_text.data(), static_cast<std::size_t>(p - tail_text.data())};
  };

  out.text(std::string(st.first_lead) + std::string(st.start));
  const BcdNumber one(1), step(in_decimal_range(stride) ? stride : 0);
  BcdNumber index;
  std::int64_t run_start = 0;
  do {
    const PieceView tail = rebuild_tail();
    std::int64_t x = od.offset();
    const bool decimal = run_in_decimal<Map>(x, stride, extent);
    BcdNumber digit, offset(decimal ? x : 0);
    for (std::int64_t k = 0; k < extent;) {
      const std::int64_t stop = k + std::min(extent - k, static_cast<std::int64_t>(out.rows_that_fit(row_bytes)));
      char* p = out.cursor();
      if (counts_in_decimal && listed && decimal) {
        // The common case, every column in decimal: no choice of format in the
        // row (x is only read when the offsets are not in decimal).
        for (; k < stop; ++k) {
          p = index.put(p);
          p = head[k].put(p);
          p = tail.put(p);
          p = offset.put(p);
          p = joint.put(p);
          index.add(one);
          offset.add(step);
        }
      }
      for (; k < stop; ++k, x += stride) {
        p = counts_in_decimal ? index.put(p) : put_int(p, run_start + k);
        if (listed) {
          p = head[k].put(p);
        } else {
          p = before_digit.put(p);
          p = counts_in_decimal ? digit.put(p) : put_int(p, k);
          digit.add(one);
        }
        p = tail.put(p);
        p = decimal ? offset.put(p) : put_int(p, map(x));
        p = joint.put(p);
        index.add(one);
        offset.add(step);
      }
      out.advance_to(p);
    }
    run_start += extent;
  } while (od.step(fast + 1) < od.modes());
  out.retract(st.lead.size() + st.start.size());
}

// The engine's own answer for index i, for layouts the walk does not cover.
struct Evaluated {
  const AnyLayout& layout;
  std::int64_t offset(std::int64_t i) const { return evaluate(layout, IntTuple(static_int(i))).value; }
};

void put_coordinate(std::string& s, const IntTuple& c, const RowStyle& st) {
  if (c.is_leaf()) {
    s += std::to_string(c.value().value);
    return;
  }
  s += st.open;
  for (int i = 0; i < c.rank(); ++i) {
    if (i) s += st.comma;
    put_coordinate(s, c[i], st);
  }
  s += st.close;
}

// A first pass raises any error (an overflow) before the first byte goes out.
void check_by_evaluation(const AnyLayout& any, std::int64_t n, OffsetFormat format) {
  const Evaluated e{any};
  const IntTuple& shape = inner_layout(any).shape;
  for (std::int64_t i = 0; i < n; ++i) {
    (void)e.offset(i);
    if (format != OffsetFormat::Plain) (void)idx2crd(static_int(i), shape);
  }
}

void stream_evaluated(const AnyLayout& any, std::int64_t n, OffsetFormat format, const RowStyle& st, ChunkBuffer& out) {
  const Evaluated e{any};
  const IntTuple& shape = inner_layout(any).shape;
  std::string coord;
  for (std::int64_t i = 0; i < n; ++i) {
    char* p = out.row();
    if (format == OffsetFormat::Plain) {
      p = put_int(p, e.offset(i));
      *p++ = '\n';
    } else {
      coord.clear();
      put_coordinate(coord, idx2crd(static_int(i), shape), st);
      p = put_text(p, i ? st.lead : st.first_lead);
      p = put_text(p, st.start);
      p = put_int(p, i);
      p = put_text(p, st.before);
      p = put_text(p, coord);
      p = put_text(p, st.after);
      p = put_int(p, e.offset(i));
      p = put_text(p, st.end);
    }
    out.advance_to(p);
  }
}

// The most bytes one row can take: every number at full width.
std::size_t row_limit(const IntTuple& shape, const RowStyle& st) {
  std::vector<std::string> seg{""};
  coordinate_segments(shape, st, seg);
  const std::size_t fixed = st.lead.size() + st.start.size() + st.before.size() + st.after.size() + st.end.size();
  return 64 + fixed + total_size(seg) + (seg.size() + 2) * kMaxIntChars;
}

// index, coord0, coord1, ..., offset: a column per leaf of the shape.
std::string split_header(const IntTuple& shape, std::string_view separator) {
  const std::size_t n = leaves(shape).size();
  std::string h = "index";
  for (std::size_t i = 0; i < n; ++i) h += std::string(separator) + "coord" + std::to_string(i);
  if (n == 0) h += std::string(separator) + "coord";  // the empty tuple's coordinate: an empty column
  return h + std::string(separator) + "offset\n";
}

}  // namespace

void render_offsets(const AnyLayout& any, OffsetFormat format, const Sink& sink) {
  const Layout& l = inner_layout(any);
  if (std::holds_alternative<Layout>(any) && is_coordinate_layout(l)) return render_coordinate_offsets(l, format, sink);
  const std::int64_t n = size(l).value;
  const std::vector<Mode> leaves = leaf_modes(l);
  const SwizzleChain chain = SwizzleChain::of(any);
  RowStyle st = style_of(format);
  const bool split = format == OffsetFormat::CsvSplit || format == OffsetFormat::TsvSplit;
  const std::string header = split ? split_header(l.shape, st.comma) : "";
  if (split) st.header = header;
  const std::size_t row_bytes = row_limit(l.shape, st);
  ChunkBuffer out(sink, row_bytes);

  // A shape with no leaves (the empty tuple, size 1) has nothing to walk: it is evaluated.
  const bool walk = n > 0 && !leaves.empty() && walk_is_exact(leaves, chain);
  if (n > 0 && !walk) check_by_evaluation(any, n, format);

  out.text(st.header);
  const Unswizzled identity;
  if (walk && format == OffsetFormat::Plain)
    chain.empty() ? stream_plain(leaves, identity, out) : stream_plain(leaves, chain, out);
  else if (walk)
    chain.empty() ? stream_rows(l, leaves, n, identity, st, row_bytes, out)
                  : stream_rows(l, leaves, n, chain, st, row_bytes, out);
  else if (n > 0)
    stream_evaluated(any, n, format, st, out);
  out.text(n > 0 ? st.footer : st.empty_footer);
  out.flush();
}

}  // namespace layoutx
