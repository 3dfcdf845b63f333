#include "layoutx/linear_layout.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

#include "layoutx/error.hpp"
#include "layoutx/integer.hpp"

namespace layoutx::triton {

namespace {

int log2_exact(std::int64_t size) {
  if (!is_power_of_two(size)) throw Error(fmt::format("a linear layout's size must be a power of two, got {}", size));
  int k = 0;
  while ((std::int64_t{1} << k) < size) ++k;
  return k;
}

std::int64_t power_above(std::int64_t v) {
  std::int64_t p = 1;
  while (p <= v) p <<= 1;
  return p;
}

const std::vector<Basis> kNoBases;

// No GPU layout spans more than this along one dimension; past it the
// coordinates of a product would overflow.
constexpr std::int64_t kMaxOutputSize = std::int64_t{1} << 40;

}  // namespace

LinearLayout::LinearLayout(std::vector<InputDim> inputs, std::vector<OutputDim> outputs)
    : inputs_(std::move(inputs)), outputs_(std::move(outputs)) {
  for (const auto& in : inputs_)
    for (const auto& b : in.bases)
      if (b.size() != outputs_.size())
        throw Error(fmt::format("a basis of '{}' has {} coordinates for {} output dimensions", in.name, b.size(),
                                outputs_.size()));
}

LinearLayout LinearLayout::inferred(std::vector<InputDim> inputs, const std::vector<std::string>& outputs) {
  std::vector<OutputDim> outs;
  for (std::size_t d = 0; d < outputs.size(); ++d) {
    std::int64_t largest = 0;
    for (const auto& in : inputs)
      for (const auto& b : in.bases)
        if (d < b.size()) largest = std::max(largest, b[d]);
    outs.push_back({outputs[d], power_above(largest)});
  }
  return LinearLayout(std::move(inputs), std::move(outs));
}

LinearLayout LinearLayout::identity_1d(std::int64_t size, std::string_view in, std::string_view out) {
  InputDim dim{std::string(in), {}};
  for (int k = 0; k < log2_exact(size); ++k) dim.bases.push_back({std::int64_t{1} << k});
  return LinearLayout({dim}, {{std::string(out), size}});
}

LinearLayout LinearLayout::zeros_1d(std::int64_t size, std::string_view in, std::string_view out) {
  InputDim dim{std::string(in), {}};
  for (int k = 0; k < log2_exact(size); ++k) dim.bases.push_back({0});
  return LinearLayout({dim}, {{std::string(out), 1}});
}

const std::vector<Basis>& LinearLayout::bases(std::string_view input) const {
  for (const auto& in : inputs_)
    if (in.name == input) return in.bases;
  return kNoBases;
}

int LinearLayout::output_index(std::string_view name) const {
  for (std::size_t i = 0; i < outputs_.size(); ++i)
    if (outputs_[i].name == name) return static_cast<int>(i);
  return -1;
}

std::int64_t LinearLayout::output_size(std::string_view name) const {
  const int i = output_index(name);
  return i < 0 ? 1 : outputs_[static_cast<std::size_t>(i)].size;
}

std::int64_t LinearLayout::input_size(std::string_view name) const { return std::int64_t{1} << bases(name).size(); }

LinearLayout LinearLayout::transpose_outs(const std::vector<std::string>& order) const {
  std::vector<int> from;
  std::vector<OutputDim> outs;
  for (const auto& name : order) {
    const int i = output_index(name);
    if (i < 0) throw Error(fmt::format("no output dimension '{}'", name));
    from.push_back(i);
    outs.push_back(outputs_[static_cast<std::size_t>(i)]);
  }
  if (outs.size() != outputs_.size()) throw Error("transposing a linear layout needs every output dimension once");
  std::vector<InputDim> ins = inputs_;
  for (auto& in : ins)
    for (auto& b : in.bases) {
      Basis moved;
      for (int i : from) moved.push_back(b[static_cast<std::size_t>(i)]);
      b = std::move(moved);
    }
  return LinearLayout(std::move(ins), std::move(outs));
}

Basis LinearLayout::apply(std::string_view input, std::int64_t value) const {
  Basis out(outputs_.size(), 0);
  const auto& bs = bases(input);
  for (std::size_t k = 0; k < bs.size(); ++k)
    if ((value >> k) & 1)
      for (std::size_t d = 0; d < out.size(); ++d) out[d] ^= bs[k][d];
  return out;
}

bool LinearLayout::operator==(const LinearLayout& o) const {
  if (outputs_.size() != o.outputs_.size() || inputs_.size() != o.inputs_.size()) return false;
  for (std::size_t i = 0; i < outputs_.size(); ++i)
    if (outputs_[i].name != o.outputs_[i].name || outputs_[i].size != o.outputs_[i].size) return false;
  for (std::size_t i = 0; i < inputs_.size(); ++i)
    if (inputs_[i].name != o.inputs_[i].name || inputs_[i].bases != o.inputs_[i].bases) return false;
  return true;
}

LinearLayout operator*(const LinearLayout& inner, const LinearLayout& outer) {
  std::vector<OutputDim> outs = inner.outputs();
  for (const auto& o : outer.outputs())
    if (inner.output_index(o.name) < 0) outs.push_back({o.name, 1});
  for (auto& o : outs) {
    const std::int64_t factor = outer.output_size(o.name);
    if (o.size > kMaxOutputSize / factor)
      throw Error(
          fmt::format("the layout spans more than 2^40 elements along {}: no GPU layout is that large", o.name));
    o.size *= factor;
  }

  std::vector<std::string> in_names;
  for (const auto& in : inner.inputs()) in_names.push_back(in.name);
  for (const auto& in : outer.inputs())
    if (std::find(in_names.begin(), in_names.end(), in.name) == in_names.end()) in_names.push_back(in.name);

  // A basis of `from` re-expressed over the united outputs, each coordinate scaled.
  const auto widen = [&](const Basis& b, const LinearLayout& from, bool scale) {
    Basis out(outs.size(), 0);
    for (std::size_t d = 0; d < outs.size(); ++d) {
      const int i = from.output_index(outs[d].name);
      if (i < 0) continue;
      out[d] = b[static_cast<std::size_t>(i)] * (scale ? inner.output_size(outs[d].name) : 1);
    }
    return out;
  };
  std::vector<InputDim> ins;
  for (const auto& name : in_names) {
    InputDim dim{name, {}};
    for (const auto& b : inner.bases(name)) dim.bases.push_back(widen(b, inner, false));
    for (const auto& b : outer.bases(name)) dim.bases.push_back(widen(b, outer, true));
    ins.push_back(std::move(dim));
  }
  return LinearLayout(std::move(ins), std::move(outs));
}

std::vector<std::string> standard_out_dims(int rank) {
  std::vector<std::string> names;
  for (int d = 0; d < rank; ++d) names.push_back(fmt::format("dim{}", d));
  return names;
}

int standard_dim_number(std::string_view name) {
  int d = -1;
  if (name.size() > 3 && name.substr(0, 3) == "dim") std::from_chars(name.data() + 3, name.data() + name.size(), d);
  return d;
}

LinearLayout identity_standard_nd(std::string_view in, const std::vector<std::int64_t>& shape,
                                  const std::vector<int>& order) {
  const auto names = standard_out_dims(static_cast<int>(shape.size()));
  LinearLayout l;
  for (int d : order)
    l = l * LinearLayout::identity_1d(shape[static_cast<std::size_t>(d)], in, names[static_cast<std::size_t>(d)]);
  return l;
}

namespace {

std::int64_t wanted_size(const std::vector<std::int64_t>& shape, std::string_view name) {
  const int d = standard_dim_number(name);
  if (d < 0 || static_cast<std::size_t>(d) >= shape.size()) throw Error(fmt::format("no size for output '{}'", name));
  return shape[static_cast<std::size_t>(d)];
}

}  // namespace

LinearLayout ensure_not_smaller(const LinearLayout& l, const std::vector<std::int64_t>& shape) {
  if (l.inputs().empty()) return l;
  const std::string first = l.inputs().front().name;
  LinearLayout out = l;
  for (const auto& o : l.outputs()) {
    const std::int64_t want = wanted_size(shape, o.name);
    if (o.size < want) out = out * LinearLayout::identity_1d(want / o.size, first, o.name);
  }
  return out;
}

LinearLayout ensure_not_larger(const LinearLayout& l, const std::vector<std::int64_t>& shape) {
  std::vector<InputDim> ins = l.inputs();
  std::vector<std::string> names;
  for (std::size_t d = 0; d < l.outputs().size(); ++d) {
    const auto& o = l.outputs()[d];
    names.push_back(o.name);
    std::int64_t actual = o.size;
    const std::int64_t want = wanted_size(shape, o.name);
    if (actual <= want) continue;
    struct Found {
      std::size_t in, k;
      std::int64_t value;
    };
    std::vector<Found> found;
    for (std::size_t i = 0; i < ins.size(); ++i)
      for (std::size_t k = 0; k < ins[i].bases.size(); ++k)
        if (ins[i].bases[k][d] != 0) found.push_back({i, k, ins[i].bases[k][d]});
    std::stable_sort(found.begin(), found.end(), [](const Found& a, const Found& b) { return a.value > b.value; });
    for (const auto& f : found) {
      if (actual <= want) break;
      ins[f.in].bases[f.k][d] = 0;
      actual >>= 1;
    }
  }
  std::vector<OutputDim> outs = l.outputs();
  for (auto& o : outs) o.size = std::min(o.size, wanted_size(shape, o.name));
  return LinearLayout(std::move(ins), std::move(outs));
}

LinearLayout remove_standard_dim(const LinearLayout& l, int dim) {
  const int at = l.output_index(fmt::format("dim{}", dim));
  std::vector<OutputDim> outs;
  for (std::size_t i = 0; i < l.outputs().size(); ++i) {
    if (static_cast<int>(i) == at) continue;
    OutputDim o = l.outputs()[i];
    const int d = standard_dim_number(o.name);
    if (d > dim) o.name = fmt::format("dim{}", d - 1);
    outs.push_back(o);
  }
  std::vector<InputDim> ins = l.inputs();
  for (auto& in : ins)
    for (auto& b : in.bases)
      if (at >= 0) b.erase(b.begin() + at);
  return LinearLayout(std::move(ins), std::move(outs));
}

namespace {

std::string basis_list(const std::vector<Basis>& bases) {
  std::vector<std::string> parts;
  for (const auto& b : bases) parts.push_back(fmt::format("[{}]", fmt::join(b, ", ")));
  return fmt::format("[{}]", fmt::join(parts, ", "));
}

}  // namespace

std::string to_attribute_text(const LinearLayout& l, std::int64_t alignment) {
  const bool shared =
      std::any_of(l.inputs().begin(), l.inputs().end(), [](const InputDim& d) { return d.name == "offset"; });
  std::vector<std::string> fields;
  for (const char* name : shared ? std::vector<const char*>{"offset", "block"}
                                 : std::vector<const char*>{"register", "lane", "warp", "block"})
    fields.push_back(fmt::format("{} = {}", name, basis_list(l.bases(name))));
  if (shared) return fmt::format("#ttg.shared_linear<{{{}}}, alignment = {}>", fmt::join(fields, ", "), alignment);
  return fmt::format("#ttg.linear<{{{}}}>", fmt::join(fields, ", "));
}

std::string to_layout_text(const LinearLayout& l) {
  std::vector<std::string> outs;
  for (const auto& o : l.outputs()) outs.push_back(fmt::format("{} (size {})", o.name, o.size));
  const std::string out_list = fmt::format("[{}]", fmt::join(outs, ", "));
  if (l.inputs().empty())
    return l.outputs().empty() ? "\n(empty layout)" : "\n(empty layout with out-dims " + out_list + ")";
  std::string text = "\n";
  for (const auto& in : l.inputs()) {
    if (in.bases.empty()) {
      text += fmt::format(" - {} is a size 1 dimension\n", in.name);
      continue;
    }
    for (std::size_t k = 0; k < in.bases.size(); ++k)
      text += fmt::format("{}{}={} -> ({})\n", k == 0 ? " - " : "   ", in.name, std::int64_t{1} << k,
                          fmt::join(in.bases[k], ", "));
  }
  return text + "where out dims are: " + out_list;
}

}  // namespace layoutx::triton
