// Triton GPU encodings as Triton prints them (the MLIR attribute text:
// `#ttg.blocked<{...}>`, `#ttg.nvidia_mma<{...}>`, `#ttg.dot_op<{...}>`,
// `#ttg.slice<{...}>`, `#ttg.swizzled_shared<{...}>`, `#ttg.nvmma_shared<{...}>`,
// `#ttg.linear<{...}>`, `#ttg.shared_linear<{...}>`) and LinearLayout's own
// text, turned into the linear layout Triton derives for a tensor shape.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "layoutx/error.hpp"
#include "layoutx/linear_layout.hpp"

namespace layoutx::triton {

// An error located in the text: `offset` is the byte the message is about.
class TextError : public Error {
 public:
  TextError(const std::string& message, std::size_t offset) : Error(message), offset_(offset) {}
  std::size_t offset() const { return offset_; }

 private:
  std::size_t offset_;
};

// Whether the text is meant as a Triton layout rather than a CuTe expression.
bool is_triton_text(std::string_view text);

// The linear layout of a Triton layout text for a tensor shape. Encodings
// need the shape; the linear forms carry their own (a shape given must agree).
LinearLayout linear_layout_of(std::string_view text, const std::vector<std::int64_t>& shape);

// Whether a linear layout maps shared-memory offsets (input `offset`) rather
// than registers, lanes and warps.
bool is_shared(const LinearLayout& l);

// The tensor shape a linear layout covers (its output sizes, dim0 first).
std::vector<std::int64_t> covered_shape(const LinearLayout& l);

}  // namespace layoutx::triton
