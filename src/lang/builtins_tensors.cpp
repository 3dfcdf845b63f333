// The language's functions on tensors: slice_and_offset, domain_offset and
// CuTe's tensor partitioning (inner_partition, outer_partition, local_tile,
// local_partition) on the tensor a layout stands for. What they compute lives
// in core (layoutx/tensor.hpp); here are their arguments and where an error is
// blamed.
#include <fmt/format.h>

#include <functional>

#include "builtins.hpp"
#include "layoutx/notation.hpp"
#include "layoutx/swizzle_slice.hpp"
#include "layoutx/tensor_partition.hpp"

namespace layoutx::lang::tensors {

namespace {

Value rethrown(const Call& c, const std::function<Value()>& f) {
  try {
    return f();
  } catch (const SourceError&) {
    throw;
  } catch (const Error& e) {
    c.fail(e);
  }
}

Layout partitioned_layout(const Call& c) {
  const Value& v = c.args.at(0);
  if (v.kind == Value::Kind::Composed)
    c.fail_arg(0, fmt::format("{} of a swizzled layout is not supported: CuTe has no coordinate tensor of a "
                              "ComposedLayout (make_coord_tensor does not compile; a swizzled tensor is partitioned "
                              "through its smem pointer); partition its inner layout",
                              c.name()));
  return c.layout(0);
}

}  // namespace

// slice_and_offset(c, L): the slice L(c) and the offset where it starts, crd2idx(c, L) (`_` counts as 0).
Value fn_slice_and_offset(const Call& c) {
  c.expect_args(2, 2);
  const AnyLayout any = c.any_layout(1);
  const Value& coord = c.args[0];
  if (const auto* composed = std::get_if<ComposedLayout>(&any)) try {
      const SlicedLayout s = slice_and_offset(coord, *composed, c.diag);
      return Value::tuple({Value::of(s.layout), Value::of(s.offset)});
    } catch (const SourceError&) {
      throw;
    } catch (const Error& e) {
      c.fail(e);
    }
  const Layout& l = std::get<Layout>(any);
  try {
    return slice_and_offset(coord, l, c.diag.notation());
  } catch (const SourceError&) {
    throw;
  } catch (const Error& e) {
    c.fail(e);
  }
}

// domain_offset(c, L): the layout unchanged and the offset L(c).
Value fn_domain_offset(const Call& c) {
  c.expect_args(2, 2);
  const Layout l = c.layout(1);
  const IntTuple coord = c.int_tuple(0);
  try {
    return domain_offset(coord, l);
  } catch (const SourceError&) {
    throw;
  } catch (const Error& e) {
    c.fail(e);
  }
}

Value fn_inner_partition(const Call& c) {
  c.expect_args(3, 3);
  c.expect_template_args(0, 0);
  const Layout l = partitioned_layout(c);
  return rethrown(c, [&] { return inner_partition(l, c.args[1], c.args[2], c.diag); });
}

Value fn_outer_partition(const Call& c) {
  c.expect_args(3, 3);
  c.expect_template_args(0, 0);
  const Layout l = partitioned_layout(c);
  return rethrown(c, [&] { return outer_partition(l, c.args[1], c.args[2], c.diag); });
}

// local_tile(L, tiler, coord[, projection]): the tile at coord of L divided by the tiler.
Value fn_local_tile(const Call& c) {
  c.expect_args(3, 4);
  c.expect_template_args(0, 0);
  const Layout l = partitioned_layout(c);
  const Value* projection = c.args.size() == 4 ? &c.args[3] : nullptr;
  return rethrown(c, [&] { return local_tile(l, c.args[1], c.args[2], projection, c.diag); });
}

// local_partition(L, threads, index[, projection]): what thread `index` of the thread
// layout owns when L is tiled by the thread layout's shape.
Value fn_local_partition(const Call& c) {
  c.expect_args(3, 4);
  c.expect_template_args(0, 0);
  const Layout l = partitioned_layout(c);
  if (c.args[1].kind != Value::Kind::Layout && !c.args[1].is_int_tuple())
    c.fail_arg(
        1, fmt::format("local_partition takes a thread layout, got {} {}", a_kind_name(c.args[1]), c.text(c.args[1])));
  const Int index = c.integer(2);
  const Value* projection = c.args.size() == 4 ? &c.args[3] : nullptr;
  return rethrown(c, [&] { return local_partition(l, c.layout(1), index, projection, c.diag); });
}

}  // namespace layoutx::lang::tensors
