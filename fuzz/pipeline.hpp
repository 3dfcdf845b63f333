// The fuzzing pipeline, shared by the libFuzzer target and the regression
// test: bytes -> expression -> evaluate_expression -> every renderer (notation,
// grid and coloured grid, offsets in every format, info with its properties,
// the layout picture as SVG, TikZ and HTML), in both integer modes. layoutx::Error is the expected way to refuse an
// input; any other exception, a crash or a sanitizer report is a finding. A few cheap consistency checks (round trip of
// the notation, streamed offsets against L(i)) turn wrong numbers into findings too: they throw PipelineFinding.
#pragma once

#include <charconv>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "layoutx/language.hpp"
#include "layoutx/notation.hpp"
#include "layoutx/render.hpp"
#include "layoutx/render_picture.hpp"

namespace layoutx::fuzz {

// Not a layoutx::Error, so it is never mistaken for a refused input.
struct PipelineFinding : std::logic_error {
  using std::logic_error::logic_error;
};

struct PipelineLimits {
  std::size_t max_depth = 32;
  std::size_t max_length = 4096;
  std::int64_t max_cells = 4096;                  // render_grid
  std::int64_t max_rows = std::int64_t{1} << 16;  // render_offsets: larger tables are skipped
  std::int64_t max_rows_other = 4096;             // the same for the csv/json/jsonl formats (slower rows)
  std::int64_t checked_rows = 256;                // offsets compared with L(i)
};

// Counts what render_offsets streams and keeps the first offsets of the plain format.
class CountingSink {
 public:
  explicit CountingSink(std::size_t keep) : keep_(keep) {}

  void operator()(std::string_view chunk) {
    bytes_ += chunk.size();
    for (char c : chunk) {
      if (c != '\n') {
        line_ += c;
        continue;
      }
      ++lines_;
      if (first_.size() < keep_) first_.push_back(parse(line_));
      line_.clear();
    }
  }

  std::size_t bytes() const { return bytes_; }
  std::int64_t lines() const { return lines_; }
  const std::vector<std::int64_t>& first() const { return first_; }

 private:
  static std::int64_t parse(const std::string& s) {
    std::int64_t v = 0;
    auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || ptr != s.data() + s.size()) throw PipelineFinding("offsets: not a number: '" + s + "'");
    return v;
  }

  std::size_t keep_;
  std::size_t bytes_ = 0;
  std::int64_t lines_ = 0;
  std::string line_;
  std::vector<std::int64_t> first_;
};

namespace detail {

inline LanguageOptions language(const PipelineLimits& limits, bool dynamic) {
  LanguageOptions o;
  o.dynamic = dynamic;
  o.max_depth = limits.max_depth;
  o.max_length = limits.max_length;
  return o;
}

// Every string print writes parses back to the same value (the round trip).
inline void check_round_trip(const std::string& text, bool dynamic) {
  LanguageOptions o;
  o.dynamic = dynamic;
  o.max_depth = 256;  // the deepest the command line accepts
  o.max_length = std::size_t{1} << 24;
  const Notation n{.static_marks = dynamic};
  Value again;
  try {
    Diagnostics diag(false, n);
    again = evaluate_expression(text, o, diag);
  } catch (const Error& e) {
    throw PipelineFinding("round trip: '" + text + "' does not parse back: " + e.what());
  }
  if (render_notation(again, n) != text)
    throw PipelineFinding("round trip: '" + text + "' reads back as '" + render_notation(again, n) + "'");
}

// The streamed table, row for row, against evaluation of the 1-D index.
inline void check_offsets(const AnyLayout& l, const PipelineLimits& limits) {
  const std::int64_t n = size(l).value;
  if (n < 0 || n > limits.max_rows) return;
  CountingSink sink(static_cast<std::size_t>(limits.checked_rows));
  render_offsets(l, OffsetFormat::Plain, [&](std::string_view chunk) { sink(chunk); });
  if (sink.lines() != n)
    throw PipelineFinding("offsets: " + std::to_string(sink.lines()) + " rows for a layout of size " +
                          std::to_string(n));
  for (std::size_t i = 0; i < sink.first().size(); ++i) {
    const std::int64_t want = evaluate(l, IntTuple(static_int(static_cast<std::int64_t>(i)))).value;
    if (sink.first()[i] != want)
      throw PipelineFinding("offsets: row " + std::to_string(i) + " is " + std::to_string(sink.first()[i]) + " but L(" +
                            std::to_string(i) + ") = " + std::to_string(want));
  }
  if (n > limits.max_rows_other) return;
  for (OffsetFormat f : {OffsetFormat::Csv, OffsetFormat::Json, OffsetFormat::Jsonl}) {
    CountingSink other(0);
    render_offsets(l, f, [&](std::string_view chunk) { other(chunk); });
  }
}

template <class F>
void expect_error_or_ok(F f) {
  try {
    f();
  } catch (const Error&) {
  }
}

inline void run_mode(std::string_view expression, const PipelineLimits& limits, bool dynamic) {
  const Notation n{.static_marks = dynamic};
  Diagnostics diag(false, n);
  Value v;
  try {
    v = evaluate_expression(expression, language(limits, dynamic), diag);
  } catch (const Error&) {
    return;  // a refused expression: the expected outcome for most inputs
  }
  const std::string text = render_notation(v, n);
  if (text.size() <= (std::size_t{1} << 20)) check_round_trip(text, dynamic);
  GridOptions grid;
  grid.max_cells = limits.max_cells;
  grid.notation = n;
  expect_error_or_ok([&] { (void)render_grid(v, grid); });
  expect_error_or_ok([&] { (void)render_grid_color(v, grid, GridColoring{ColorBy::Bank, 16}); });
  expect_error_or_ok([&] { (void)render_info(v, InfoOptions{.notation = n}); });
  expect_error_or_ok([&] { (void)render_info(v, InfoOptions{true, true, n}); });
  if (v.is_layout_like() || v.is_int_tuple()) {
    expect_error_or_ok([&] {
      const AnyLayout l = *v.as_layout();
      check_offsets(l, limits);
    });
    expect_error_or_ok([&] {
      PictureOptions picture;
      picture.max_cells = picture.grid_max_cells = limits.max_cells;
      picture.notation = n;
      const Picture p = layout_picture(*v.as_layout(), picture);
      (void)render_svg(p);
      (void)render_tikz(p);
      (void)render_html(p, "fuzz");
    });
  }
}

}  // namespace detail

// Runs the whole pipeline on one input; returns normally unless something is wrong.
inline void run_pipeline(std::string_view input, const PipelineLimits& limits = {}) {
  detail::run_mode(input, limits, false);
  detail::run_mode(input, limits, true);
}

}  // namespace layoutx::fuzz
