// Text and JSON for the analyses (analysis.hpp) and for explain's trace.
// Like every renderer: reads engine values, never parses.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "layoutx/analysis.hpp"
#include "layoutx/render.hpp"
#include "layoutx/trace.hpp"

namespace layoutx {

// info's property lines ("injective: true", ...), after the fixed keys;
// `tv` adds the thread-value lines. As (key, JSON value) pairs for render_info.
struct PropertyRow {
  std::string key;
  std::string text;  // plain-text value
  std::string json;  // JSON value
};
std::vector<PropertyRow> property_rows(const AnyLayout& l, bool tv);

struct EqualityView {
  bool json = false;
  bool color = false;
  bool grid = true;                                // draw the marked grid when they differ
  std::int64_t max_cells = std::int64_t{1} << 20;  // larger grids are left out with a note
  Notation notation;
};

std::string render_comparison(const Comparison& c, const AnyLayout& a, const AnyLayout& b, const EqualityView& view);
// The same report handed to `sink` in pieces: the grid a block of rows at a time, never held whole.
void render_comparison(const Comparison& c, const AnyLayout& a, const AnyLayout& b, const EqualityView& view,
                       const Sink& sink);
std::string render_structural(bool equal, const AnyLayout& a, const AnyLayout& b, bool json, Notation n);

// One lookup result per line: index, per-mode coordinate, natural coordinate,
// offset (tab-separated), or a JSON object per line.
std::string render_location_header();
std::string render_location(const Location& loc, bool json);

std::string render_coalescing(const Coalescing& c, const CoalescingOptions& options, bool json);

// The operations and steps of one expression's evaluation as an indented tree
// (or nested JSON). `error`: the message the evaluation stopped with.
struct TraceView {
  std::string expression;
  std::optional<std::string> result;  // the value, in CuTe's notation
  std::optional<std::string> error;
  bool truncated = false;
  bool json = false;
};
std::string render_trace(const std::vector<trace::Event>& events, const TraceView& view);

}  // namespace layoutx
