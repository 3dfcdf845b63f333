// A fixed block that streamed tables are written straight into, handed to the
// sink whenever the next row might not fit: one sink call per megabyte instead
// of one per number, and no string growth on the hot path.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>

#include "decimal.hpp"
#include "layoutx/render.hpp"

namespace layoutx::render_detail {

inline char* put_text(char* p, std::string_view s) {
  if (s.empty()) return p;  // an empty view may hold a null pointer, which memcpy must not get
  std::memcpy(p, s.data(), s.size());
  return p + s.size();
}

class ChunkBuffer {
 public:
  // `row_limit`: the most bytes one row can take; the block always has room for
  // one, plus kBlock for the fixed-size copies of decimal.hpp.
  ChunkBuffer(const Sink& sink, std::size_t row_limit)
      : sink_(sink),
        capacity_(std::max(kChunk, 2 * row_limit)),
        row_limit_(row_limit + kBlock),
        data_(new char[capacity_]),
        cursor_(data_.get()) {}

  // Where the next row goes, with room for row_limit bytes.
  char* row() {
    if (room() < row_limit_) flush();
    return cursor_;
  }
  // How many rows of at most `row_bytes` (plus kBlock scratch) fit before the next flush; at least one.
  std::size_t rows_that_fit(std::size_t row_bytes) {
    if (room() < row_bytes + kBlock) flush();
    return (room() - kBlock) / row_bytes;
  }
  char* cursor() { return cursor_; }
  // Take back the last n bytes written (still in the block: nothing flushes between).
  void retract(std::size_t n) { cursor_ -= n; }
  void advance_to(char* p) { cursor_ = p; }
  void text(std::string_view s) {
    if (s.size() + kBlock > row_limit_) {
      flush();
      sink_(s);
      return;
    }
    cursor_ = put_text(row(), s);
  }

  void flush() {
    if (cursor_ != data_.get()) sink_(std::string_view(data_.get(), static_cast<std::size_t>(cursor_ - data_.get())));
    cursor_ = data_.get();
  }

 private:
  static constexpr std::size_t kChunk = std::size_t{1} << 20;
  std::size_t room() const { return capacity_ - static_cast<std::size_t>(cursor_ - data_.get()); }

  const Sink& sink_;
  std::size_t capacity_, row_limit_;
  std::unique_ptr<char[]> data_;
  char* cursor_;
};

}  // namespace layoutx::render_detail
