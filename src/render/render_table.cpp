// The offset table, streamed: an odometer over the flattened modes keeps the
// offset incrementally (one add per index, a carry now and then), so a table of
// any size is written in constant memory.
#include <fmt/format.h>

#include <charconv>

#include "layoutx/notation.hpp"
#include "layoutx/render.hpp"

namespace layoutx {

namespace {

constexpr std::size_t kChunk = std::size_t{1} << 20;

class Writer {
 public:
  explicit Writer(const Sink& sink) : sink_(sink) { buf_.reserve(kChunk + 4096); }
  ~Writer() = default;

  void number(std::int64_t v) {
    char tmp[24];
    auto [end, ec] = std::to_chars(tmp, tmp + sizeof tmp, v);
    buf_.append(tmp, end);
  }
  void text(std::string_view s) { buf_.append(s); }
  void ch(char c) { buf_.push_back(c); }
  void maybe_flush() {
    if (buf_.size() >= kChunk) flush();
  }
  void flush() {
    if (!buf_.empty()) sink_(buf_);
    buf_.clear();
  }

 private:
  const Sink& sink_;
  std::string buf_;
};

// The flattened modes of the (inner) layout and how to map a raw offset.
struct Odometer {
  std::vector<std::int64_t> shape, stride, digit;
  std::int64_t offset = 0;

  explicit Odometer(const Layout& l) {
    for (Int s : leaves(l.shape)) shape.push_back(s.value);
    for (Int d : leaves(l.stride)) stride.push_back(d.value);
    digit.assign(shape.size(), 0);
  }

  // Advance to the next index (column-major: mode 0 fastest).
  void next() {
    for (std::size_t i = 0; i < shape.size(); ++i) {
      offset += stride[i];
      if (++digit[i] < shape[i]) return;
      offset -= stride[i] * shape[i];
      digit[i] = 0;
    }
  }
};

// Hierarchical coordinate text "(a,(b,c))" from the odometer digits.
void coordinate_text(const IntTuple& shape, const std::vector<std::int64_t>& digit, std::size_t& leaf, Writer& w,
                     char open, char close) {
  if (shape.is_leaf()) {
    w.number(digit[leaf++]);
    return;
  }
  w.ch(open);
  for (int i = 0; i < shape.rank(); ++i) {
    if (i) w.ch(',');
    coordinate_text(shape[i], digit, leaf, w, open, close);
  }
  w.ch(close);
}

void check_no_overflow(const Layout& l) {
  // The largest |offset| reached is bounded by sum((s-1)*|d|) + |offset|; compute it checked.
  (void)cosize(l);
}

}  // namespace

void render_offsets(const AnyLayout& any, OffsetFormat format, const Sink& sink) {
  const Layout& l = inner_layout(any);
  check_no_overflow(l);
  const ComposedLayout* composed = std::get_if<ComposedLayout>(&any);
  const std::int64_t n = size(l).value;
  Odometer od(l);
  Writer w(sink);
  auto offset = [&]() -> std::int64_t {
    if (!composed) return od.offset;
    return apply_swizzles(*composed, static_int(od.offset)).value;
  };

  switch (format) {
    case OffsetFormat::Plain:
      for (std::int64_t i = 0; i < n; ++i, od.next()) {
        w.number(offset());
        w.ch('\n');
        w.maybe_flush();
      }
      break;
    case OffsetFormat::Csv:
    case OffsetFormat::Tsv: {
      const char sep = format == OffsetFormat::Csv ? ',' : '\t';
      const char* quote = format == OffsetFormat::Csv ? "\"" : "";
      w.text(format == OffsetFormat::Csv ? "index,coordinate,offset\n" : "index\tcoordinate\toffset\n");
      for (std::int64_t i = 0; i < n; ++i, od.next()) {
        std::size_t leaf = 0;
        w.number(i);
        w.ch(sep);
        w.text(quote);
        coordinate_text(l.shape, od.digit, leaf, w, '(', ')');
        w.text(quote);
        w.ch(sep);
        w.number(offset());
        w.ch('\n');
        w.maybe_flush();
      }
      break;
    }
    case OffsetFormat::Json:
    case OffsetFormat::Jsonl: {
      const bool lines = format == OffsetFormat::Jsonl;
      if (!lines) w.text("[\n");
      for (std::int64_t i = 0; i < n; ++i, od.next()) {
        std::size_t leaf = 0;
        if (!lines) w.text(i ? ",\n  " : "  ");
        w.text("{\"index\":");
        w.number(i);
        w.text(",\"coord\":");
        coordinate_text(l.shape, od.digit, leaf, w, '[', ']');
        w.text(",\"offset\":");
        w.number(offset());
        w.ch('}');
        if (lines) w.ch('\n');
        w.maybe_flush();
      }
      if (!lines) w.text(n ? "\n]\n" : "]\n");
      break;
    }
  }
  w.flush();
}

}  // namespace layoutx
