#include "layout_text.hpp"

#include <fmt/format.h>

#include <cctype>
#include <charconv>

#include "layoutx/triton_encoding.hpp"

namespace layoutx::triton {

namespace {

constexpr std::int64_t kMaxCoordinate = std::int64_t{1} << 24;

class LineReader {
 public:
  LineReader(std::string_view text, std::size_t line_start) : text_(text), base_(line_start) {}

  [[noreturn]] void fail(const std::string& what) const { throw TextError(what, base_ + pos_); }

  void skip_space() {
    while (pos_ < text_.size() && text_[pos_] == ' ') ++pos_;
  }
  bool accept(std::string_view s) {
    skip_space();
    if (text_.substr(pos_, s.size()) != s) return false;
    pos_ += s.size();
    return true;
  }
  void expect(std::string_view s) {
    if (!accept(s)) fail(fmt::format("expected '{}'", s));
  }
  bool at_end() {
    skip_space();
    return pos_ >= text_.size();
  }
  std::string name() {
    skip_space();
    const std::size_t start = pos_;
    while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) ++pos_;
    if (start == pos_) fail("expected a dimension name");
    return std::string(text_.substr(start, pos_ - start));
  }
  std::int64_t integer() {
    skip_space();
    std::int64_t v = 0;
    const auto [end, ec] = std::from_chars(text_.data() + pos_, text_.data() + text_.size(), v);
    if (ec != std::errc() || v < 0 || v > kMaxCoordinate)
      fail(fmt::format("expected an integer in 0..{}", kMaxCoordinate));
    pos_ = static_cast<std::size_t>(end - text_.data());
    return v;
  }

 private:
  std::string_view text_;
  std::size_t base_;
  std::size_t pos_ = 0;
};

}  // namespace

LinearLayout parse_layout_text(std::string_view text) {
  std::vector<InputDim> inputs;
  std::vector<OutputDim> outputs;
  bool have_outputs = false;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    LineReader line(text.substr(start, end - start), start);
    if (have_outputs && !line.at_end()) line.fail("unexpected text after the output dimensions");
    if (line.at_end()) {
    } else if (line.accept("where out dims are:")) {
      line.expect("[");
      if (!line.accept("]")) {
        do {
          OutputDim o{line.name(), 1};
          line.expect("(size");
          o.size = line.integer();
          if (o.size <= 0 || (o.size & (o.size - 1)) != 0) line.fail("an output size must be a power of two");
          line.expect(")");
          outputs.push_back(std::move(o));
        } while (line.accept(","));
        line.expect("]");
      }
      have_outputs = true;
    } else if (line.accept("(empty layout")) {
      line.fail("an empty linear layout maps nothing");
    } else {
      const bool first = line.accept("-");
      const std::string name = line.name();
      if (first) {
        inputs.push_back({name, {}});
        if (line.accept("is a size 1 dimension")) {
          if (!line.at_end()) line.fail("unexpected text");
          start = end + 1;
          continue;
        }
      }
      if (inputs.empty() || inputs.back().name != name)
        line.fail(fmt::format("'{}' continues no input dimension", name));
      auto& bases = inputs.back().bases;
      line.expect("=");
      if (bases.size() > 40 || line.integer() != (std::int64_t{1} << bases.size()))
        line.fail(fmt::format("expected {}={}", name, std::int64_t{1} << std::min<std::size_t>(bases.size(), 40)));
      line.expect("->");
      line.expect("(");
      Basis b;
      if (!line.accept(")")) {
        do b.push_back(line.integer());
        while (line.accept(","));
        line.expect(")");
      }
      if (!line.at_end()) line.fail("unexpected text after the basis");
      bases.push_back(std::move(b));
    }
    start = end + 1;
  }
  if (!have_outputs) throw TextError("LinearLayout text ends without 'where out dims are: [...]'", text.size());
  for (const auto& in : inputs)
    for (const auto& b : in.bases)
      if (b.size() != outputs.size())
        throw TextError(fmt::format("a basis of '{}' has {} coordinates for {} output dimensions", in.name, b.size(),
                                    outputs.size()),
                        0);
  return LinearLayout(std::move(inputs), std::move(outputs));
}

}  // namespace layoutx::triton
