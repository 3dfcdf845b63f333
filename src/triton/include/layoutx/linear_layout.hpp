// Triton's LinearLayout: for each input dimension (register, lane, warp,
// block; offset for shared memory) a list of basis vectors in the output
// dimensions (dim0, dim1, ...). Input bit k of a dimension maps to its k-th
// basis; the image of an input is the XOR of the bases of its set bits.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace layoutx::triton {

using Basis = std::vector<std::int64_t>;  // one coordinate per output dimension

struct InputDim {
  std::string name;
  std::vector<Basis> bases;
};

struct OutputDim {
  std::string name;
  std::int64_t size = 1;  // a power of two
};

class LinearLayout {
 public:
  LinearLayout() = default;
  // Output sizes given; every basis must have one coordinate per output.
  LinearLayout(std::vector<InputDim> inputs, std::vector<OutputDim> outputs);
  // Output sizes inferred: the smallest power of two above every coordinate.
  static LinearLayout inferred(std::vector<InputDim> inputs, const std::vector<std::string>& outputs);

  // size -> `in` maps i to i in `out` (size a power of two).
  static LinearLayout identity_1d(std::int64_t size, std::string_view in, std::string_view out);
  // size -> `in` maps everything to 0 in `out` (which has size 1).
  static LinearLayout zeros_1d(std::int64_t size, std::string_view in, std::string_view out);

  const std::vector<InputDim>& inputs() const { return inputs_; }
  const std::vector<OutputDim>& outputs() const { return outputs_; }
  // The bases of an input dimension (none when it is absent).
  const std::vector<Basis>& bases(std::string_view input) const;
  // -1 when absent.
  int output_index(std::string_view name) const;
  std::int64_t output_size(std::string_view name) const;  // 1 when absent
  std::int64_t input_size(std::string_view name) const;   // 2^bases

  // The same map with its output dimensions in the given order.
  LinearLayout transpose_outs(const std::vector<std::string>& order) const;
  // The image of input value `value` of dimension `input` (other inputs 0).
  Basis apply(std::string_view input, std::int64_t value) const;

  bool operator==(const LinearLayout& o) const;

 private:
  std::vector<InputDim> inputs_;
  std::vector<OutputDim> outputs_;
};

// Triton's product: `outer` repeats `inner`, its bases scaled by inner's
// output sizes; input and output dimensions are united, inner's first.
LinearLayout operator*(const LinearLayout& inner, const LinearLayout& outer);

// "dim0", "dim1", ...
std::vector<std::string> standard_out_dims(int rank);
// The dimension number of a standard output name ("dim3" -> 3).
int standard_dim_number(std::string_view name);

// identity_1d(shape[d], in, dim d) for d in order, multiplied in that order.
LinearLayout identity_standard_nd(std::string_view in, const std::vector<std::int64_t>& shape,
                                  const std::vector<int>& order);

// Repeats the layout (in its first input dimension) until each output covers
// shape[d]; the outputs in the layout's order.
LinearLayout ensure_not_smaller(const LinearLayout& l, const std::vector<std::int64_t>& shape);
// Zeroes the largest bases of an output until it fits shape[d]: those inputs
// then broadcast (a zero register basis holds a copy).
LinearLayout ensure_not_larger(const LinearLayout& l, const std::vector<std::int64_t>& shape);
// The layout without standard output `dim`; later outputs renumbered.
LinearLayout remove_standard_dim(const LinearLayout& l, int dim);

// The `#ttg.linear<{register = [[0, 1]], lane = ..., warp = ..., block = []}>`
// attribute of a distributed layout, or `#ttg.shared_linear<{offset = ...,
// block = []}, alignment = A>` of a shared one.
std::string to_attribute_text(const LinearLayout& l, std::int64_t alignment = 16);
// Triton's LinearLayout::toString() text.
std::string to_layout_text(const LinearLayout& l);

}  // namespace layoutx::triton
