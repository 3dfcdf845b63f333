#include "layoutx/notation.hpp"

#include <charconv>
#include <iterator>

#include "layoutx/layout.hpp"

namespace layoutx {

namespace {

// Text written through a buffer on the stack and appended to the string a
// block at a time: printing is a large part of a small expression's cost,
// and std::string's per-character append checks its capacity and writes its
// terminator every time.
class TextWriter {
 public:
  explicit TextWriter(std::string& out) : out_(out) {}
  TextWriter(const TextWriter&) = delete;
  TextWriter& operator=(const TextWriter&) = delete;
  ~TextWriter() { flush(); }

  void put(char c) {
    if (at_ == std::end(buffer_)) flush();
    *at_++ = c;
  }

  // '_' marks, the decimal digits and the @modes of a scaled basis.
  void integer(Int i, Notation n) {
    if (std::end(buffer_) - at_ < kLongestInteger) flush();
    if (i.is_static && n.static_marks) *at_++ = '_';
    decimal(i.value);
    // CuTe prints ScaledBasis<T, N0, N1, ...> as its value then @N in reverse order.
    for (int k = i.basis.rank; k-- > 0;) {
      *at_++ = '@';
      decimal(i.basis.modes[k]);
    }
  }

  void flush() {
    out_.append(buffer_, at_);
    at_ = buffer_;
  }

 private:
  // '_', 20 characters of an int64, and six @modes of at most three digits.
  static constexpr std::ptrdiff_t kLongestInteger = 1 + 20 + Basis::kMaxRank * 4;

  void decimal(std::int64_t v) {
    if (v >= 0 && v < 10) {  // most integers of most layouts
      *at_++ = static_cast<char>('0' + v);
      return;
    }
    at_ = std::to_chars(at_, std::end(buffer_), v).ptr;
  }

  std::string& out_;
  char buffer_[256];
  char* at_ = buffer_;
};

void write_text(TextWriter& w, const IntTuple& t, Notation n) {
  if (t.is_leaf()) {
    w.integer(t.value(), n);
    return;
  }
  w.put('(');
  bool first = true;
  for (const IntTuple& e : t.elems()) {
    if (!first) w.put(',');
    first = false;
    if (e.is_leaf())
      w.integer(e.value(), n);  // no call per integer
    else
      write_text(w, e, n);
  }
  w.put(')');
}

void append_text(std::string& out, const IntTuple& t, Notation n) {
  TextWriter w(out);
  write_text(w, t, n);
}

}  // namespace

std::string to_text(Int i, Notation n) {
  std::string out;
  TextWriter(out).integer(i, n);
  return out;
}

std::string to_text(const IntTuple& t, Notation n) {
  std::string out;
  append_text(out, t, n);
  return out;
}

void append_text(std::string& out, const Layout& l, Notation n) {
  TextWriter w(out);
  write_text(w, l.shape, n);
  w.put(':');
  write_text(w, l.stride, n);
}

std::string to_text(const Layout& l, Notation n) {
  std::string out;
  out.reserve(48);  // one block for the text of a small layout
  append_text(out, l, n);
  return out;
}

}  // namespace layoutx
